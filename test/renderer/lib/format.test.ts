import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../../src-renderer/i18n';
import {
  createFormatter,
  formatAmount,
  formatBytes,
  formatCompactAmount,
  formatDate,
  formatDateTime,
  formatDuration,
  formatMonth,
  formatNumber,
  formatWorkTime,
  setFormatPreferences,
} from '../../../src-renderer/lib/format';

afterEach(async () => {
  setFormatPreferences({ locale: 'en', dateFormat: 'yyyy-MM-dd', timezone: 'UTC', timeFormat: 24, numberFormat: 'locale' });
  await i18n.changeLanguage('en');
});

/** Intl separates with no-break spaces where a person types plain ones. */
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('formatting in the user’s preferences', () => {
  it('writes days in the user’s date format, as calendar days (no time-zone shift)', () => {
    for (const [fmt, out] of [
      ['dd/MM/yyyy', '05/03/2026'],
      ['MM/dd/yyyy', '03/05/2026'],
      ['yyyy-MM-dd', '2026-03-05'],
      ['dd.MM.yyyy', '05.03.2026'],
    ] as const) {
      setFormatPreferences({ dateFormat: fmt, timezone: 'Pacific/Honolulu' });
      expect(formatDate('2026-03-05')).toBe(out);
    }
  });

  it('writes instants on their day and time in the user’s zone and clock', () => {
    setFormatPreferences({ locale: 'de-DE', dateFormat: 'dd.MM.yyyy', timezone: 'Europe/Berlin', timeFormat: 24 });
    expect(formatDateTime('2026-03-05T23:30:00Z')).toBe('06.03.2026 00:30');
    setFormatPreferences({ locale: 'en-US', dateFormat: 'MM/dd/yyyy', timezone: 'America/New_York', timeFormat: 12 });
    expect(formatDateTime('2026-03-05T23:30:00Z')).toBe('03/05/2026 6:30 PM');
  });

  it('writes amounts in the user’s locale with the currency’s symbol and its own number of decimals', () => {
    setFormatPreferences({ locale: 'de-DE' });
    expect(formatAmount(-35.11, 'EUR')).toBe('-35,11 €');
    expect(formatAmount(127899.74, 'EUR')).toBe('127.899,74 €');
    setFormatPreferences({ locale: 'en-GB' });
    expect(formatAmount(-35.11, 'EUR')).toBe('-€35.11');
    setFormatPreferences({ locale: 'en-US' });
    expect(formatAmount(1234, 'JPY')).toBe('¥1,234');
    expect(formatAmount(null, 'EUR')).toBe('—');
  });

  it('puts the chosen separators on every number, whatever the locale', () => {
    setFormatPreferences({ locale: 'en-GB', numberFormat: '1.234,56' });
    expect(formatAmount(-1234.5, 'EUR')).toBe('-€1.234,50');
    expect(formatNumber(1234567)).toBe('1.234.567');
    setFormatPreferences({ locale: 'de-DE', numberFormat: '1’234.56' });
    expect(formatAmount(1234.5, 'CHF')).toBe('1’234.50 CHF');
    setFormatPreferences({ locale: 'fr-FR', numberFormat: '1,234.56' });
    expect(plain(formatNumber(1234.5, 2))).toBe('1,234.50');
  });

  it('writes chart amounts short, the currency where the locale puts it', () => {
    setFormatPreferences({ locale: 'de-DE' });
    expect(formatCompactAmount(150_000, 'EUR')).toBe('150k €');
    expect(formatCompactAmount(-2_500, 'EUR')).toBe('-2,5k €');
    expect(formatCompactAmount(0, 'EUR')).toBe('0 €');
    setFormatPreferences({ locale: 'en-GB' });
    expect(formatCompactAmount(1_200_000, 'EUR')).toBe('€1.2M');
    expect(formatCompactAmount(-150_000, 'USD')).toBe('-US$150k');
    expect(formatCompactAmount(950, 'GBP')).toBe('£950');
  });

  it('names months in the user’s language', () => {
    setFormatPreferences({ locale: 'de-DE' });
    expect(formatMonth('2026-03', 'long')).toBe('März 2026');
    expect(formatMonth('2026-12-15')).toBe('Dez. 26');
    setFormatPreferences({ locale: 'fr-FR' });
    expect(formatMonth('2026-02', 'long')).toBe('février 2026');
    setFormatPreferences({ locale: 'en-GB' });
    expect(formatMonth('2026-09')).toBe('Sept 26');
  });

  it('says durations the way people do, in the user’s language', () => {
    setFormatPreferences({ locale: 'en' });
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(12_400)).toBe('12 sec');
    expect(formatDuration(184_000)).toBe('3 min 4 sec');
    expect(formatDuration(7_500_000)).toBe('2 hr 5 min');
    expect(formatDuration(null)).toBe('—');
    setFormatPreferences({ locale: 'de-DE' });
    expect(plain(formatDuration(7_500_000))).toBe('2 Std. 5 Min.');
  });

  it('says time worked as a timesheet does: hours and minutes, never milliseconds or "0 min" after whole hours', () => {
    setFormatPreferences({ locale: 'en' });
    expect(formatWorkTime(4 * 3600)).toBe('4 hr');
    expect(formatWorkTime(4 * 3600 + 5 * 60)).toBe('4 hr 5 min');
    expect(formatWorkTime(25 * 60 + 20)).toBe('25 min');
    expect(formatWorkTime(0)).toBe('0 min');
    expect(formatWorkTime(20)).toBe('20 sec');
    expect(formatWorkTime(3599.6)).toBe('1 hr');
    setFormatPreferences({ locale: 'de-DE' });
    expect(plain(formatWorkTime(4 * 3600))).toBe('4 Std.');
  });

  it('says file sizes in the locale’s short units, one decimal below ten', () => {
    setFormatPreferences({ locale: 'en' });
    expect(formatBytes(850)).toBe('850 byte');
    expect(formatBytes(12_345)).toBe('12 kB');
    expect(formatBytes(2_440_000)).toBe('2.4 MB');
    expect(formatBytes(9_990_000)).toBe('10 MB');
    expect(formatBytes(258_000_000)).toBe('258 MB');
    expect(formatBytes(-1)).toBe('—');
    setFormatPreferences({ locale: 'de-DE' });
    expect(plain(formatBytes(2_440_000))).toBe('2,4 MB');
    setFormatPreferences({ locale: 'en', numberFormat: '1.234,56' });
    expect(formatBytes(1_500_000_000)).toBe('1,5 GB');
  });

  it('formats with other preferences without changing the user’s (a preview of a choice)', () => {
    setFormatPreferences({ locale: 'en-GB', dateFormat: 'yyyy-MM-dd' });
    const preview = createFormatter({
      locale: 'de-DE',
      dateFormat: 'dd.MM.yyyy',
      timezone: 'UTC',
      timeFormat: 24,
      numberFormat: 'locale',
    });
    expect(preview.amount(-35.11, 'EUR')).toBe('-35,11 €');
    expect(preview.date('2026-03-05')).toBe('05.03.2026');
    expect(formatDate('2026-03-05')).toBe('2026-03-05');
  });

  it('gives numbers in sentences the user’s formats through the translations', async () => {
    setFormatPreferences({ locale: 'de-DE' });
    await i18n.changeLanguage('de');
    expect(i18n.t('transactions:count', { count: 1204 })).toBe('1.204 Umsätze');
    expect(i18n.t('transactions:count', { count: 1 })).toBe('1 Umsatz');
  });
});
