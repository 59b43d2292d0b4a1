/**
 * Time-tracking rules, defined once (the SQL form is src-main/store/tracker/amount-sql.ts; a table test holds both
 * equal).
 *
 * An entry's billable amount is its duration × the project's hourly rate, rounded half up to the currency's minor
 * unit: (seconds × rateMinor + 1800) ÷ 3600, integer division. Totals are sums of entry amounts, never a rounding of
 * a summed duration, so a project's total always equals the sum of the entries shown. Entries of projects that are
 * not billable, or have no rate, amount to 0. A running entry (no stop) counts in no total until it is stopped.
 */
export const SECONDS_PER_HOUR = 3600;

/** The shortest entry a timer keeps: a timer stopped sooner is discarded (the hosted rule). */
export const MIN_TIMER_SECONDS = 60;

export function entryAmountMinor(durationSeconds: number, rateMinor: number | null, billable: boolean): number {
  if (!billable || rateMinor === null || rateMinor <= 0 || durationSeconds <= 0) return 0;
  return Math.floor((durationSeconds * rateMinor + SECONDS_PER_HOUR / 2) / SECONDS_PER_HOUR);
}
