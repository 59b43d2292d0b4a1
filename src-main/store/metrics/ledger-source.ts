import type { Occurrence, OpenInvoice, PaidInvoice } from '../../../src-shared/domain/forecast-parts';
import type { CategoryMeta } from '../../../src-shared/domain/reports';
import type { DayBucket, Window } from '../../../src-shared/domain/series';
import type { Db } from '../db';

/**
 * What the metrics read from the ledger, and nothing else: day buckets of the daily roll-up (`ledger_daily`, kept
 * right by every ledger write), cash balances, recurring occurrences and invoices (exchange rates: rateLookup in
 * store/rate-of-day.ts). The math lives in src-shared/domain (series, runway, forecast*, stress, reports).
 * Every query filters by team.
 *
 * Categories marked `excluded` are left out here (the roll-up keeps them, by category, so that changing the flag
 * needs no rebuild); internal and excluded transactions are not in the roll-up at all.
 */

/**
 * Where ledger figures come from: the daily roll-up (always, in the product), or a raw scan of the transactions (the
 * benchmark's baseline, and a cross-check in tests). Both apply the same rule (transactions.ts `contributions`).
 */
export type LedgerSource = 'rollup' | 'scan';

export type BucketMode =
  /** One key, `all`: cash flow and runway. */
  | 'total'
  /** One key per category slug: reports, revenue. */
  | 'category';

const EXCLUDED = `category_slug NOT IN (SELECT slug FROM transaction_categories WHERE team_id = @team AND excluded = 1)`;

/**
 * Day buckets of the window, summed in SQL by (day, currency) — or (day, currency, category) — so a team with a
 * million transactions hands the math a few thousand rows.
 */
export function dayBuckets(
  db: Db,
  teamId: string,
  window: Window,
  mode: BucketMode,
  source: LedgerSource = 'rollup',
): DayBucket[] {
  if (source === 'scan') {
    if (mode !== 'total') throw new Error('a raw scan answers totals only');
    return dayBucketsFromTransactions(db, teamId, window);
  }
  const key = mode === 'total' ? `'all'` : 'category_slug';
  return db
    .prepare(
      `SELECT day, currency, ${key} AS key, sum(inflow_minor) AS inflowMinor, sum(outflow_minor) AS outflowMinor
       FROM ledger_daily
       WHERE team_id = @team AND day >= @from AND day <= @to AND ${EXCLUDED}
       GROUP BY day, currency${mode === 'total' ? '' : ', category_slug'}`,
    )
    .all({ team: teamId, from: window.from, to: window.to }) as DayBucket[];
}

/** The same totals from a raw scan of the transactions (the benchmark's baseline, and a check in tests). */
export function dayBucketsFromTransactions(db: Db, teamId: string, window: Window): DayBucket[] {
  return db
    .prepare(
      `SELECT day, currency, 'all' AS key,
         sum(CASE WHEN amt >= 0 THEN amt ELSE 0 END) AS inflowMinor, sum(CASE WHEN amt < 0 THEN -amt ELSE 0 END) AS outflowMinor
       FROM (
         SELECT t.date AS day, t.currency, coalesce(t.category_slug, 'uncategorized') AS category_slug, t.amount_minor AS amt
         FROM transactions t
         WHERE t.team_id = @team AND t.date >= @from AND t.date <= @to AND coalesce(t.internal, 0) = 0 AND t.status <> 'excluded'
           AND NOT EXISTS (SELECT 1 FROM transaction_splits s WHERE s.team_id = t.team_id AND s.transaction_id = t.id)
         UNION ALL
         SELECT t.date, t.currency, coalesce(s.category_slug, 'uncategorized'), s.amount_minor
         FROM transaction_splits s JOIN transactions t ON t.id = s.transaction_id
         WHERE s.team_id = @team AND t.date >= @from AND t.date <= @to AND coalesce(t.internal, 0) = 0 AND t.status <> 'excluded'
       )
       WHERE ${EXCLUDED}
       GROUP BY day, currency`,
    )
    .all({ team: teamId, from: window.from, to: window.to }) as DayBucket[];
}

export function baseCurrency(db: Db, teamId: string): string {
  return db.prepare('SELECT base_currency FROM teams WHERE id = ?').pluck().get(teamId) as string;
}

export function categoryMeta(db: Db, teamId: string): Map<string, CategoryMeta> {
  const rows = db
    .prepare(
      `SELECT c.slug, c.name, c.color, c.tax_rate AS taxRate, coalesce(p.slug, c.slug) AS grp
       FROM transaction_categories c LEFT JOIN transaction_categories p ON p.id = c.parent_id
       WHERE c.team_id = ?`,
    )
    .all(teamId) as (Omit<CategoryMeta, 'group'> & { grp: string })[];
  return new Map(rows.map((r) => [r.slug, { slug: r.slug, name: r.name, color: r.color, taxRate: r.taxRate, group: r.grp }]));
}

export interface CashAccount {
  id: string;
  name: string;
  type: string;
  currency: string;
  balanceMinor: number;
}

/** Enabled depository and other-asset accounts: the cash of runway and of a stress test's default start. */
export function cashAccounts(db: Db, teamId: string): CashAccount[] {
  return db
    .prepare(
      `SELECT id, name, type, currency, balance_minor AS balanceMinor FROM bank_accounts
       WHERE team_id = ? AND enabled = 1 AND type IN ('depository', 'other_asset') ORDER BY name, id`,
    )
    .all(teamId) as CashAccount[];
}

const seriesColumn = new WeakMap<Db, boolean>();

/** Whether the recurring-series store (migration 013) links transactions to detected series. */
function hasSeriesColumn(db: Db): boolean {
  let has = seriesColumn.get(db);
  if (has === undefined) {
    has =
      (db.prepare(`SELECT 1 FROM pragma_table_info('transactions') WHERE name = 'recurring_series_id'`).get() ?? null) !== null;
    seriesColumn.set(db, has);
  }
  return has;
}

export interface RawOccurrence extends Occurrence {
  currency: string;
  categorySlug: string;
}

/**
 * The series key of a recurring transaction without a detected series: its name with digits and punctuation taken out
 * (bank lines like "Salary 08/2026" repeat under a changing name), its currency and frequency.
 */
export function fallbackSeriesKey(name: string, currency: string, frequency: string | null): string {
  const payee = name
    .toLowerCase()
    .replace(/[\p{N}\p{P}\p{S}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return `${payee}|${currency}|${frequency ?? ''}`;
}

/**
 * Occurrences of recurring transactions that count in reports, in their own currency. The series key is the detected
 * series (migration 013's `recurring_series_id`) when the transaction is linked to one, else fallbackSeriesKey. Read
 * through the partial index on recurring transactions (migration 010).
 */
export function recurringOccurrences(db: Db, teamId: string, window: Window): RawOccurrence[] {
  const series = hasSeriesColumn(db) ? 't.recurring_series_id' : 'NULL';
  const rows = db
    .prepare(
      `SELECT ${series} AS seriesId, t.name, t.frequency, t.date AS day, t.amount_minor AS amountMinor, t.currency,
         coalesce(t.category_slug, 'uncategorized') AS categorySlug
       FROM transactions t INDEXED BY transactions_team_recurring
       WHERE t.team_id = @team AND t.recurring = 1 AND t.date >= @from AND t.date <= @to
         AND coalesce(t.internal, 0) = 0 AND t.status <> 'excluded'
         AND coalesce(t.category_slug, 'uncategorized') NOT IN
           (SELECT slug FROM transaction_categories WHERE team_id = @team AND excluded = 1)
       ORDER BY t.date, t.id`,
    )
    .all({ team: teamId, from: window.from, to: window.to }) as (Omit<RawOccurrence, 'key'> & {
    seriesId: string | null;
    name: string;
  })[];
  return rows.map(({ seriesId, name, ...o }) => ({ ...o, key: seriesId ?? fallbackSeriesKey(name, o.currency, o.frequency) }));
}

export interface InvoiceFacts {
  open: (OpenInvoice & { currency: string; netMinor: number })[];
  paid: PaidInvoice[];
}

/** Open invoices (unpaid, overdue) and the payment history of paid ones (due day → paid day). */
export function invoiceFacts(db: Db, teamId: string): InvoiceFacts {
  const open = db
    .prepare(
      `SELECT id, customer_id AS customerId, due_date AS dueDay, amount_minor AS amountMinor, currency,
         amount_minor - vat_minor - tax_minor AS netMinor
       FROM invoices WHERE team_id = ? AND status IN ('unpaid', 'overdue') ORDER BY id`,
    )
    .all(teamId) as InvoiceFacts['open'];
  const paid = db
    .prepare(
      `SELECT customer_id AS customerId, due_date AS dueDay, substr(paid_at, 1, 10) AS paidDay
       FROM invoices WHERE team_id = ? AND status = 'paid' AND paid_at IS NOT NULL ORDER BY paid_at`,
    )
    .all(teamId) as PaidInvoice[];
  return { open, paid };
}

/** The last day with a transaction in the roll-up (null for an empty ledger). */
export function lastLedgerDay(db: Db, teamId: string): string | null {
  return (db.prepare('SELECT max(day) FROM ledger_daily WHERE team_id = ?').pluck().get(teamId) as string | null) ?? null;
}

export interface ExposureRow {
  currency: string;
  revenue: number;
  inflowMinor: number;
  outflowMinor: number;
}

/**
 * Money in and out of the window per currency, split into revenue categories and the rest: the shares a stress test
 * gives its revenue drivers and its currency shocks.
 */
export function exposure(db: Db, teamId: string, window: Window, source: LedgerSource = 'rollup'): ExposureRow[] {
  const rows =
    source === 'scan'
      ? `(SELECT t.date AS day, t.currency, coalesce(CASE WHEN s.id IS NULL THEN t.category_slug ELSE s.category_slug END, 'uncategorized') AS category_slug,
           CASE WHEN coalesce(s.amount_minor, t.amount_minor) >= 0 THEN coalesce(s.amount_minor, t.amount_minor) ELSE 0 END AS inflow_minor,
           CASE WHEN coalesce(s.amount_minor, t.amount_minor) < 0 THEN -coalesce(s.amount_minor, t.amount_minor) ELSE 0 END AS outflow_minor
         FROM transactions t LEFT JOIN transaction_splits s ON s.team_id = t.team_id AND s.transaction_id = t.id
         WHERE t.team_id = @team AND t.date >= @from AND t.date <= @to AND coalesce(t.internal, 0) = 0 AND t.status <> 'excluded')`
      : 'ledger_daily';
  return db
    .prepare(
      `SELECT currency,
         (category_slug IN (SELECT c.slug FROM transaction_categories c LEFT JOIN transaction_categories p ON p.id = c.parent_id
                            WHERE c.team_id = @team AND coalesce(p.slug, c.slug) = 'revenue')) AS revenue,
         sum(inflow_minor) AS inflowMinor, sum(outflow_minor) AS outflowMinor
       FROM ${rows}
       WHERE ${source === 'scan' ? '' : 'team_id = @team AND day >= @from AND day <= @to AND '}${EXCLUDED}
       GROUP BY 1, 2`,
    )
    .all({ team: teamId, from: window.from, to: window.to }) as ExposureRow[];
}
