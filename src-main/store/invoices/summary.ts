import { type PaymentScore, paymentScore, paymentScoreSince } from '../../../src-shared/domain/invoice-payment-score';
import { INVOICE_STATUSES, type InvoiceStatus } from '../../../src-shared/domain/invoice-status';
import { toMajor } from '../../../src-shared/money';
import type { Db } from '../db';
import { openSql, receivedSql } from '../invoice-status-sql';
import { placeholders } from '../list/keyset';
import { type InvoiceRow, invoiceTimeZone } from './read';

/**
 * The team-wide figures of its invoices (docs/decisions/0075-invoice-summary-and-payment-score.md): totals by
 * currency (outstanding and overdue: what is still due, partial payments deducted), and the facts the on-time payment score (src-shared/domain/invoice-payment-score.ts) is computed from.
 */

const ISSUED = INVOICE_STATUSES.filter((s) => s !== 'draft' && s !== 'canceled');

export function invoiceSummary(db: Db, teamId: string, statuses?: readonly InvoiceStatus[]) {
  const counted = statuses?.length ? [...new Set(statuses)] : ISSUED;
  const rows = db
    .prepare(
      `SELECT currency,
         sum(CASE WHEN status IN (${placeholders(counted.length)}) THEN amount_minor ELSE 0 END) AS total,
         sum(CASE WHEN status IN (${placeholders(counted.length)}) THEN 1 ELSE 0 END) AS n,
         sum(CASE WHEN status = 'paid' THEN amount_minor ELSE 0 END) AS paid,
         sum(CASE WHEN status IN ('unpaid', 'overdue') THEN amount_minor - received ELSE 0 END) AS outstanding,
         sum(CASE WHEN status = 'overdue' THEN amount_minor - received ELSE 0 END) AS overdue
       FROM (SELECT i.*, CASE WHEN ${openSql('i.status')} THEN ${receivedSql('i')} ELSE 0 END AS received
             FROM invoices i WHERE i.team_id = ?)
       GROUP BY currency ORDER BY currency`,
    )
    .all(...counted, ...counted, teamId) as {
    currency: string;
    total: number;
    n: number;
    paid: number;
    outstanding: number;
    overdue: number;
  }[];
  return {
    data: rows
      .filter((r) => r.n > 0)
      .map((r) => ({
        currency: r.currency,
        totalAmount: toMajor(r.total, r.currency),
        invoiceCount: r.n,
        paid: toMajor(r.paid, r.currency),
        outstanding: toMajor(r.outstanding, r.currency),
        overdue: toMajor(r.overdue, r.currency),
      })),
  };
}

/** GET /invoices/payment-status: the invoices paid (or paid, then refunded) within the window and those overdue now. */
export function paymentStatus(db: Db, teamId: string, now = new Date()): PaymentScore {
  const paid = db
    .prepare(
      `SELECT due_date, paid_at, timezone FROM invoices
       WHERE team_id = ? AND status IN ('paid', 'refunded') AND paid_at IS NOT NULL AND paid_at >= ?`,
    )
    .all(teamId, paymentScoreSince(now)) as (Pick<InvoiceRow, 'due_date' | 'timezone'> & { paid_at: string })[];
  const overdue = db
    .prepare(`SELECT count(*) FROM invoices WHERE team_id = ? AND status = 'overdue'`)
    .pluck()
    .get(teamId) as number;
  return paymentScore(
    paid.map((r) => ({ dueDate: r.due_date, paidAt: r.paid_at, timeZone: invoiceTimeZone(r) })),
    overdue,
  );
}
