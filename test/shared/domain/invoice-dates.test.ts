import { describe, expect, it } from 'vitest';
import {
  addDays,
  dayIn,
  daysBetween,
  isCalendarDay,
  isPastDue,
  isTimeZone,
  overdueInstant,
} from '../../../src-shared/domain/invoice-dates';

describe('invoice dates', () => {
  it('is past due from the first instant after the due date in the invoice time zone', () => {
    // Due 2025-03-10 in Berlin (UTC+1 in March before DST): overdue from 2025-03-10T23:00:00Z.
    expect(isPastDue('2025-03-10', 'Europe/Berlin', new Date('2025-03-10T22:59:59.999Z'))).toBe(false);
    expect(isPastDue('2025-03-10', 'Europe/Berlin', new Date('2025-03-10T23:00:00.000Z'))).toBe(true);
    // The same instant is still the 10th in New York.
    expect(isPastDue('2025-03-10', 'America/New_York', new Date('2025-03-10T23:00:00.000Z'))).toBe(false);
    expect(isPastDue('2025-03-10', 'America/New_York', new Date('2025-03-11T04:00:00.000Z'))).toBe(true);
    // Kiribati is 14 hours ahead of UTC.
    expect(isPastDue('2025-03-10', 'Pacific/Kiritimati', new Date('2025-03-10T10:00:00.000Z'))).toBe(true);
  });

  it('finds the overdue instant, across DST changes', () => {
    expect(overdueInstant('2025-03-10', 'Europe/Berlin').toISOString()).toBe('2025-03-10T23:00:00.000Z');
    expect(overdueInstant('2025-07-10', 'Europe/Berlin').toISOString()).toBe('2025-07-10T22:00:00.000Z');
    expect(overdueInstant('2025-03-08', 'America/New_York').toISOString()).toBe('2025-03-09T05:00:00.000Z');
    expect(overdueInstant('2025-03-09', 'America/New_York').toISOString()).toBe('2025-03-10T04:00:00.000Z');
    expect(overdueInstant('2025-01-01', 'UTC').toISOString()).toBe('2025-01-02T00:00:00.000Z');
    // Santiago skips 00:00 → 01:00 when DST starts (2024-09-08): that day begins at 01:00 local = 04:00Z.
    expect(overdueInstant('2024-09-07', 'America/Santiago').toISOString()).toBe('2024-09-08T04:00:00.000Z');
    for (const tz of ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'America/Santiago']) {
      for (const due of ['2024-03-30', '2024-09-07', '2024-10-26', '2024-11-02', '2024-04-06']) {
        const at = overdueInstant(due, tz);
        expect(isPastDue(due, tz, at), `${tz} ${due}`).toBe(true);
        expect(isPastDue(due, tz, new Date(at.getTime() - 1)), `${tz} ${due}`).toBe(false);
      }
    }
  });

  it('has day helpers', () => {
    expect(dayIn(new Date('2025-12-31T23:30:00Z'), 'Asia/Tokyo')).toBe('2026-01-01');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-02-28', 30)).toBe('2024-03-29');
    expect(daysBetween('2024-01-01', '2024-03-01')).toBe(60);
    expect(isCalendarDay('2024-02-30')).toBe(false);
    expect(isCalendarDay('2024-02-29')).toBe(true);
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});
