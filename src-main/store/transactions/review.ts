import type { TransactionFilters } from '../../../src-shared/contract/transactions';
import { REVIEW_STATES, type ReviewState } from '../../../src-shared/domain/review-state';
import type { Db } from '../db';
import { ledgerWrite } from '../ledger/derived-data';
import { attachmentCount } from './attachments';
import { filtersSql } from './list-filters';
import { getRow } from './row';

/** Review states (docs/decisions/0051-review-states.md): re-derived when what they depend on changed, and counted. */

/**
 * Re-derives the review state of transactions after something they depend on changed elsewhere (their category was
 * moved into or out of a group that needs no receipt). A transaction whose state changes records a change.
 */
export function refreshReviewStates(db: Db, teamId: string, ids: readonly string[]): number {
  return ledgerWrite(
    db,
    teamId,
    (lw) => {
      let changed = 0;
      for (const id of ids) {
        const row = getRow(db, teamId, id);
        if (!row) continue;
        if (lw.w.update('transaction', id, lw.review({ ...row, attachments: attachmentCount(db, teamId, id) }))) changed++;
      }
      return changed;
    },
    { origin: 'system' },
  );
}

/** How many transactions are in each review state under the filters (the review state filter itself ignored). */
export function reviewCounts(db: Db, teamId: string, filters: Partial<TransactionFilters>): Record<ReviewState, number> {
  const { where, params } = filtersSql(teamId, { ...filters, reviewStates: [...REVIEW_STATES] });
  const rows = db
    .prepare(
      `SELECT t.review_state AS state, count(*) AS n FROM transactions t WHERE ${where.join(' AND ')} GROUP BY t.review_state`,
    )
    .all(params) as { state: ReviewState; n: number }[];
  const counts = Object.fromEntries(REVIEW_STATES.map((s) => [s, 0])) as Record<ReviewState, number>;
  for (const r of rows) counts[r.state] = r.n;
  return counts;
}

export interface CurrencyTotals {
  currency: string;
  count: number;
  /** Minor units: the sum of the positive amounts, and of the negative ones (≤ 0). */
  inMinor: number;
  outMinor: number;
}

/** The filtered set summed per currency (the review state filter applies, as in the list), most rows first. */
export function transactionTotals(db: Db, teamId: string, filters: Partial<TransactionFilters>): CurrencyTotals[] {
  const { where, params } = filtersSql(teamId, filters);
  return db
    .prepare(
      `SELECT t.currency, count(*) AS count,
         coalesce(sum(CASE WHEN t.amount_minor > 0 THEN t.amount_minor END), 0) AS inMinor,
         coalesce(sum(CASE WHEN t.amount_minor < 0 THEN t.amount_minor END), 0) AS outMinor
       FROM transactions t WHERE ${where.join(' AND ')} GROUP BY t.currency ORDER BY count DESC, t.currency`,
    )
    .all(params) as CurrencyTotals[];
}
