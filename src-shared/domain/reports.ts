import type { DayBucket, MonthlySeries } from './series';
import { includedTaxMinor } from './tax';

/**
 * The hosted report family (revenue, profit, burn rate, expenses, spending), pure, from monthly series by category
 * (series.ts). Shapes: shared/spec/hosted-service-facts.md "Reports"; decision docs/decisions/0094-reports.md.
 *
 * Classes of a category: `revenue` = every category of the revenue group, contra-revenue (customer refunds,
 * chargebacks) included; `expense` = every other counted category, `uncategorized` included. Excluded categories
 * never reach here (the store leaves them out), nor do internal or excluded transactions (the roll-up does).
 *
 * - revenue(m) = Σ over revenue categories of (inflow − outflow): refunds and chargebacks reduce it. Net revenue
 *   (the default, as hosted) removes the tax included at each category's rate from every day bucket before
 *   conversion: amount − round(amount × rate / (100 + rate)) (tax.ts includedTaxMinor), for inflow and outflow alike.
 * - expenses(m) = Σ over expense categories of outflow (money in on an expense category, a supplier's refund, does not
 *   lower it); burn rate (hosted) = expenses(m).
 * - profit(m) = revenue(m) − expenses(m).
 * - The previous value of month m is the same month a year earlier; change % = (current − previous) ÷ |previous| ×
 *   100, rounded to two decimals, 0 when the previous value is 0; status `positive` when ≥ 0.
 * - expenses split: recurring(m) = outflow of the recurring transactions counted in expenses(m); value = expenses −
 *   recurring; total = expenses. averageExpense = Σ expenses ÷ number of months.
 * - spending = per expense category Σ outflow over the window, as a negative amount, with its share of the total in
 *   percent (two decimals), largest first.
 */

export interface CategoryMeta {
  slug: string;
  name: string;
  color: string;
  taxRate: number | null;
  /** The parent group's slug, or the category's own when it is a group. */
  group: string;
}

export const REVENUE_GROUP = 'revenue';

export function isRevenue(meta: CategoryMeta | undefined): boolean {
  return meta?.group === REVENUE_GROUP;
}

/** Net-of-tax copy of revenue buckets (other buckets unchanged), before conversion. */
export function netOfTax(buckets: Iterable<DayBucket>, categories: ReadonlyMap<string, CategoryMeta>): DayBucket[] {
  const out: DayBucket[] = [];
  for (const b of buckets) {
    const meta = categories.get(b.key);
    const rate = isRevenue(meta) ? (meta?.taxRate ?? 0) : 0;
    out.push(
      rate
        ? {
            ...b,
            inflowMinor: b.inflowMinor - includedTaxMinor(b.inflowMinor, rate),
            outflowMinor: b.outflowMinor - includedTaxMinor(b.outflowMinor, rate),
          }
        : b,
    );
  }
  return out;
}

export interface Monthly {
  months: string[];
  revenue: number[];
  expenses: number[];
}

export function revenueAndExpenses(series: MonthlySeries, categories: ReadonlyMap<string, CategoryMeta>): Monthly {
  const n = series.months.length;
  const revenue = new Array(n).fill(0);
  const expenses = new Array(n).fill(0);
  for (const [key, s] of series.byKey) {
    const rev = isRevenue(categories.get(key));
    for (let i = 0; i < n; i++) {
      if (rev) revenue[i] += s.inflow[i]! - s.outflow[i]!;
      else expenses[i] += s.outflow[i]!;
    }
  }
  return { months: series.months, revenue, expenses };
}

export interface Change {
  month: string;
  current: number;
  previous: number;
  percentage: number;
  status: 'positive' | 'negative';
}

export function changes(months: readonly string[], current: readonly number[], previous: readonly number[]): Change[] {
  return months.map((month, i) => {
    const c = current[i] ?? 0;
    const p = previous[i] ?? 0;
    const pct = p === 0 ? 0 : Math.round(((c - p) / Math.abs(p)) * 10_000) / 100;
    return { month, current: c, previous: p, percentage: pct, status: pct >= 0 ? 'positive' : 'negative' };
  });
}

export interface SpendingRow {
  slug: string;
  name: string;
  color: string;
  amount: number;
  percentage: number;
}

export function spending(series: MonthlySeries, categories: ReadonlyMap<string, CategoryMeta>): SpendingRow[] {
  const rows: { slug: string; total: number }[] = [];
  for (const [key, s] of series.byKey) {
    if (isRevenue(categories.get(key))) continue;
    const total = s.outflow.reduce((a, b) => a + b, 0);
    if (total > 0) rows.push({ slug: key, total });
  }
  const all = rows.reduce((a, r) => a + r.total, 0);
  return rows
    .sort((a, b) => b.total - a.total || (a.slug < b.slug ? -1 : 1))
    .map((r) => {
      const meta = categories.get(r.slug);
      return {
        slug: r.slug,
        name: meta?.name ?? (r.slug === 'uncategorized' ? 'Uncategorized' : r.slug),
        color: meta?.color ?? '#6b7280',
        amount: -r.total,
        percentage: all ? Math.round((r.total / all) * 10_000) / 100 : 0,
      };
    });
}
