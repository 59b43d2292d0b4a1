import { SECONDS_PER_HOUR } from '../../../src-shared/domain/tracker';

/**
 * The SQL form of `entryAmountMinor` (src-shared/domain/tracker.ts): SQLite's integer division truncates, which is
 * the floor for the non-negative values here. `e` is the entry alias, `p` the project alias. Running entries count 0.
 */
export const entryAmountSql = (e: string, p: string) =>
  `(CASE WHEN ${p}.billable = 1 AND coalesce(${p}.rate_minor, 0) > 0 AND ${e}.stop IS NOT NULL AND ${e}.duration_seconds > 0
     THEN (${e}.duration_seconds * ${p}.rate_minor + ${SECONDS_PER_HOUR / 2}) / ${SECONDS_PER_HOUR} ELSE 0 END)`;
