import type { Invoice, InvoiceListQuery, InvoiceSortColumn } from '../../../src-shared/contract/invoices';
import { currencyExponent } from '../../../src-shared/money';
import type { Db } from '../db';
import { listFingerprint } from '../list/cursor';
import { keysetPage, type SortColumn } from '../list/keyset';
import { dayRange, inList } from './conditions';
import { invoiceRows, toInvoices } from './read';

/**
 * GET /invoices: the team's invoices, filtered (statuses, customers, issue-date range, a search by number, customer,
 * note or amount) and sorted, a keyset page at a time.
 */

const SORTS: Record<InvoiceSortColumn, SortColumn> = {
  created_at: { sql: 'i.created_at', kind: 'text' },
  invoice_date: { sql: 'i.issue_date', kind: 'text' },
  issue_date: { sql: 'i.issue_date', kind: 'text' },
  due_date: { sql: 'i.due_date', kind: 'text' },
  invoice_number: { sql: 'i.invoice_number', kind: 'text' },
  amount: { sql: 'i.amount_minor', kind: 'number' },
  status: { sql: 'i.status', kind: 'text' },
  customer: { sql: "lower(coalesce(i.customer_name, ''))", kind: 'text' },
};

/** "12.5", "12,50", "-3" → the number; anything else → undefined. */
function numericQuery(q: string): number | undefined {
  const t = q.trim().replace(/\s/g, '');
  if (!/^-?\d{1,15}([.,]\d{1,4})?$/.test(t)) return undefined;
  return Math.abs(Number(t.replace(',', '.')));
}

function likePattern(q: string): string {
  return `%${q.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The same number is a different count of minor units per currency exponent (12.5 → 1250 EUR, 13 JPY no): one
 * condition per exponent over the team's currencies of it.
 */
function amountConditions(db: Db, teamId: string, amount: number, params: Record<string, unknown>): string[] {
  const currencies = db.prepare('SELECT DISTINCT currency FROM invoices WHERE team_id = ?').pluck().all(teamId) as string[];
  const byExponent = new Map<number, string[]>();
  for (const c of currencies) {
    let e: number;
    try {
      e = currencyExponent(c);
    } catch {
      continue;
    }
    byExponent.set(e, [...(byExponent.get(e) ?? []), c]);
  }
  const conditions: string[] = [];
  for (const [e, list] of [...byExponent].sort(([a], [b]) => a - b)) {
    const scaled = amount * 10 ** e;
    const minor = Math.round(scaled);
    if (Math.abs(scaled - minor) > 1e-6 || !Number.isSafeInteger(minor)) continue;
    params[`amt${e}`] = minor;
    conditions.push(`(abs(i.amount_minor) = @amt${e} AND ${inList('i.currency', `amc${e}_`, list.sort(), params)})`);
  }
  return conditions;
}

export function listInvoices(
  db: Db,
  teamId: string,
  query: InvoiceListQuery,
  now = new Date(),
): { data: Invoice[]; meta: { cursor: string | null; hasPreviousPage: boolean; hasNextPage: boolean } } {
  const sortColumn = query.sort?.column ?? 'created_at';
  const direction = query.sort?.direction ?? (query.sort ? 'asc' : 'desc');
  const where = ['i.team_id = @team'];
  const params: Record<string, unknown> = { team: teamId };
  const statuses = [...new Set(query.statuses ?? [])].sort();
  const customers = [...new Set(query.customers ?? [])].sort();
  if (statuses.length) where.push(inList('i.status', 'st', statuses, params));
  if (customers.length) where.push(inList('i.customer_id', 'cu', customers, params));
  where.push(...dayRange('i.issue_date', query.start, query.end, params));
  const q = query.q?.trim();
  if (q) {
    const text = `(i.invoice_number LIKE @like ESCAPE '\\' OR coalesce(i.customer_name, '') LIKE @like ESCAPE '\\'
      OR coalesce(i.note, '') LIKE @like ESCAPE '\\')`;
    params.like = likePattern(q);
    const amount = numericQuery(q);
    const amounts = amount === undefined ? [] : amountConditions(db, teamId, amount, params);
    where.push(amounts.length ? `(${text} OR ${amounts.join(' OR ')})` : text);
  }
  const page = keysetPage(db, {
    from: 'invoices i',
    id: 'i.id',
    where,
    params,
    sort: SORTS[sortColumn],
    direction,
    pageSize: query.pageSize,
    fingerprint: listFingerprint([
      'invoices',
      teamId,
      sortColumn,
      direction,
      q ?? '',
      statuses,
      customers,
      query.start,
      query.end,
    ]),
    cursor: query.cursor,
  });
  return {
    data: toInvoices(db, teamId, invoiceRows(db, teamId, page.ids), now),
    meta: { cursor: page.cursor, hasPreviousPage: page.hasPreviousPage, hasNextPage: page.hasNextPage },
  };
}
