/**
 * Day arithmetic for the demo generators, in UTC "epoch days" (days since 1970-01-01): plain integers that are cheap to
 * compare and step through, turned into `YYYY-MM-DD` strings only when a row is written (with a cache, since a
 * million transactions share about a thousand dates).
 */
const MS_PER_DAY = 86_400_000;

export type EpochDay = number;

export function parseDay(iso: string): EpochDay {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!match) throw new Error(`not a YYYY-MM-DD date: ${iso}`);
  const [, y, m, d] = match;
  const ms = Date.UTC(Number(y), Number(m) - 1, Number(d));
  const back = new Date(ms);
  if (back.getUTCFullYear() !== Number(y) || back.getUTCMonth() !== Number(m) - 1 || back.getUTCDate() !== Number(d)) {
    throw new Error(`not a calendar date: ${iso}`);
  }
  return Math.floor(ms / MS_PER_DAY);
}

export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

const dayCache = new Map<EpochDay, string>();

export function isoDay(day: EpochDay): string {
  let s = dayCache.get(day);
  if (s === undefined) {
    s = new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
    dayCache.set(day, s);
  }
  return s;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/** An ISO-8601 UTC timestamp `seconds` after the start of `day` (formatted by hand: a million rows need two each). */
export function isoInstant(day: EpochDay, seconds: number): string {
  const s = Math.round(seconds);
  if (s < 0 || s >= 86_400) return new Date(day * MS_PER_DAY + s * 1000).toISOString();
  return `${isoDay(day)}T${pad2(Math.floor(s / 3600))}:${pad2(Math.floor(s / 60) % 60)}:${pad2(s % 60)}.000Z`;
}

/** 0 = Sunday … 6 = Saturday. */
export function weekday(day: EpochDay): number {
  return (day + 4) % 7; // 1970-01-01 was a Thursday
}

export function isWeekend(day: EpochDay): boolean {
  const w = weekday(day);
  return w === 0 || w === 6;
}

/** A calendar month: index = year * 12 + month0. */
export interface Month {
  index: number;
  year: number;
  /** 1–12 */
  month: number;
  first: EpochDay;
  /** Last day of the month. */
  last: EpochDay;
}

export function monthOf(day: EpochDay): Month {
  const d = new Date(day * MS_PER_DAY);
  return monthByIndex(d.getUTCFullYear() * 12 + d.getUTCMonth());
}

export function monthByIndex(index: number): Month {
  const year = Math.floor(index / 12);
  const month0 = index - year * 12;
  const first = Date.UTC(year, month0, 1) / MS_PER_DAY;
  const last = Date.UTC(year, month0 + 1, 1) / MS_PER_DAY - 1;
  return { index, year, month: month0 + 1, first, last };
}

/** `day` of the month clamped to its length (the 31st of February is its last day). */
export function dayInMonth(m: Month, dayOfMonth: number): EpochDay {
  return Math.min(m.first + dayOfMonth - 1, m.last);
}

/** The working day on or before `day`. */
export function workingDayOnOrBefore(day: EpochDay): EpochDay {
  let d = day;
  while (isWeekend(d)) d--;
  return d;
}

/** The working day on or after `day`. */
export function workingDayOnOrAfter(day: EpochDay): EpochDay {
  let d = day;
  while (isWeekend(d)) d++;
  return d;
}
