import type { CustomerTab } from '../../../src-shared/domain/customer-engagement';
import { issuedSql, openSql, receivedSql } from '../invoice-status-sql';

/**
 * The SQL forms of the customer rules in src-shared/domain/customer-engagement.ts, for list filters. Two forms of
 * each tab condition, for the two query plans the list uses (docs/decisions/0023):
 * - `TABS_CORRELATED`: correlated subqueries on invoices_customer (team_id, customer_id, issue_date), so a sort by a
 *   customer column stops after one page of matches instead of aggregating every invoice;
 * - `TABS_BY_STATS`: conditions over the per-customer aggregates `s` (CUSTOMER_STATS_CTE), used when an
 *   invoice-based sort joins them anyway.
 * `recent` binds @sinceTs and @sinceDate from recentWindow(now). A table test holds every form equal to the
 * TypeScript rule.
 */

const INV = 'FROM invoices i WHERE i.team_id = c.team_id AND i.customer_id = c.id';
const ISSUED = issuedSql('i.status');

export const TABS_CORRELATED: Record<CustomerTab, string | null> = {
  all: null,
  'first-time': `(SELECT count(*) ${INV} AND ${ISSUED}) = 1`,
  repeat: `(SELECT count(*) ${INV} AND ${ISSUED}) >= 2`,
  recent: `(c.created_at >= @sinceTs OR EXISTS (SELECT 1 ${INV} AND i.issue_date >= @sinceDate AND ${ISSUED}))`,
  unpaid: `EXISTS (SELECT 1 ${INV} AND ${openSql('i.status')})`,
  paid: `EXISTS (SELECT 1 ${INV} AND i.status = 'paid') AND NOT EXISTS (SELECT 1 ${INV} AND ${ISSUED} AND i.status <> 'paid')`,
};

export const TABS_BY_STATS: Record<CustomerTab, string | null> = {
  all: null,
  'first-time': 'coalesce(s.issued, 0) = 1',
  repeat: 'coalesce(s.issued, 0) >= 2',
  recent: '(c.created_at >= @sinceTs OR s.latest >= @sinceDate)',
  unpaid: 'coalesce(s.open_n, 0) > 0',
  paid: 's.issued > 0 AND s.paid_n = s.issued',
};

/**
 * Per-customer aggregates over the team's issued invoices (bind @team), as `s(cid, issued, paid_n, open_n, latest,
 * cur, revenue, outstanding)`; `divisor(col)` turns minor units of the currency in `col` into major units so money
 * sorts by the numbers the API shows.
 */
export function customerStatsCte(divisor: (column: string) => string): string {
  return `WITH g AS (
    SELECT customer_id AS cid, currency, count(*) AS n,
      sum(status = 'paid') AS paid_n,
      sum(${openSql('status')}) AS open_n,
      max(issue_date || ' ' || id) AS latest,
      sum(CASE WHEN status = 'paid' THEN amount_minor ELSE 0 END) AS paid_minor,
      sum(CASE WHEN ${openSql('status')} THEN amount_minor - ${receivedSql('i')} ELSE 0 END) AS open_minor
    FROM invoices i WHERE team_id = @team AND customer_id IS NOT NULL AND ${issuedSql('status')}
    GROUP BY customer_id, currency
  ),
  s AS (
    -- SQLite's bare-column rule: with exactly one max() aggregate, currency, paid_minor and open_minor come from the
    -- row holding it, i.e. the currency of the latest issued invoice (the customer's invoice currency).
    SELECT cid, sum(n) AS issued, sum(paid_n) AS paid_n, sum(open_n) AS open_n, max(latest) AS latest,
      currency AS cur, paid_minor * 1.0 / ${divisor('currency')} AS revenue,
      open_minor * 1.0 / ${divisor('currency')} AS outstanding
    FROM g GROUP BY cid
  )
`;
}
