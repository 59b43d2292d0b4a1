/**
 * Days and wall-clock times in a time zone (the user's, from their preferences): what day it is there, and the
 * instant a time typed on a day there stands for. Pure given the zone and the clock, so they are tested in Node
 * across DST changes.
 */

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const CLOCK = /^(\d{1,2})[:.h]?(\d{2})?$/;

const partsFormats = new Map<string, Intl.DateTimeFormat>();
function parts(at: Date, timeZone: string): Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number> {
  let f = partsFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    partsFormats.set(timeZone, f);
  }
  const out = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const p of f.formatToParts(at)) if (p.type in out) out[p.type as keyof typeof out] = Number(p.value);
  return out;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The calendar day ("2026-11-26") an instant falls on in a zone. */
export function dayIn(timeZone: string, at: Date = new Date()): string {
  const p = parts(at, timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
}

/** A day moved by whole days ("2026-03-01", -1 → "2026-02-28"). */
export function addDays(day: string, days: number): string {
  const m = DAY.exec(day);
  if (!m) throw new Error(`not a day: ${day}`);
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + days));
  return d.toISOString().slice(0, 10);
}

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
  // The zone's offset at a guess, then at the corrected instant (twice covers any DST change in between).
  let guess = wall;
  for (let i = 0; i < 2; i++) {
    const p = parts(new Date(guess), timeZone);
    const shown = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
    guess += wall - shown;
  }
  return new Date(guess).toISOString();
}
