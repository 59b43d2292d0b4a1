import { describe, expect, it } from 'vitest';
import { clock, durationText, parseDuration, wallClock, weekDays } from '../../../../src-renderer/screens/time/week';

const GERMAN = { decimal: ',', group: '.' };
const ENGLISH = { decimal: '.', group: ',' };

describe('the time screen’s rules', () => {
  it('lists a week’s days from its Monday, across a month’s end', () => {
    expect(weekDays('2026-11-30')).toEqual([
      '2026-11-30',
      '2026-12-01',
      '2026-12-02',
      '2026-12-03',
      '2026-12-04',
      '2026-12-05',
      '2026-12-06',
    ]);
  });

  it('reads durations as people type them; a bare number is hours', () => {
    expect(parseDuration('1:30', GERMAN)).toBe(5400);
    expect(parseDuration('1,5', GERMAN)).toBe(5400);
    expect(parseDuration('1.5', ENGLISH)).toBe(5400);
    expect(parseDuration('2', ENGLISH)).toBe(7200);
    expect(parseDuration('45m', ENGLISH)).toBe(2700);
    expect(parseDuration('45 min', ENGLISH)).toBe(2700);
    expect(parseDuration('2h 15m', ENGLISH)).toBe(8100);
    expect(parseDuration('1,5h', GERMAN)).toBe(5400);
    for (const bad of ['', '0', 'abc', '1:75', '-1', 'h']) expect(parseDuration(bad, ENGLISH), bad).toBeNull();
  });

  it('writes the running clock with two-digit minutes and seconds', () => {
    expect(clock(0)).toBe('0:00:00');
    expect(clock(309)).toBe('0:05:09');
    expect(clock(43_200)).toBe('12:00:00');
    expect(clock(-5)).toBe('0:00:00');
  });

  it('shows an entry’s start on its day in the user’s zone, and its duration as hours:minutes, both read back', () => {
    expect(wallClock('2026-03-29T00:30:00Z', 'Europe/Berlin')).toEqual({ day: '2026-03-29', time: '01:30' });
    expect(wallClock('2026-03-29T01:30:00Z', 'Europe/Berlin')).toEqual({ day: '2026-03-29', time: '03:30' }); // after DST
    expect(wallClock('2026-11-30T23:15:00Z', 'Europe/Berlin')).toEqual({ day: '2026-12-01', time: '00:15' });
    expect(wallClock('2026-12-01T03:00:00Z', 'America/New_York')).toEqual({ day: '2026-11-30', time: '22:00' });
    expect(durationText(5400)).toBe('1:30');
    expect(durationText(60 * 605)).toBe('10:05');
    expect(parseDuration(durationText(8100), GERMAN)).toBe(8100);
  });
});
