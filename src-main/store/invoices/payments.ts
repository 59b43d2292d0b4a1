import type { InvoicePayment } from '../../../src-shared/contract/invoice-payments';
import { toMajor } from '../../../src-shared/money';
import type { Db } from '../db';
import { NotFound } from '../errors';
import { listFingerprint } from '../list/cursor';
import { keysetPage, placeholders } from '../list/keyset';
import { dayRange, inList } from './conditions';
import type { PaymentRow } from './payment-links';

/**
 * Invoice payments as the API shows them: `/v1/payments` (applied) and `/v1/invoice-payments` (every link).
 * Matching against the ledger's transactions: src-main/store/invoices/matching.ts.
 */

type Row = PaymentRow & { invoice_number: string | null };

function toPayment(r: Row): InvoicePayment {
  return {
    id: r.id,
    invoiceId: r.invoice_id,
    invoiceNumber: r.invoice_number || null,
    transactionId: r.transaction_id,
    kind: r.kind,
    state: r.state,
    failureReason: r.failure_reason,
    amount: toMajor(r.amount_minor, r.currency),
    currency: r.currency,
    date: r.paid_on,
    confidence: r.confidence,
    matchedBy: r.matched_by,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

const SELECT = `SELECT p.*, i.invoice_number FROM invoice_payments p
  LEFT JOIN invoices i ON i.team_id = p.team_id AND i.id = p.invoice_id`;

function readRows(db: Db, teamId: string, ids: readonly string[]): Row[] {
  if (ids.length === 0) return [];
  const rows = db.prepare(`${SELECT} WHERE p.team_id = ? AND p.id IN (${placeholders(ids.length)})`).all(teamId, ...ids) as Row[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export function getInvoicePayment(db: Db, teamId: string, id: string): InvoicePayment {
  const [row] = readRows(db, teamId, [id]);
  if (!row) throw new NotFound('invoice payment', id);
  return toPayment(row);
}

interface Page {
  data: InvoicePayment[];
  meta: { cursor: string | null; hasPreviousPage: boolean; hasNextPage: boolean };
}

function page(
  db: Db,
  teamId: string,
  where: string[],
  params: Record<string, unknown>,
  parts: unknown[],
  q: { cursor?: string; pageSize: number },
  sortSql: string,
): Page {
  const p = keysetPage(db, {
    from: 'invoice_payments p',
    id: 'p.id',
    where: ['p.team_id = @team', ...where],
    params: { team: teamId, ...params },
    sort: { sql: sortSql, kind: 'text' },
    direction: 'desc',
    pageSize: q.pageSize,
    fingerprint: listFingerprint(parts),
    cursor: q.cursor,
  });
  return {
    data: readRows(db, teamId, p.ids).map(toPayment),
    meta: { cursor: p.cursor, hasPreviousPage: p.hasPreviousPage, hasNextPage: p.hasNextPage },
  };
}

/** GET /v1/payments: applied payments and refunds, by payment day then id, newest first. */
export function listPayments(db: Db, teamId: string, q: { from?: string; to?: string; cursor?: string; pageSize: number }): Page {
  const params: Record<string, unknown> = {};
  const where = ["p.state = 'applied'", ...dayRange('p.paid_on', q.from, q.to, params)];
  return page(db, teamId, where, params, ['payments', teamId, q.from, q.to], q, 'p.paid_on');
}

/** GET /v1/invoice-payments: every link, newest first. */
export function listInvoicePayments(
  db: Db,
  teamId: string,
  q: { states?: string[]; invoiceId?: string; transactionId?: string; cursor?: string; pageSize: number },
): Page {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  const states = [...new Set(q.states ?? [])].sort();
  if (states.length) where.push(inList('p.state', 's', states, params));
  if (q.invoiceId) {
    where.push('p.invoice_id = @invoice');
    params.invoice = q.invoiceId;
  }
  if (q.transactionId) {
    where.push('p.transaction_id = @tx');
    params.tx = q.transactionId;
  }
  return page(db, teamId, where, params, ['invoice-payments', teamId, states, q.invoiceId, q.transactionId], q, 'p.created_at');
}
