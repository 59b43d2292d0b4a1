/**
 * Wall-clock times in a time zone (the user's, from their preferences): the week a day is in, a time as people type
 * it, and the instant a time typed on a day there stands for. Days and their arithmetic are the invoices' calendar
 * rules (src-shared/domain/invoice-dates.ts: `dayIn`, `addDays`). Pure, tested in Node across DST changes.
 */
import { addDays, zoneOffsetMs } from '../../src-shared/domain/invoice-dates';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const CLOCK = /^(\d{1,2})[:.h]?(\d{2})?$/;

/** The Monday of the week a day is in (weeks run Monday to Sunday, ISO 8601). */
export function weekStart(day: string): string {
  const m = DAY.exec(day);
  if (!m) throw new Error(`not a day: ${day}`);
  const weekday = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))).getUTCDay(); // 0 = Sunday
  return addDays(day, -((weekday + 6) % 7));
}

/** "9", "9:30", "09.30", "0930", "9h30" → minutes after midnight; null for anything else. */
export function parseClock(text: string): number | null {
  const m = CLOCK.exec(text.trim());
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2] ?? 0);
  return h < 24 && min < 60 ? h * 60 + min : null;
}

/**
 * The instant (ISO, UTC) of a wall-clock time on a day in a zone. A time that does not exist there (skipped by a
 * DST change) is taken as the same time after the jump; one that exists twice (when clocks go back), as the second.
 */
export function zonedInstant(day: string, minutes: number, timeZone: string): string {
  const m = DAY.exec(day);
  if (!m) throw new Error(`not a day: ${day}`);
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Math.floor(minutes / 60), minutes % 60);
  // The zone's offset at a guess, then at the corrected instant (twice covers a DST change in between).
  let t = wall;
  for (let i = 0; i < 2; i++) t = wall - zoneOffsetMs(new Date(t), timeZone);
  return new Date(t).toISOString();
}
