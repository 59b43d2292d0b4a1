import { convertMinor } from '../../../src-shared/domain/fx';
import { reviewStateOf } from '../../../src-shared/domain/review-state';
import type { Db } from '../db';
import { rateLookup } from '../rate-of-day';
import { currentWriter } from '../write';

/**
 * Rebuilding and checking the ledger's derived data (docs/decisions/0050-ledger-data-model.md): running balances,
 * account balances, base amounts, review states and the daily roll-up. Every ledger write keeps them right
 * incrementally (ledger-write.ts); these recompute them from the transactions themselves, for `finops ledger
 * rebuild`, after bulk loads (the demo), after exchange rates arrive, and in the invariant tests that compare the
 * incremental results with a recomputation. Derived data: nothing here records a change.
 */

/**
 * Derived data changed outside a write (no change-feed row): move the team's change counter so caches of its reads
 * (the GET response cache is valid per team counter) do not keep serving the old figures. Inside a write of the team
 * the write's own changes move it.
 */
function derivedDataChanged(db: Db, teamId: string): void {
  if (currentWriter(db)?.teamId === teamId) return;
  db.prepare('UPDATE teams SET change_seq = change_seq + 1 WHERE id = ?').run(teamId);
}

/** The roll-up from scratch: the same rule as src-shared/domain/transactions.ts `contributions`. */
export function rebuildLedgerDaily(db: Db, teamId: string): void {
  db.transaction(() => {
    db.prepare('DELETE FROM ledger_daily WHERE team_id = ?').run(teamId);
    db.prepare(
      `INSERT INTO ledger_daily (team_id, day, currency, category_slug, inflow_minor, outflow_minor, count)
       SELECT @team, day, currency, cat,
         sum(CASE WHEN amt >= 0 THEN amt ELSE 0 END), sum(CASE WHEN amt < 0 THEN -amt ELSE 0 END), count(*)
       FROM (
         SELECT t.date AS day, t.currency, coalesce(t.category_slug, 'uncategorized') AS cat, t.amount_minor AS amt
         FROM transactions t
         WHERE t.team_id = @team AND coalesce(t.internal, 0) = 0 AND t.status <> 'excluded'
           AND NOT EXISTS (SELECT 1 FROM transaction_splits s WHERE s.team_id = t.team_id AND s.transaction_id = t.id)
         UNION ALL
         SELECT t.date, t.currency, coalesce(s.category_slug, 'uncategorized'), s.amount_minor
         FROM transaction_splits s JOIN transactions t ON t.id = s.transaction_id
         WHERE s.team_id = @team AND coalesce(t.internal, 0) = 0 AND t.status <> 'excluded'
       )
       GROUP BY day, currency, cat`,
    ).run({ team: teamId });
    derivedDataChanged(db, teamId);
  })();
}

/** Running balances of every account from its first transaction, and each account's balance as their sum. */
export function rebuildBalances(db: Db, teamId: string): void {
  db.transaction(() => {
    db.prepare(
      `UPDATE transactions SET balance_minor = walk.balance
       FROM (SELECT id, sum(amount_minor) OVER (PARTITION BY bank_account_id ORDER BY date, id ROWS UNBOUNDED PRECEDING) AS balance
             FROM transactions WHERE team_id = @team) AS walk
       WHERE transactions.id = walk.id AND transactions.balance_minor IS NOT walk.balance`,
    ).run({ team: teamId });
    db.prepare(
      `UPDATE bank_accounts SET balance_minor = coalesce(
         (SELECT sum(amount_minor) FROM transactions t WHERE t.team_id = bank_accounts.team_id AND t.bank_account_id = bank_accounts.id), 0)
       WHERE team_id = ?`,
    ).run(teamId);
    derivedDataChanged(db, teamId);
  })();
}

/**
 * Base amounts from fx_rates (after rates were imported, or the team's base currency changed). Returns how many
 * transactions still have no rate.
 */
export function recomputeBaseAmounts(
  db: Db,
  teamId: string,
  options: { fromDay?: string } = {},
): { updated: number; missing: number } {
  return db.transaction(() => {
    const base = db.prepare('SELECT base_currency FROM teams WHERE id = ?').pluck().get(teamId) as string;
    const currencies = db.prepare('SELECT DISTINCT currency FROM transactions WHERE team_id = ?').pluck().all(teamId) as string[];
    const rate = rateLookup(db, [...currencies, base]);
    const update = db.prepare(
      'UPDATE transactions SET base_amount_minor = ?, base_currency = ? WHERE id = ? AND (base_amount_minor IS NOT ? OR base_currency IS NOT ?)',
    );
    let updated = 0;
    let missing = 0;
    const rows = db
      .prepare('SELECT id, amount_minor, currency, date FROM transactions WHERE team_id = ? AND date >= ?')
      .iterate(teamId, options.fromDay ?? '0000-00-00') as IterableIterator<{
      id: string;
      amount_minor: number;
      currency: string;
      date: string;
    }>;
    const pending: [number | null, string, string][] = [];
    for (const r of rows) {
      let amount: number | null = r.amount_minor;
      if (r.currency !== base) {
        const from = rate(r.currency, r.date);
        const to = rate(base, r.date);
        amount = from === null || to === null ? null : convertMinor(r.amount_minor, r.currency, base, from, to);
      }
      if (amount === null) missing++;
      pending.push([amount, base, r.id]);
    }
    for (const [amount, currency, id] of pending) updated += update.run(amount, currency, id, amount, currency).changes;
    if (updated > 0) derivedDataChanged(db, teamId);
    return { updated, missing };
  })();
}

/** Review state and fulfilment of every transaction of the team, from the domain rule. */
export function rebuildReviewStates(db: Db, teamId: string): number {
  return db.transaction(() => {
    const rows = db
      .prepare(
        `SELECT t.id, t.status, t.amount_minor, t.internal, t.reviewed_at, t.review_state, t.is_fulfilled,
           (SELECT count(*) FROM transaction_attachments x WHERE x.team_id = t.team_id AND x.transaction_id = t.id) AS attachments,
           (SELECT coalesce(p.slug, c.slug) FROM transaction_categories c LEFT JOIN transaction_categories p ON p.id = c.parent_id
              WHERE c.team_id = t.team_id AND c.slug = t.category_slug) AS grp
         FROM transactions t WHERE t.team_id = ?`,
      )
      .all(teamId) as {
      id: string;
      status: string;
      amount_minor: number;
      internal: number | null;
      reviewed_at: string | null;
      review_state: string;
      is_fulfilled: number;
      attachments: number;
      grp: string | null;
    }[];
    const update = db.prepare('UPDATE transactions SET review_state = ?, is_fulfilled = ? WHERE id = ?');
    let changed = 0;
    for (const r of rows) {
      const fulfilled = r.attachments > 0 || r.status === 'completed';
      const state = reviewStateOf({
        status: r.status,
        amountMinor: r.amount_minor,
        internal: r.internal === 1,
        reviewed: r.reviewed_at !== null,
        fulfilled,
        categoryGroup: r.grp,
      });
      if (state !== r.review_state || (fulfilled ? 1 : 0) !== r.is_fulfilled) {
        update.run(state, fulfilled ? 1 : 0, r.id);
        changed++;
      }
    }
    if (changed > 0) derivedDataChanged(db, teamId);
    return changed;
  })();
}

/** Everything derived, from scratch. */
export function rebuildLedger(db: Db, teamId: string): { missingRates: number } {
  rebuildBalances(db, teamId);
  const { missing } = recomputeBaseAmounts(db, teamId);
  rebuildReviewStates(db, teamId);
  rebuildLedgerDaily(db, teamId);
  return { missingRates: missing };
}

export interface LedgerDiscrepancy {
  kind: 'running_balance' | 'account_balance' | 'rollup' | 'review_state';
  detail: string;
}

/**
 * Compares the stored derived data with a recomputation (without changing anything): the invariant the tests hold
 * after random operation sequences, and what `finops ledger check` reports.
 */
export function checkLedger(db: Db, teamId: string): LedgerDiscrepancy[] {
  const out: LedgerDiscrepancy[] = [];
  const badBalances = db
    .prepare(
      `SELECT t.id, t.balance_minor, w.balance FROM transactions t
       JOIN (SELECT id, sum(amount_minor) OVER (PARTITION BY bank_account_id ORDER BY date, id ROWS UNBOUNDED PRECEDING) AS balance
             FROM transactions WHERE team_id = @team) w ON w.id = t.id
       WHERE t.team_id = @team AND t.balance_minor IS NOT w.balance LIMIT 20`,
    )
    .all({ team: teamId }) as { id: string; balance_minor: number | null; balance: number }[];
  for (const b of badBalances) {
    out.push({ kind: 'running_balance', detail: `${b.id}: stored ${b.balance_minor}, recomputed ${b.balance}` });
  }
  const badAccounts = db
    .prepare(
      `SELECT a.id, a.balance_minor, coalesce((SELECT sum(amount_minor) FROM transactions t WHERE t.team_id = a.team_id AND t.bank_account_id = a.id), 0) AS sum
       FROM bank_accounts a WHERE a.team_id = ? AND a.balance_minor IS NOT coalesce((SELECT sum(amount_minor) FROM transactions t WHERE t.team_id = a.team_id AND t.bank_account_id = a.id), 0)`,
    )
    .all(teamId) as { id: string; balance_minor: number; sum: number }[];
  for (const a of badAccounts) out.push({ kind: 'account_balance', detail: `${a.id}: stored ${a.balance_minor}, sum ${a.sum}` });

  const stored = db
    .prepare(
      'SELECT day, currency, category_slug, inflow_minor, outflow_minor, count FROM ledger_daily WHERE team_id = ? ORDER BY 1, 2, 3',
    )
    .all(teamId);
  const fresh = db.transaction(() => {
    rebuildLedgerDaily(db, teamId);
    const rows = db
      .prepare(
        'SELECT day, currency, category_slug, inflow_minor, outflow_minor, count FROM ledger_daily WHERE team_id = ? ORDER BY 1, 2, 3',
      )
      .all(teamId);
    // Leave the stored roll-up exactly as it was: this is a check, not a repair.
    throw Object.assign(new Error('rollback'), { rows });
  });
  let recomputed: unknown[] = [];
  try {
    fresh();
  } catch (err) {
    recomputed = (err as { rows?: unknown[] }).rows ?? [];
    if (!(err as { rows?: unknown[] }).rows) throw err;
  }
  if (JSON.stringify(stored) !== JSON.stringify(recomputed)) {
    out.push({
      kind: 'rollup',
      detail: `ledger_daily differs from a recomputation (${stored.length} stored rows, ${recomputed.length} recomputed)`,
    });
  }
  return out;
}
