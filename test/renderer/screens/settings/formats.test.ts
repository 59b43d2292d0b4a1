import { describe, expect, it } from 'vitest';
import {
  dateFormatOf,
  hasChosenFormats,
  localeChoices,
  localeName,
  suggestFormats,
  suggestLocale,
  timeFormatOf,
  withLocale,
} from '../../../../src-renderer/screens/settings/formats';

describe('personal formats', () => {
  it('asks until a user has chosen: the server’s default locale has no region, a choice always has one', () => {
    expect(hasChosenFormats({ locale: 'en' })).toBe(false);
    expect(hasChosenFormats({ locale: 'de-AT' })).toBe(true);
    expect(hasChosenFormats({ locale: 'not a locale' })).toBe(false);
  });

  it('suggests the browser’s locale when offered, else its language’s first region, else British English', () => {
    expect(suggestLocale('de-CH')).toBe('de-CH');
    expect(suggestLocale('de')).toBe('de-DE');
    expect(suggestLocale('fr-LU')).toBe('fr-FR');
    expect(suggestLocale('ja-JP')).toBe('en-GB');
    expect(suggestLocale(undefined)).toBe('en-GB');
  });

  it('knows each locale’s usual day and clock', () => {
    expect([dateFormatOf('de-DE'), timeFormatOf('de-DE')]).toEqual(['dd.MM.yyyy', 24]);
    expect([dateFormatOf('en-US'), timeFormatOf('en-US')]).toEqual(['MM/dd/yyyy', 12]);
    expect([dateFormatOf('en-GB'), timeFormatOf('en-GB')]).toEqual(['dd/MM/yyyy', 24]);
    expect([dateFormatOf('fr-FR'), timeFormatOf('fr-FR')]).toEqual(['dd/MM/yyyy', 24]);
    expect(dateFormatOf('en-CA')).toBe('yyyy-MM-dd');
    expect(suggestFormats('en-US', 'America/Chicago')).toMatchObject({ weekStartsOnMonday: false, timezone: 'America/Chicago' });
    expect(suggestFormats('de-AT', 'Europe/Vienna')).toMatchObject({ weekStartsOnMonday: true, numberFormat: 'locale' });
  });

  it('offers the user’s own locale too, named in the screens’ language', () => {
    expect(localeChoices('nl-NL')[0]).toBe('nl-NL');
    expect(localeChoices('de-DE').filter((l) => l === 'de-DE')).toHaveLength(1);
    expect(localeName('de-AT', 'de')).toBe('Deutsch (Österreich)');
    expect(localeName('de-AT', 'en')).toBe('German (Austria)');
  });

  it('choosing another language brings its date format and clock, unless the user set them apart', () => {
    const british = suggestFormats('en-GB', 'Europe/Berlin');
    expect(withLocale(british, 'de-DE')).toMatchObject({ locale: 'de-DE', dateFormat: 'dd.MM.yyyy', timeFormat: 24 });
    const american = suggestFormats('en-US', 'America/New_York');
    expect(withLocale(american, 'de-DE')).toMatchObject({ dateFormat: 'dd.MM.yyyy', timeFormat: 24, weekStartsOnMonday: true });
    // An ISO date chosen on purpose stays.
    expect(withLocale({ ...british, dateFormat: 'yyyy-MM-dd' }, 'de-DE').dateFormat).toBe('yyyy-MM-dd');
  });
});
