import type { SearchQuery, SearchResult, SearchType } from '../../../src-shared/contract/search';
import { toMajor } from '../../../src-shared/money';
import type { Db } from '../db';
import { ftsQuery } from '../list/fts';

/**
 * Search over the FTS5 indexes of customers (migration 002), transactions (006) and invoices, tracker projects,
 * documents and inbox items (009) (docs/decisions/0087-search.md). Every type is one ranked query joined back to its
 * table on the team, so another team's records can never appear; results are merged by relevance (−bm25, higher is
 * better), each type capped by `itemsPerTableLimit`, the whole by `limit`. A numeric term also finds invoices and
 * transactions with exactly that amount (relevance 1000: an exact figure beats any word match).
 */

interface Source {
  fts: string;
  table: string;
  /** Columns of the table row (alias x) to select as the result's data, with how to shape them. */
  columns: string;
  data: (r: Record<string, unknown>) => Record<string, unknown>;
  /** For numeric terms: the condition matching an exact amount (bind @minor, @major). */
  amount?: string;
}

const money = (minor: unknown, currency: unknown) =>
  typeof minor === 'number' && typeof currency === 'string' ? toMajor(minor, currency) : null;

const SOURCES: Record<SearchType, Source> = {
  customer: {
    fts: 'customers_fts',
    table: 'customers',
    columns: 'x.name, x.email, x.website, x.country_code',
    data: (r) => ({ name: r.name, email: r.email, website: r.website, countryCode: r.country_code }),
  },
  invoice: {
    fts: 'invoices_fts',
    table: 'invoices',
    columns: 'x.invoice_number, x.customer_name, x.customer_id, x.status, x.amount_minor, x.currency, x.due_date',
    data: (r) => ({
      invoiceNumber: r.invoice_number || null,
      customerName: r.customer_name,
      customerId: r.customer_id,
      status: r.status,
      amount: money(r.amount_minor, r.currency),
      currency: r.currency,
      dueDate: r.due_date,
    }),
    amount: 'x.amount_minor = @minor',
  },
  transaction: {
    fts: 'transactions_fts',
    table: 'transactions',
    columns: 'x.name, x.amount_minor, x.currency, x.date, x.status',
    data: (r) => ({
      name: r.name,
      amount: money(r.amount_minor, r.currency),
      currency: r.currency,
      date: r.date,
      status: r.status,
    }),
    amount: 'abs(x.amount_minor) = @minor',
  },
  tracker_project: {
    fts: 'tracker_projects_fts',
    table: 'tracker_projects',
    columns: 'x.name, x.status, x.customer_id, x.billable',
    data: (r) => ({ name: r.name, status: r.status, customerId: r.customer_id, billable: r.billable === 1 }),
  },
  inbox: {
    fts: 'inbox_items_fts',
    table: 'inbox_items',
    columns: 'x.display_name, x.file_name, x.amount_minor, x.currency, x.date, x.status',
    data: (r) => ({
      displayName: r.display_name,
      fileName: r.file_name,
      amount: money(r.amount_minor, r.currency),
      currency: r.currency,
      date: r.date,
      status: r.status,
    }),
  },
  vault: {
    fts: 'documents_fts',
    table: 'documents',
    columns: 'x.title, x.file_name, x.mimetype, x.processing_status, x.date',
    data: (r) => ({
      title: r.title,
      fileName: r.file_name,
      mimetype: r.mimetype,
      processingStatus: r.processing_status,
      date: r.date,
    }),
  },
};

/** An amount-looking term ("23.40", "1,234.56", "-12") as minor units at exponent 2, or undefined. */
function amountTerm(term: string | undefined): number | undefined {
  const t = term?.trim().replace(/^-/, '') ?? '';
  if (!/^\d{1,12}([.,]\d{1,2})?$/.test(t)) return undefined;
  const [int = '0', frac = ''] = t.split(/[.,]/);
  return Number(int) * 100 + Number(frac.padEnd(2, '0'));
}

export function search(db: Db, teamId: string, query: SearchQuery, allowed: readonly SearchType[]): SearchResult[] {
  const types = (query.types?.length ? query.types : allowed).filter((t) => allowed.includes(t));
  const match = ftsQuery(query.searchTerm);
  const minor = amountTerm(query.searchTerm);
  const per = query.itemsPerTableLimit;
  const results: SearchResult[] = [];
  for (const type of types) {
    const s = SOURCES[type];
    const seen = new Set<string>();
    const add = (rows: Record<string, unknown>[]) => {
      for (const r of rows) {
        const id = r.id as string;
        if (seen.has(id) || seen.size >= per) continue;
        seen.add(id);
        results.push({
          id,
          type,
          relevance: Math.round((r.relevance as number) * 10_000) / 10_000,
          created_at: r.created_at as string,
          data: s.data(r),
        });
      }
    };
    if (minor !== undefined && s.amount) {
      add(
        db
          .prepare(
            `SELECT x.id, x.created_at, 1000.0 AS relevance, ${s.columns} FROM ${s.table} x
             WHERE x.team_id = @team AND ${s.amount} ORDER BY x.created_at DESC LIMIT @per`,
          )
          .all({ team: teamId, minor, per }) as Record<string, unknown>[],
      );
    }
    if (match) {
      add(
        db
          .prepare(
            `SELECT x.id, x.created_at, -bm25(${s.fts}) AS relevance, ${s.columns}
             FROM ${s.fts} JOIN ${s.table} x ON x.search_rowid = ${s.fts}.rowid
             WHERE ${s.fts} MATCH @match AND x.team_id = @team
             ORDER BY bm25(${s.fts}) LIMIT @per`,
          )
          .all({ team: teamId, match, per }) as Record<string, unknown>[],
      );
    } else if (minor === undefined) {
      add(
        db
          .prepare(
            `SELECT x.id, x.created_at, 0.0 AS relevance, ${s.columns} FROM ${s.table} x
             WHERE x.team_id = @team ORDER BY x.created_at DESC LIMIT @per`,
          )
          .all({ team: teamId, per }) as Record<string, unknown>[],
      );
    }
  }
  return results
    .sort((a, b) => b.relevance - a.relevance || (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0))
    .slice(0, query.limit);
}
