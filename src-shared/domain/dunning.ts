/**
 * Reminder levels (docs/decisions/0122-dunning-levels.md). Pure. A team names up to five levels, each due some days
 * after an invoice's due date and stating a fee. A reminder takes the level after the highest one the invoice has had
 * (the first reminder is level 1), and stays at the last level once there; its fee is that level's. The automatic
 * schedule queues, for an overdue invoice, the highest level whose day has come that it has not had yet — so a
 * server that was off for a month sends one reminder of the level reached, not each missed one.
 */
import { addDays } from './invoice-dates';

export interface Level {
  daysAfterDue: number;
  fee: number;
}

/** The level a reminder sent now takes, 1-based; null when the team has no levels. */
export function nextReminderLevel(levels: readonly Level[], highestSent: number): number | null {
  if (levels.length === 0) return null;
  return Math.min(Math.max(highestSent, 0) + 1, levels.length);
}

/**
 * The level the schedule asks for on `today` (in the invoice's time zone) for an overdue invoice, when it is one the
 * invoice has not had yet; else null. A level is due on the due date plus its days (0: as soon as it is overdue).
 */
export function scheduledLevel(levels: readonly Level[], dueDate: string, today: string, highestSent: number): number | null {
  let reached = 0;
  levels.forEach((l, i) => {
    if (addDays(dueDate, l.daysAfterDue) <= today) reached = i + 1;
  });
  return reached > highestSent ? reached : null;
}

/** The day level `n` (1-based) is due for an invoice due on `dueDate`. */
export function levelDay(levels: readonly Level[], n: number, dueDate: string): string | null {
  const l = levels[n - 1];
  return l ? addDays(dueDate, l.daysAfterDue) : null;
}
