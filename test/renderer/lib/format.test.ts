import { afterEach, describe, expect, it } from 'vitest';
import { formatAmount, formatDate, formatDateTime, formatDuration, setFormatPreferences } from '../../../src-renderer/lib/format';

afterEach(() => setFormatPreferences({ locale: 'en', dateFormat: 'yyyy-MM-dd', timezone: 'UTC', timeFormat: 24 }));

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
    setFormatPreferences({ dateFormat: 'dd.MM.yyyy', timezone: 'Europe/Berlin', timeFormat: 24 });
    expect(formatDateTime('2026-03-05T23:30:00Z')).toBe('06.03.2026 00:30');
    setFormatPreferences({ dateFormat: 'MM/dd/yyyy', timezone: 'America/New_York', timeFormat: 12 });
    expect(formatDateTime('2026-03-05T23:30:00Z')).toBe('03/05/2026 6:30 PM');
  });

  it('writes amounts in the user’s locale with the currency and its own number of decimals', () => {
    setFormatPreferences({ locale: 'de-DE' });
    expect(formatAmount(-1234.5, 'EUR')).toBe('-1.234,50 EUR');
    setFormatPreferences({ locale: 'en-US' });
    expect(formatAmount(1234, 'JPY')).toBe('JPY 1,234');
    expect(formatAmount(null, 'EUR')).toBe('—');
  });

  it('says durations the way people do', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(12_400)).toBe('12 s');
    expect(formatDuration(184_000)).toBe('3 min 4 s');
    expect(formatDuration(7_500_000)).toBe('2 h 5 min');
    expect(formatDuration(null)).toBe('—');
  });
});
