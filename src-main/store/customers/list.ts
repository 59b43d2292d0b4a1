import type { Customer, CustomerSort, CustomerSortColumn, CustomerTab } from '../../../src-shared/contract/customers';
import { recentWindow } from '../../../src-shared/domain/customer-engagement';
import { divisorSql } from '../currency-sql';
import type { Db } from '../db';
import { listFingerprint } from '../list/cursor';
import { ftsQuery } from '../list/fts';
import { keysetPage, type SortColumn } from '../list/keyset';
import { customerStatsCte, TABS_BY_STATS, TABS_CORRELATED } from './engagement-sql';
import { readRows, toCustomer } from './read';

/** The list of customers: search, filters, tabs, sort and keyset cursor (docs/decisions/0022 and 0023). */

/** Money sorts divide by 10^exponent in SQL, so sorting by money sorts by the same numbers the API shows. */
const STATS_CTE = customerStatsCte(divisorSql);

/** Sort columns; `stats` ones read the per-customer invoice aggregates (STATS_CTE joined as `s`). */
const SORTS: Record<CustomerSortColumn, SortColumn & { stats: boolean }> = {
  created_at: { sql: 'c.created_at', kind: 'text', stats: false },
  name: { sql: 'c.name COLLATE NOCASE', kind: 'text', stats: false },
  email: { sql: "coalesce(c.email, '') COLLATE NOCASE", kind: 'text', stats: false },
  country: { sql: "coalesce(c.country, '') COLLATE NOCASE", kind: 'text', stats: false },
  invoices: { sql: 'coalesce(s.issued, 0)', kind: 'number', stats: true },
  projects: {
    sql: '(SELECT count(*) FROM tracker_projects p WHERE p.team_id = c.team_id AND p.customer_id = c.id)',
    kind: 'number',
    stats: false,
  },
  total_revenue: { sql: 'coalesce(s.revenue, 0)', kind: 'number', stats: true },
  outstanding: { sql: 'coalesce(s.outstanding, 0)', kind: 'number', stats: true },
  last_invoice: { sql: "coalesce(substr(s.latest, 1, instr(s.latest, ' ') - 1), '')", kind: 'text', stats: true },
};

export interface CustomerPageResult {
  data: Customer[];
  meta: { cursor: string | null; hasNextPage: boolean; hasPreviousPage: boolean };
}

/** The list's inputs: the parsed query (CustomerListQuery) with every field optional. */
export interface CustomerListOptions {
  q?: string;
  sort?: CustomerSort;
  cursor?: string;
  pageSize?: number;
  tags?: string[];
  countries?: string[];
  tab?: CustomerTab;
}

export function listCustomers(db: Db, teamId: string, query: CustomerListOptions, now = new Date()): CustomerPageResult {
  // One read transaction: the page's keys and rows come from the same snapshot.
  return db.transaction(() => listInSnapshot(db, teamId, query, now))();
}

function listInSnapshot(db: Db, teamId: string, query: CustomerListOptions, now: Date): CustomerPageResult {
  const column = query.sort?.column ?? 'created_at';
  const direction = query.sort?.direction ?? (query.sort ? 'asc' : 'desc');
  const sort = SORTS[column];
  const tab = query.tab ?? 'all';
  const tabSql = (sort.stats ? TABS_BY_STATS : TABS_CORRELATED)[tab];
  const match = ftsQuery(query.q);

  const params: Record<string, unknown> = { team: teamId };
  const where = ['c.team_id = @team'];
  if (match) {
    where.push('c.search_rowid IN (SELECT rowid FROM customers_fts WHERE customers_fts MATCH @match)');
    params.match = match;
  }
  if (query.tags && query.tags.length > 0) {
    where.push(
      'EXISTS (SELECT 1 FROM customer_tags ct WHERE ct.team_id = c.team_id AND ct.customer_id = c.id AND ct.tag_id IN (SELECT value FROM json_each(@tags)))',
    );
    params.tags = JSON.stringify(query.tags);
  }
  if (query.countries && query.countries.length > 0) {
    where.push('c.country_code IN (SELECT value FROM json_each(@countries))');
    params.countries = JSON.stringify(query.countries);
  }
  if (tabSql) {
    where.push(tabSql);
    if (tab === 'recent') Object.assign(params, recentWindow(now));
  }
  const page = keysetPage(db, {
    with: sort.stats ? STATS_CTE : undefined,
    from: `customers c${sort.stats ? ' LEFT JOIN s ON s.cid = c.id' : ''}`,
    id: 'c.id',
    where,
    params,
    sort,
    direction,
    pageSize: query.pageSize ?? 50,
    fingerprint: listFingerprint([
      teamId,
      column,
      direction,
      match,
      [...new Set(query.tags ?? [])].sort(),
      [...new Set(query.countries ?? [])].sort(),
      tab,
    ]),
    cursor: query.cursor,
  });
  const byId = new Map(readRows(db, teamId, page.ids).map((r) => [r.id, r]));
  return {
    data: page.ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [toCustomer(row, now)] : [];
    }),
    meta: { cursor: page.cursor, hasNextPage: page.hasNextPage, hasPreviousPage: page.hasPreviousPage },
  };
}
