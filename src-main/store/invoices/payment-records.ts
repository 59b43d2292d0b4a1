import type { InvoicePayment, InvoicePaymentCreate } from '../../../src-shared/contract/invoice-payments';
import { dayIn } from '../../../src-shared/domain/invoice-dates';
import { refundableMinor, dueMinor as stillDue } from '../../../src-shared/domain/invoice-settlement';
import type { Db } from '../db';
import { Conflict, InvalidReference } from '../errors';
import { publish } from '../events';
import { minorOf } from '../money-input';
import { createNotification } from '../notifications/notifications';
import { write } from '../write';
import { applyTransactionPayment, checkRecordable, checkTakeBack, invoiceFor, paymentRow } from './matching';
import { dismissApplied, recordManualPayment, settlementOf } from './payment-links';
import { getInvoicePayment } from './payments';
import { invoiceTimeZone } from './read';
import { settleInvoice } from './settlement';
import { restoreMatchedTransaction } from './transaction-link';

/**
 * Payments and refunds a person records (docs/decisions/0147-partial-payments.md): with a transaction of the ledger
 * (./matching.ts applies it), or by hand — an amount (default: all that is still due, or all that can be refunded)
 * on a day (default: today in the invoice's time zone). Several payments add up to paying the invoice. A payment
 * that bounced (the money came back: a returned debit, a chargeback) stops counting and says why; it is the
 * product's `payment_failed` fact, published for the workflows that declare it.
 */

export function recordInvoicePayment(db: Db, teamId: string, input: InvoicePaymentCreate, now = new Date()): InvoicePayment {
  const kind = input.kind ?? 'payment';
  if (input.transactionId) {
    if (input.amount !== undefined || input.date !== undefined) {
      throw new InvalidReference('amount', 'amount and date come from the transaction: give either a transactionId or them');
    }
    return applyTransactionPayment(db, teamId, { invoiceId: input.invoiceId, transactionId: input.transactionId, kind }, now);
  }
  const id = write(db, teamId, (w) => {
    const inv = invoiceFor(db, teamId, input.invoiceId);
    const settlement = settlementOf(db, teamId, inv);
    const amountMinor =
      input.amount === undefined
        ? kind === 'payment'
          ? stillDue(settlement)
          : refundableMinor(settlement)
        : minorOf(input.amount, inv.currency, 'amount', 'named');
    checkRecordable(db, teamId, inv, kind, amountMinor);
    const paidOn = input.date ?? dayIn(now, invoiceTimeZone(inv));
    const paymentId = recordManualPayment(w, inv, { kind, amountMinor, paidOn });
    settleInvoice(w, inv.id, now, paidOn);
    return paymentId;
  });
  return getInvoicePayment(db, teamId, id);
}

/**
 * POST /v1/invoice-payments/{id}/bounce: an applied payment whose money came back. It stops counting (a paid invoice
 * it covered reopens), its transaction goes back to how it was, and `payment.failed` is published in the same write.
 */
export function bounceInvoicePayment(db: Db, teamId: string, id: string, reason: string, now = new Date()): InvoicePayment {
  write(db, teamId, (w) => {
    const row = paymentRow(db, teamId, id);
    if (row.state !== 'applied' || row.kind !== 'payment') {
      throw new Conflict(
        `The payment is ${row.state === 'applied' ? 'a refund' : row.state}: only an applied payment can bounce`,
      );
    }
    const inv = invoiceFor(db, teamId, row.invoice_id);
    checkTakeBack(db, teamId, inv, row);
    dismissApplied(w, row, restoreMatchedTransaction(db, teamId), { reason });
    settleInvoice(w, inv.id, now);
    paymentFailed(w, {
      invoiceId: inv.id,
      invoiceNumber: inv.invoice_number,
      paymentId: id,
      transactionId: row.transaction_id,
      reason,
    });
  });
  return getInvoicePayment(db, teamId, id);
}

/**
 * A payment of the invoice failed before any money moved (a payment intent the provider refused): the team is told
 * and `payment.failed` is published. Returns the notification's id.
 */
export function recordPaymentIntentFailure(db: Db, teamId: string, invoiceId: string, reason: string): string {
  return write(db, teamId, (w) => {
    const inv = invoiceFor(db, teamId, invoiceId);
    return paymentFailed(w, { invoiceId, invoiceNumber: inv.invoice_number, paymentId: null, transactionId: null, reason });
  });
}

function paymentFailed(
  w: Parameters<typeof publish>[0],
  fact: { invoiceId: string; invoiceNumber: string; paymentId: string | null; transactionId: string | null; reason: string },
): string {
  const note = createNotification(w.db, w.teamId, {
    type: 'payment_failed',
    priority: 2,
    metadata: { invoiceId: fact.invoiceId, invoiceNumber: fact.invoiceNumber, paymentId: fact.paymentId, reason: fact.reason },
  });
  publish(w, 'payment.failed', {
    failureId: fact.paymentId ?? note.id,
    invoiceId: fact.invoiceId,
    paymentId: fact.paymentId,
    transactionId: fact.transactionId,
    reason: fact.reason,
  });
  return note.id;
}
