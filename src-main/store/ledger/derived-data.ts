import { convertMinor } from '../../../src-shared/domain/fx';
import { isFulfilled, reviewStateOf } from '../../../src-shared/domain/review-state';
import { type Contribution, contributions, UNCATEGORIZED } from '../../../src-shared/domain/transactions';
import { ensureCategoriesOnce } from '../categories/defaults';
import type { Db } from '../db';
import { InvalidReference } from '../errors';
import { perUsdOn } from '../rate-of-day';
import { type Origin, type SqlValue, type Writer, write } from '../write';

/**
 * The ledger's part of a write: everything a transaction write must keep true in the same SQLite transaction
 * (docs/decisions/0050-ledger-data-model.md):
 * - running balances: `balance_minor` of every transaction of a touched account from the earliest touched point
 *   (date, id) on, recomputed in one windowed UPDATE at the end of the write; the account's `balance_minor` moved by
 *   the write's net amount (a change of the account record);
 * - base amounts: in the team's base currency at the rate of the transaction's date (fx_rates), or NULL when no rate
 *   is known;
 * - the daily roll-up `ledger_daily`: each changed transaction's old report contributions are taken out and its new
 *   ones put in (split parts by their own category; internal and excluded ones contribute nothing);
 * - review state and fulfilment, derived from the row (src-shared/domain/review-state.ts).
 * Balances, base amounts and the roll-up are derived data: updating them records no change of their own.
 *
 * Use: `ledgerWrite(db, teamId, (lw) => …)`; the store functions in transactions.ts do, and nest inside any outer
 * write (an import, a sync pull) like every write does.
 */

export interface LedgerRow {
  id: string;
  bank_account_id: string;
  amount_minor: number;
  currency: string;
  date: string;
  status: string;
  internal: number | null;
  category_slug: string | null;
  manual: number | null;
  reviewed_at: string | null;
  is_fulfilled: number;
  reconciled_at: string | null;
}

export interface CategoryInfo {
  id: string;
  slug: string;
  name: string;
  color: string;
  taxRate: number | null;
  taxType: string | null;
  /** The parent group's slug, or the category's own slug when it is a group. */
  group: string;
  excluded: boolean;
}

interface AccountPoint {
  date: string;
  id: string;
  delta: number;
}

export class LedgerWrite {
  private categories: Map<string, CategoryInfo> | undefined;
  private baseCurrency: string | undefined;
  private readonly rates = new Map<string, string | null>();
  private readonly rollup = new Map<string, { inflow: number; outflow: number; count: number }>();
  private readonly accounts = new Map<string, AccountPoint>();
  private nextSearchRowid: number | undefined;

  constructor(readonly w: Writer) {}

  get db(): Db {
    return this.w.db;
  }

  get teamId(): string {
    return this.w.teamId;
  }

  category(slug: string | null | undefined): CategoryInfo | undefined {
    if (!slug) return undefined;
    if (!this.categories) {
      // Every team that holds transactions files them under categories: one created without them gets the defaults.
      ensureCategoriesOnce(this.db, this.teamId);
      const rows = this.db
        .prepare(
          `SELECT c.id, c.slug, c.name, c.color, c.tax_rate AS taxRate, c.tax_type AS taxType, c.excluded,
             coalesce(p.slug, c.slug) AS grp
           FROM transaction_categories c LEFT JOIN transaction_categories p ON p.id = c.parent_id
           WHERE c.team_id = ?`,
        )
        .all(this.teamId) as (Omit<CategoryInfo, 'group' | 'excluded'> & { grp: string; excluded: number })[];
      this.categories = new Map(rows.map((r) => [r.slug, { ...r, group: r.grp, excluded: r.excluded === 1 }]));
    }
    return this.categories.get(slug);
  }

  /** A category slug a client sent: must be one of the team's; `uncategorized` and null mean none. */
  checkCategory(slug: string | null | undefined, field = 'categorySlug'): string | null {
    if (slug === undefined || slug === null || slug === UNCATEGORIZED) return null;
    if (!this.category(slug)) throw new InvalidReference(field, `Unknown category "${slug}" in ${field}`);
    return slug;
  }

  team(): string {
    if (!this.baseCurrency) {
      this.baseCurrency = this.db.prepare('SELECT base_currency FROM teams WHERE id = ?').pluck().get(this.teamId) as string;
    }
    return this.baseCurrency;
  }

  /** Units of `currency` per USD on `day` or the nearest earlier day with a rate; null when none is known. */
  perUsd(currency: string, day: string): string | null {
    if (currency === 'USD') return '1';
    const key = `${currency} ${day}`;
    let rate = this.rates.get(key);
    if (rate === undefined) {
      rate = perUsdOn(this.db, currency, day)?.perUsd ?? null;
      this.rates.set(key, rate);
    }
    return rate;
  }

  /** The amount in the team's base currency at the rate of `day`; null without a rate for either currency. */
  baseAmount(amountMinor: number, currency: string, day: string): { amount: number | null; currency: string } {
    const base = this.team();
    if (currency === base) return { amount: amountMinor, currency: base };
    const from = this.perUsd(currency, day);
    const to = this.perUsd(base, day);
    if (from === null || to === null) return { amount: null, currency: base };
    return { amount: convertMinor(amountMinor, currency, base, from, to), currency: base };
  }

  /** Derived review fields for a row as it will be stored. */
  review(row: {
    status: string;
    amount_minor: number;
    internal: number | null;
    reviewed_at: string | null;
    category_slug: string | null;
    attachments: number;
  }): { review_state: string; is_fulfilled: number } {
    const fulfilled = isFulfilled(row.status, row.attachments);
    return {
      is_fulfilled: fulfilled ? 1 : 0,
      review_state: reviewStateOf({
        status: row.status,
        amountMinor: row.amount_minor,
        internal: row.internal === 1,
        reviewed: row.reviewed_at !== null,
        fulfilled,
        categoryGroup: this.category(row.category_slug)?.group ?? null,
      }),
    };
  }

  /** A fresh FTS row number for a new transaction (read once per write, then counted in memory). */
  searchRowid(): number {
    if (this.nextSearchRowid === undefined) {
      this.nextSearchRowid =
        (this.db.prepare('SELECT coalesce(max(search_rowid), 0) FROM transactions').pluck().get() as number) + 1;
    }
    return this.nextSearchRowid++;
  }

  /** Notes that a transaction of `accountId` at (date, id) moved the account by `delta` (0 when only its place moved). */
  moved(accountId: string, date: string, id: string, delta: number): void {
    const p = this.accounts.get(accountId);
    if (!p) {
      this.accounts.set(accountId, { date, id, delta });
      return;
    }
    if (date < p.date || (date === p.date && id < p.id)) {
      p.date = date;
      p.id = id;
    }
    p.delta += delta;
  }

  /** Adds (sign 1) or takes out (sign −1) a transaction's report contributions. */
  contribute(row: LedgerRow, splits: readonly { amountMinor: number; categorySlug: string | null }[], sign: 1 | -1): void {
    const parts: Contribution[] = contributions(
      {
        date: row.date,
        currency: row.currency,
        amountMinor: row.amount_minor,
        categorySlug: row.category_slug,
        status: row.status,
        internal: row.internal === 1,
      },
      splits,
    );
    for (const c of parts) {
      const key = `${c.day}\u0000${c.currency}\u0000${c.categorySlug}`;
      const r = this.rollup.get(key) ?? { inflow: 0, outflow: 0, count: 0 };
      if (c.amountMinor >= 0) r.inflow += sign * c.amountMinor;
      else r.outflow += sign * -c.amountMinor;
      r.count += sign;
      this.rollup.set(key, r);
    }
  }

  splitsOf(transactionId: string): { amountMinor: number; categorySlug: string | null }[] {
    return this.db
      .prepare(
        'SELECT amount_minor AS amountMinor, category_slug AS categorySlug FROM transaction_splits WHERE team_id = ? AND transaction_id = ? ORDER BY position',
      )
      .all(this.teamId, transactionId) as { amountMinor: number; categorySlug: string | null }[];
  }

  /** Applies what the write accumulated: roll-up deltas, running balances, account balances. */
  finish(): void {
    const upsert = this.db.prepare(
      `INSERT INTO ledger_daily (team_id, day, currency, category_slug, inflow_minor, outflow_minor, count)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (team_id, day, currency, category_slug) DO UPDATE SET
         inflow_minor = inflow_minor + excluded.inflow_minor,
         outflow_minor = outflow_minor + excluded.outflow_minor,
         count = count + excluded.count`,
    );
    // Buckets a write emptied are removed: only the touched ones (a team holds tens of thousands).
    const dropEmpty = this.db.prepare(
      `DELETE FROM ledger_daily WHERE team_id = ? AND day = ? AND currency = ? AND category_slug = ?
       AND count = 0 AND inflow_minor = 0 AND outflow_minor = 0`,
    );
    for (const [key, r] of this.rollup) {
      if (r.inflow === 0 && r.outflow === 0 && r.count === 0) continue;
      const [day, currency, category] = key.split('\u0000') as [string, string, string];
      upsert.run(this.teamId, day, currency, category, r.inflow, r.outflow, r.count);
      if (r.count < 0) dropEmpty.run(this.teamId, day, currency, category);
    }
    this.rollup.clear();

    for (const [accountId, p] of this.accounts) {
      recomputeRunningBalances(this.db, this.teamId, accountId, p.date, p.id);
      if (p.delta !== 0) {
        const current = this.db
          .prepare('SELECT balance_minor FROM bank_accounts WHERE team_id = ? AND id = ?')
          .pluck()
          .get(this.teamId, accountId) as number;
        this.w.update('bank_account', accountId, { balance_minor: current + p.delta });
      }
    }
    this.accounts.clear();
  }
}

/**
 * Running balances of one account from (date, id) on: the balance before that point plus a running sum, in one
 * windowed UPDATE that rewrites only rows whose balance actually changes (an appended transaction costs one row).
 */
export function recomputeRunningBalances(db: Db, teamId: string, accountId: string, fromDate: string, fromId: string): void {
  const before =
    (db
      .prepare(
        `SELECT balance_minor FROM transactions INDEXED BY transactions_account_walk
         WHERE team_id = @team AND bank_account_id = @account AND (date < @date OR (date = @date AND id < @id))
         ORDER BY date DESC, id DESC LIMIT 1`,
      )
      .pluck()
      .get({ team: teamId, account: accountId, date: fromDate, id: fromId }) as number | null | undefined) ?? 0;
  db.prepare(
    `UPDATE transactions SET balance_minor = walk.balance
     FROM (
       SELECT id, @before + sum(amount_minor) OVER (ORDER BY date, id ROWS UNBOUNDED PRECEDING) AS balance
       FROM transactions INDEXED BY transactions_account_walk
       WHERE team_id = @team AND bank_account_id = @account AND (date > @date OR (date = @date AND id >= @id))
     ) AS walk
     WHERE transactions.id = walk.id AND transactions.balance_minor IS NOT walk.balance`,
  ).run({ team: teamId, account: accountId, date: fromDate, id: fromId, before });
}

/** Runs `fn` as (or inside) a write of the team, with the ledger's bookkeeping applied before it commits. */
export function ledgerWrite<T>(db: Db, teamId: string, fn: (lw: LedgerWrite) => T, options: { origin?: Origin } = {}): T {
  return write(
    db,
    teamId,
    (w) => {
      const lw = new LedgerWrite(w);
      const result = fn(lw);
      lw.finish();
      return result;
    },
    options,
  );
}

export type { SqlValue };
