import { describe, expect, it } from 'vitest';
import { levelDay, nextReminderLevel, scheduledLevel } from '../../../src-shared/domain/dunning';

const levels = [
  { daysAfterDue: 0, fee: 0 },
  { daysAfterDue: 14, fee: 5 },
  { daysAfterDue: 28, fee: 10 },
];

describe('dunning levels', () => {
  it('takes the level after the highest sent, and stays at the last', () => {
    expect(nextReminderLevel([], 0)).toBeNull();
    expect(nextReminderLevel(levels, 0)).toBe(1);
    expect(nextReminderLevel(levels, 2)).toBe(3);
    expect(nextReminderLevel(levels, 3)).toBe(3);
    expect(nextReminderLevel(levels, 7)).toBe(3);
  });

  it.each([
    ['2026-05-01', 0, 1], // overdue from the day after: level 1 (0 days) has come
    ['2026-05-14', 1, null], // day 13: level 2 not yet
    ['2026-05-15', 1, 2], // day 14
    ['2026-05-15', 2, null], // already had it
    ['2026-06-30', 0, 3], // a month away: one reminder, the level reached, not each missed one
    ['2026-06-30', 3, null],
  ])('on %s, having had level %i: %s', (today, had, want) => {
    expect(scheduledLevel(levels, '2026-05-01', today, had)).toBe(want);
  });

  it('names the day of a level', () => {
    expect(levelDay(levels, 2, '2026-05-01')).toBe('2026-05-15');
    expect(levelDay(levels, 4, '2026-05-01')).toBeNull();
  });
});
