import { convertMinor } from './fx';

/**
 * Monthly series from the ledger's daily roll-up, in one currency. Pure: the store hands in day buckets (from
 * `ledger_daily`, which already leaves out internal transfers and excluded transactions and splits lines into their
 * parts) and a rate lookup (`fx_rates`); nothing here reads a database.
 *
 * Formulas:
 * - A bucket is (day, currency, key) with an inflow ≥ 0 and an outflow ≥ 0 in minor units of its currency; `key` is
 *   what the caller groups by (a category class, a category slug).
 * - Converted value of a bucket = convertMinor(value, currency → target, perUsd(currency, day), perUsd(target, day)):
 *   the rate of the bucket's own day (or the nearest earlier day with a rate), exact, rounded once half away from
 *   zero to the target's minor units (src-shared/domain/fx.ts). Inflow and outflow are converted separately.
 *   A bucket in the target currency is taken as is. A bucket without a rate is left out and counted in `missing`
 *   (never converted at 1.0).
 * - Month m of key k: inflow(m, k) = Σ converted inflows of k's buckets whose day is in m and inside the window
 *   [from, to]; likewise outflow; net = inflow − outflow. Months are calendar months in UTC, `YYYY-MM`.
 * - The window's length in months (for averages) = Σ over its calendar months of (days of the month inside the
 *   window ÷ days of the month): a window from the 1st of January to the 15th of March is 2 + 15/31 months.
 */

export interface DayBucket {
  day: string;
  currency: string;
  key: string;
  inflowMinor: number;
  outflowMinor: number;
}

/** Units of `currency` per USD on `day` (or the nearest earlier day), as decimal text; null when unknown. */
export type RateOf = (currency: string, day: string) => string | null;

export interface Window {
  from: string;
  to: string;
}

export interface KeySeries {
  inflow: number[];
  outflow: number[];
}

export interface MonthlySeries {
  currency: string;
  /** `YYYY-MM` of each position, oldest first: every calendar month the window touches. */
  months: string[];
  byKey: Map<string, KeySeries>;
  /** Buckets left out for want of a rate: how many, and the first few (currency and day) for the message. */
  missing: { count: number; examples: { currency: string; day: string }[] };
}

export function monthOf(day: string): string {
  return day.slice(0, 7);
}

export function addMonths(month: string, n: number): string {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7)) - 1 + n;
  const year = y + Math.floor(m / 12);
  const mm = ((m % 12) + 12) % 12;
  return `${String(year).padStart(4, '0')}-${String(mm + 1).padStart(2, '0')}`;
}

/** Months from `a` to `b` inclusive (empty when b < a). */
export function monthRange(a: string, b: string): string[] {
  const out: string[] = [];
  for (let m = a; m <= b; m = addMonths(m, 1)) out.push(m);
  return out;
}

export function daysInMonth(month: string): number {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

export function firstDayOf(month: string): string {
  return `${month}-01`;
}

export function lastDayOf(month: string): string {
  return `${month}-${String(daysInMonth(month)).padStart(2, '0')}`;
}

/** Whole days from a to b (b − a), both `YYYY-MM-DD`. */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** The day `n` calendar months after `day`, clamped to the end of a shorter month (Jan 31 + 1 month = Feb 28/29). */
export function addMonthsToDay(day: string, n: number): string {
  const month = addMonths(monthOf(day), n);
  const d = Math.min(Number(day.slice(8, 10)), daysInMonth(month));
  return `${month}-${String(d).padStart(2, '0')}`;
}

/** The window's length in months, partial months by their share of days (see the header). */
export function windowMonths(w: Window): number {
  let total = 0;
  for (const m of monthRange(monthOf(w.from), monthOf(w.to))) {
    const start = w.from > firstDayOf(m) ? w.from : firstDayOf(m);
    const end = w.to < lastDayOf(m) ? w.to : lastDayOf(m);
    total += (daysBetween(start, end) + 1) / daysInMonth(m);
  }
  return total;
}

/** Converts one amount of `currency` on `day` into `target`; null without a rate. */
export function convertOn(amountMinor: number, currency: string, target: string, day: string, rateOf: RateOf): number | null {
  if (currency === target || amountMinor === 0) return amountMinor;
  const from = rateOf(currency, day);
  const to = rateOf(target, day);
  if (from === null || to === null) return null;
  return convertMinor(amountMinor, currency, target, from, to);
}

/** The monthly series of the window (see the header). Buckets outside the window are ignored. */
export function monthlySeries(buckets: Iterable<DayBucket>, window: Window, currency: string, rateOf: RateOf): MonthlySeries {
  const months = monthRange(monthOf(window.from), monthOf(window.to));
  const index = new Map(months.map((m, i) => [m, i]));
  const byKey = new Map<string, KeySeries>();
  const missing = { count: 0, examples: [] as { currency: string; day: string }[] };
  for (const b of buckets) {
    if (b.day < window.from || b.day > window.to) continue;
    const i = index.get(monthOf(b.day));
    if (i === undefined) continue;
    const inflow = convertOn(b.inflowMinor, b.currency, currency, b.day, rateOf);
    const outflow = convertOn(b.outflowMinor, b.currency, currency, b.day, rateOf);
    if (inflow === null || outflow === null) {
      missing.count++;
      if (missing.examples.length < 5) missing.examples.push({ currency: b.currency, day: b.day });
      continue;
    }
    let s = byKey.get(b.key);
    if (!s) {
      s = { inflow: new Array(months.length).fill(0), outflow: new Array(months.length).fill(0) };
      byKey.set(b.key, s);
    }
    s.inflow[i]! += inflow;
    s.outflow[i]! += outflow;
  }
  return { currency, months, byKey, missing };
}

/** Element-wise sum of the series of the given keys (all keys when none are named). */
export function combine(series: MonthlySeries, keys?: readonly string[]): KeySeries {
  const n = series.months.length;
  const out: KeySeries = { inflow: new Array(n).fill(0), outflow: new Array(n).fill(0) };
  for (const [key, s] of series.byKey) {
    if (keys && !keys.includes(key)) continue;
    for (let i = 0; i < n; i++) {
      out.inflow[i]! += s.inflow[i]!;
      out.outflow[i]! += s.outflow[i]!;
    }
  }
  return out;
}
