import { describe, expect, it } from 'vitest';
import { parseClock, weekStart, zonedInstant } from '../../../src-renderer/lib/zoned-time';

describe('weeks and times in the user’s zone', () => {
  it('counts weeks from Monday', () => {
    expect(weekStart('2026-11-26')).toBe('2026-11-23'); // a Thursday
    expect(weekStart('2026-11-23')).toBe('2026-11-23'); // the Monday itself
    expect(weekStart('2026-11-29')).toBe('2026-11-23'); // the Sunday ends it
    expect(weekStart('2027-01-01')).toBe('2026-12-28');
  });

  it('reads the times people type', () => {
    expect(parseClock('9')).toBe(540);
    expect(parseClock('9:30')).toBe(570);
    expect(parseClock('09.30')).toBe(570);
    expect(parseClock('0930')).toBe(570);
    expect(parseClock('17h45')).toBe(1065);
    for (const bad of ['', '24:00', '9:60', 'nine', '9:3']) expect(parseClock(bad), bad).toBeNull();
  });

  it('turns a time on a day in a zone into its instant, also across DST changes', () => {
    expect(zonedInstant('2026-11-26', 9 * 60, 'Europe/Berlin')).toBe('2026-11-26T08:00:00.000Z');
    expect(zonedInstant('2026-07-01', 9 * 60, 'Europe/Berlin')).toBe('2026-07-01T07:00:00.000Z');
    expect(zonedInstant('2026-11-26', 9 * 60, 'UTC')).toBe('2026-11-26T09:00:00.000Z');
    expect(zonedInstant('2026-11-26', 23 * 60 + 30, 'America/New_York')).toBe('2026-11-27T04:30:00.000Z');
    // 02:30 does not exist in Berlin on 29 March 2026: the same time after the jump (03:30 CEST).
    expect(zonedInstant('2026-03-29', 150, 'Europe/Berlin')).toBe('2026-03-29T01:30:00.000Z');
    // 02:30 happens twice on 25 October 2026: the second time (CET).
    expect(zonedInstant('2026-10-25', 150, 'Europe/Berlin')).toBe('2026-10-25T01:30:00.000Z');
    expect(zonedInstant('2026-04-05', 10 * 60, 'Asia/Kolkata')).toBe('2026-04-05T04:30:00.000Z');
  });
});
