import { zoneOffsetMs } from './invoice-dates';
/**
 * Time-tracking rules, defined once (the SQL form is src-main/store/tracker/amount-sql.ts; a table test holds both
 * equal).
 *
 * An entry's billable amount is its duration × its hourly rate (`effectiveRate`: the project's, else its category's), rounded half up to the currency's minor
 * unit: (seconds × rateMinor + 1800) ÷ 3600, integer division. Totals are sums of entry amounts, never a rounding of
 * a summed duration, so a project's total always equals the sum of the entries shown. Entries that are not
 * billable (project or category), or have no rate, amount to 0. A running entry (no stop) counts in no total until it is stopped.
 */
export const SECONDS_PER_HOUR = 3600;

/** The shortest entry a timer keeps: a timer stopped sooner is discarded (the hosted rule). */
export const MIN_TIMER_SECONDS = 60;

/** What an entry's rate comes from: its project's own rate, its category's default rate, or nothing. */
export type RateSource = 'project' | 'category' | null;

export interface RateInputs {
  project: { rateMinor: number | null; currency: string | null; billable: boolean };
  /** The entry's category, when it has one. */
  category: { rateMinor: number | null; currency: string; billable: boolean } | null;
}

/**
 * The rate and billability of an entry (docs/decisions/0146-tracker-categories.md):
 * - billable only when both the project and the category (if any) are billable: a non-billable activity (internal
 *   meetings) bills nothing even on a billable project, and a non-billable project bills nothing at all;
 * - the project's rate wins when it has one (the project overrides); else the category's default rate, when it is
 *   in the project's currency (a rate is never converted: EUR 90/h is not USD 90/h); else no rate (amount 0).
 */
export function effectiveRate(i: RateInputs): { rateMinor: number | null; source: RateSource; billable: boolean } {
  const billable = i.project.billable && (i.category?.billable ?? true);
  if (i.project.rateMinor !== null) return { rateMinor: i.project.rateMinor, source: 'project', billable };
  const c = i.category;
  if (c && c.rateMinor !== null && c.currency === i.project.currency)
    return { rateMinor: c.rateMinor, source: 'category', billable };
  return { rateMinor: null, source: null, billable };
}

export function entryAmountMinor(durationSeconds: number, rateMinor: number | null, billable: boolean): number {
  if (!billable || rateMinor === null || rateMinor <= 0 || durationSeconds <= 0) return 0;
  return Math.floor((durationSeconds * rateMinor + SECONDS_PER_HOUR / 2) / SECONDS_PER_HOUR);
}

/**
 * The instant at the same wall-clock time as `instant`, `days` calendar days later in `timeZone` (negative: earlier):
 * 09:00 on a Monday in Berlin is 09:00 on the Thursday after, across a change of daylight saving time too. Used for
 * the hosted service's entry "for each of these days" (docs/decisions/0163). The zone's offset at the target is found
 * by correcting the first guess once more, as invoice-dates.ts does for midnights.
 */
export function shiftDaysInZone(instant: string, days: number, timeZone: string): string {
  const t = Date.parse(instant);
  if (days === 0) return new Date(t).toISOString();
  const wall = t + zoneOffsetMs(new Date(t), timeZone) + days * 86_400_000;
  let u = wall - zoneOffsetMs(new Date(wall), timeZone);
  u = wall - zoneOffsetMs(new Date(u), timeZone);
  return new Date(u).toISOString();
}
