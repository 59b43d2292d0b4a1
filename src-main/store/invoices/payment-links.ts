import type { Db } from '../db';
import { placeholders } from '../list/keyset';
import type { Writer } from '../write';

/**
 * Rows of `invoice_payments` as the invoice itself needs them: the applied payment shown on an invoice, a payment
 * recorded by hand when an invoice is marked paid, and clearing an invoice's links when it is canceled or deleted.
 * Matching against the ledger's transactions (suggest, apply, unmatch) is src-main/store/invoices/payments.ts.
 */

export interface PaymentRow {
  id: string;
  team_id: string;
  invoice_id: string;
  transaction_id: string | null;
  state: 'suggested' | 'applied' | 'dismissed';
  amount_minor: number;
  currency: string;
  paid_on: string;
  confidence: number | null;
  matched_by: 'auto' | 'user' | 'manual';
  restore_invoice: string | null;
  restore_transaction: string | null;
  created_at: string;
  updated_at: string;
  seq: number;
}

/** The applied payment of each of these invoices. */
export function appliedPayments(db: Db, teamId: string, invoiceIds: readonly string[]): Map<string, PaymentRow> {
  const out = new Map<string, PaymentRow>();
  if (invoiceIds.length === 0) return out;
  const rows = db
    .prepare(
      `SELECT * FROM invoice_payments WHERE team_id = ? AND state = 'applied'
         AND invoice_id IN (${placeholders(invoiceIds.length)})`,
    )
    .all(teamId, ...invoiceIds) as PaymentRow[];
  for (const r of rows) out.set(r.invoice_id, r);
  return out;
}

/** Marked paid by hand (no transaction): the payment is recorded so /v1/payments lists it. Inside the invoice's write. */
export function recordManualPayment(
  w: Writer,
  invoice: { id: string; amount_minor: number; currency: string },
  paidOn: string,
): string {
  return w.insert('invoice_payment', {
    invoice_id: invoice.id,
    transaction_id: null,
    state: 'applied',
    amount_minor: invoice.amount_minor,
    currency: invoice.currency,
    paid_on: paidOn,
    confidence: null,
    matched_by: 'manual',
  });
}

/**
 * A canceled invoice keeps no match suggestions; a deleted one keeps nothing (`removeAll`). An applied payment
 * only exists on a paid or refunded invoice, which can be neither canceled nor deleted.
 */
export function releaseInvoicePayments(w: Writer, invoiceId: string, options: { removeAll?: boolean } = {}): number {
  const ids = w.db
    .prepare(
      `SELECT id FROM invoice_payments WHERE team_id = ? AND invoice_id = ? ${options.removeAll ? '' : "AND state = 'suggested'"}`,
    )
    .pluck()
    .all(w.teamId, invoiceId) as string[];
  for (const id of ids) w.remove('invoice_payment', id);
  return ids.length;
}

/**
 * The invoice was reopened (no longer paid): its applied payment is undone. The link becomes dismissed (kept as
 * history; the matcher never applies a dismissed pair again) and `restoreTransaction` puts back what applying
 * changed on a matched transaction.
 */
export function undoAppliedPayment(
  w: Writer,
  invoiceId: string,
  restoreTransaction: (row: PaymentRow) => void = () => {},
): PaymentRow | undefined {
  const row = w.db
    .prepare(`SELECT * FROM invoice_payments WHERE team_id = ? AND invoice_id = ? AND state = 'applied'`)
    .get(w.teamId, invoiceId) as PaymentRow | undefined;
  if (!row) return undefined;
  restoreTransaction(row);
  w.update('invoice_payment', row.id, { state: 'dismissed', restore_invoice: null, restore_transaction: null });
  return row;
}
