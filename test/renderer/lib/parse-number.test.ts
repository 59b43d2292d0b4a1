import { afterEach, describe, expect, it } from 'vitest';
import { setFormatPreferences } from '../../../src-renderer/lib/format';
import { currentMarks, parseDecimal } from '../../../src-renderer/lib/parse-number';

afterEach(() => setFormatPreferences({ locale: 'en', numberFormat: 'locale' }));

const GERMAN = { decimal: ',', group: '.' };
const ENGLISH = { decimal: '.', group: ',' };

describe('reading typed numbers', () => {
  it('takes the marks from the user’s number format', () => {
    setFormatPreferences({ locale: 'de-DE', numberFormat: 'locale' });
    expect(currentMarks()).toEqual(GERMAN);
    setFormatPreferences({ locale: 'de-DE', numberFormat: '1’234.56' });
    expect(currentMarks()).toEqual({ decimal: '.', group: '’' });
    setFormatPreferences({ locale: 'en-GB', numberFormat: 'locale' });
    expect(currentMarks()).toEqual(ENGLISH);
  });

  it('reads German and English forms, whole and grouped', () => {
    expect(parseDecimal('1.234,50', GERMAN)).toBe(1234.5);
    expect(parseDecimal('1,234.50', ENGLISH)).toBe(1234.5);
    expect(parseDecimal('12,5', GERMAN)).toBe(12.5);
    expect(parseDecimal('1.500', GERMAN)).toBe(1500);
    expect(parseDecimal('1,500', ENGLISH)).toBe(1500);
    expect(parseDecimal('1 234,5', GERMAN)).toBe(1234.5);
    expect(parseDecimal('1’234.5', ENGLISH)).toBe(1234.5);
    expect(parseDecimal(' 95 ', GERMAN)).toBe(95);
  });

  it('reads the other habit’s decimal mark as one, where it cannot be grouping', () => {
    expect(parseDecimal('12,5', ENGLISH)).toBe(12.5);
    expect(parseDecimal('12.5', GERMAN)).toBe(12.5);
    expect(parseDecimal('0.125', ENGLISH)).toBe(0.125);
  });

  it('keeps a sign and refuses what is not a number', () => {
    expect(parseDecimal('-30,5', GERMAN)).toBe(-30.5);
    expect(parseDecimal('−2', GERMAN)).toBe(-2);
    for (const bad of ['', 'abc', '1,2,3', '1..2', '12a', '--1', '1.2.3,4.5x']) expect(parseDecimal(bad, GERMAN), bad).toBeNull();
  });
});
