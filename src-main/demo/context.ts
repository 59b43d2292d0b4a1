/**
 * What every demo generator shares: the seeded randomness, the time window the data covers, the agency's fixed
 * facts (accounts, people) and the ids handed out so far.
 *
 * Time: the data set is anchored at an "as of" day (default: today, UTC). Transactions run from the first day of the
 * month 41 months before it through the as-of day, so 42 calendar months ending with the current one — three full
 * years of history before the last twelve, which forecasts hold out for their backtest. Every
 * timestamp is derived from the seed and that day — never from the wall clock — and none is later than the start of
 * the as-of day (`anchorIso`), so the same seed on the same day gives the same rows, timestamps included.
 */
import { type EpochDay, isoInstant, type Month, monthByIndex, monthOf } from './calendar';

export const DEMO_MONTHS = 42;

export interface DemoWindow {
  asOf: EpochDay;
  first: EpochDay;
  months: readonly Month[];
  /** ISO instant of the start of the as-of day: the latest timestamp any demo row carries. */
  anchorIso: string;
}

export function demoWindow(asOf: EpochDay): DemoWindow {
  const current = monthOf(asOf);
  const months: Month[] = [];
  for (let i = DEMO_MONTHS - 1; i >= 0; i--) months.push(monthByIndex(current.index - i));
  return { asOf, first: months[0]!.first, months, anchorIso: isoInstant(asOf, 0) };
}

/** A timestamp on `day`, `seconds` into it, never later than the anchor. */
export function stamp(w: DemoWindow, day: EpochDay, seconds: number): string {
  const iso = isoInstant(day, seconds);
  return iso < w.anchorIso ? iso : w.anchorIso;
}

/**
 * Seasonality of the agency's business by calendar month (1–12): slow August and late December, busy autumn and
 * spring. Multiplies invoice volume, card spend and subcontractor work.
 */
export const SEASON: readonly number[] = [0, 0.85, 0.95, 1.1, 1.05, 1.05, 0.95, 0.8, 0.65, 1.15, 1.2, 1.15, 0.9];

/** Slow growth over the window: the agency is 35 % bigger at the end than at the start. */
export function growth(w: DemoWindow, m: Month): number {
  const i = m.index - w.months[0]!.index;
  return 1 + (0.35 * i) / (DEMO_MONTHS - 1);
}

/** Id source: the seeder passes `newId` (uuid v7), tests may pass a counter. Called in a deterministic order. */
export type MakeId = () => string;
