import { SECONDS_PER_HOUR } from '../../../src-shared/domain/tracker';

/**
 * The SQL forms of `effectiveRate` and `entryAmountMinor` (src-shared/domain/tracker.ts); a table test holds them
 * equal. `e` is the entry alias, `p` the project alias, `c` the alias of the entry's category, LEFT JOINed with
 * `categoryJoin` (NULL columns when the entry has none). SQLite's integer division truncates, which is the floor for
 * the non-negative values here. Running entries count 0.
 */
export const categoryJoin = (e: string, c: string) =>
  `LEFT JOIN tracker_categories ${c} ON ${c}.team_id = ${e}.team_id AND ${c}.id = ${e}.category_id`;

/** The entry's hourly rate in minor units, or NULL. */
export const entryRateSql = (p: string, c: string) =>
  `(CASE WHEN ${p}.rate_minor IS NOT NULL THEN ${p}.rate_minor
     WHEN ${c}.rate_minor IS NOT NULL AND ${c}.currency = ${p}.currency THEN ${c}.rate_minor END)`;

/** 'project', 'category' or NULL: where the rate comes from. */
export const entryRateSourceSql = (p: string, c: string) =>
  `(CASE WHEN ${p}.rate_minor IS NOT NULL THEN 'project'
     WHEN ${c}.rate_minor IS NOT NULL AND ${c}.currency = ${p}.currency THEN 'category' END)`;

/** 1 when the entry is billable: its project is, and its category (if any) is. */
export const entryBillableSql = (p: string, c: string) => `(${p}.billable = 1 AND coalesce(${c}.billable, 1) = 1)`;

export const entryAmountSql = (e: string, p: string, c: string) => {
  const rate = entryRateSql(p, c);
  return `(CASE WHEN ${entryBillableSql(p, c)} AND coalesce(${rate}, 0) > 0 AND ${e}.stop IS NOT NULL AND ${e}.duration_seconds > 0
     THEN (${e}.duration_seconds * ${rate} + ${SECONDS_PER_HOUR / 2}) / ${SECONDS_PER_HOUR} ELSE 0 END)`;
};
