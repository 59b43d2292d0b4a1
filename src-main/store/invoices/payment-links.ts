import type { Settlement } from '../../../src-shared/domain/invoice-settlement';
import type { Db } from '../db';
import { Conflict } from '../errors';
import { placeholders } from '../list/keyset';
import type { Writer } from '../write';

/**
 * Rows of `invoice_payments` as the invoice itself needs them: its applied payments and refunds (shown on it, and
 * what settles it: src-shared/domain/invoice-settlement.ts), a payment or refund recorded by hand, and clearing an
 * invoice's links when it is canceled, deleted or reopened. Matching against the ledger's transactions (suggest,
 * apply, unmatch) is ./matching.ts; recording by hand, refunds and bounces ./payment-records.ts.
 */

export type PaymentState = 'suggested' | 'applied' | 'dismissed' | 'bounced';

export interface PaymentRow {
  id: string;
  team_id: string;
  invoice_id: string;
  transaction_id: string | null;
  kind: 'payment' | 'refund';
  state: PaymentState;
  amount_minor: number;
  currency: string;
  paid_on: string;
  confidence: number | null;
  matched_by: 'auto' | 'user' | 'manual';
  restore_invoice: string | null;
  restore_transaction: string | null;
  failure_reason: string | null;
  created_at: string;
  updated_at: string;
  seq: number;
}

/** The applied payments and refunds of each of these invoices, oldest first. */
export function appliedPayments(db: Db, teamId: string, invoiceIds: readonly string[]): Map<string, PaymentRow[]> {
  const out = new Map<string, PaymentRow[]>();
  if (invoiceIds.length === 0) return out;
  const rows = db
    .prepare(
      `SELECT * FROM invoice_payments WHERE team_id = ? AND state = 'applied'
         AND invoice_id IN (${placeholders(invoiceIds.length)}) ORDER BY paid_on, created_at, id`,
    )
    .all(teamId, ...invoiceIds) as PaymentRow[];
  for (const r of rows) out.set(r.invoice_id, [...(out.get(r.invoice_id) ?? []), r]);
  return out;
}

/** Sums of applied payments and refunds in minor units. */
export function totalsOf(rows: readonly PaymentRow[]): { paidMinor: number; refundedMinor: number } {
  let paidMinor = 0;
  let refundedMinor = 0;
  for (const r of rows) {
    if (r.kind === 'refund') refundedMinor += r.amount_minor;
    else paidMinor += r.amount_minor;
  }
  return { paidMinor, refundedMinor };
}

/** What settles the invoice now: its status, amount and applied payments. */
export function settlementOf(
  db: Db,
  teamId: string,
  invoice: { id: string; status: Settlement['status']; amount_minor: number },
): Settlement {
  const rows = appliedPayments(db, teamId, [invoice.id]).get(invoice.id) ?? [];
  return { status: invoice.status, amountMinor: invoice.amount_minor, ...totalsOf(rows) };
}

/** A payment or refund without a transaction (marked by hand). Inside the invoice's write. */
export function recordManualPayment(
  w: Writer,
  invoice: { id: string; currency: string },
  values: { kind: 'payment' | 'refund'; amountMinor: number; paidOn: string },
): string {
  return w.insert('invoice_payment', {
    invoice_id: invoice.id,
    transaction_id: null,
    kind: values.kind,
    state: 'applied',
    amount_minor: values.amountMinor,
    currency: invoice.currency,
    paid_on: values.paidOn,
    confidence: null,
    matched_by: 'manual',
  });
}

/**
 * A canceled invoice keeps no match suggestions; a deleted one keeps nothing (`removeAll`). An invoice that has
 * received money cannot be canceled: its payments are unmatched first (a deleted invoice is a draft or canceled).
 */
export function releaseInvoicePayments(w: Writer, invoiceId: string, options: { removeAll?: boolean } = {}): number {
  if (!options.removeAll) {
    const applied = w.db
      .prepare(`SELECT count(*) FROM invoice_payments WHERE team_id = ? AND invoice_id = ? AND state = 'applied'`)
      .pluck()
      .get(w.teamId, invoiceId) as number;
    if (applied > 0) {
      throw new Conflict(
        `The invoice has ${applied} applied payment(s): an invoice that received money cannot be canceled`,
        'Unmatch its payments first (DELETE /v1/invoice-payments/{id})',
      );
    }
  }
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
 * The invoice was reopened by hand (it was not paid after all): each applied payment is undone. A link becomes
 * dismissed (kept as history; the matcher never applies a dismissed pair again) and `restoreTransaction` puts back
 * what applying changed on its matched transaction. Refused while refunds are applied: money went back.
 */
export function undoAppliedPayments(w: Writer, invoiceId: string, restoreTransaction: (row: PaymentRow) => void): number {
  const rows = appliedPayments(w.db, w.teamId, [invoiceId]).get(invoiceId) ?? [];
  if (rows.some((r) => r.kind === 'refund')) {
    throw new Conflict('The invoice has refunds: it cannot be reopened', 'A refunded payment stays paid');
  }
  for (const row of rows) dismissApplied(w, row, restoreTransaction);
  return rows.length;
}

/** Stops an applied row from counting (dismissed, or bounced with its reason) and restores its transaction. */
export function dismissApplied(
  w: Writer,
  row: PaymentRow,
  restoreTransaction: (row: PaymentRow) => void,
  bounce?: { reason: string },
): void {
  restoreTransaction(row);
  w.update('invoice_payment', row.id, {
    state: bounce ? 'bounced' : 'dismissed',
    failure_reason: bounce?.reason ?? null,
    restore_invoice: null,
    restore_transaction: null,
  });
}
