import type { InvoiceAction } from './invoice-lifecycle';
import type { InvoiceStatus } from './invoice-status';

/**
 * How an invoice's payments settle it (docs/decisions/0147-partial-payments.md). Pure: the store asks it after
 * every change of an invoice's applied payments and refunds, and before it records one.
 *
 * - Payments add up: an invoice is paid when its applied payments cover its amount (`paidMinor ≥ amountMinor`);
 *   until then it stays unpaid (or overdue) with the rest still due. A payment never exceeds what is still due.
 * - A refund gives money back on a paid invoice. It does not reopen it (money returned by choice is not a debt
 *   coming back): a partial refund leaves it paid, refunds reaching what was paid make it refunded. Money taken back
 *   on an open invoice is not a refund: that payment is unmatched (it did not pay the invoice after all).
 * - A payment that is unmatched or bounced stops counting: a paid invoice it no longer covers reopens.
 */

export interface Settlement {
  status: InvoiceStatus;
  amountMinor: number;
  /** Applied payments. */
  paidMinor: number;
  /** Applied refunds. */
  refundedMinor: number;
}

/** The lifecycle move the payments call for now, or null when the status already fits them. */
export function settlementMove(s: Settlement): InvoiceAction | null {
  if ((s.status === 'unpaid' || s.status === 'overdue') && s.amountMinor > 0 && s.paidMinor >= s.amountMinor) return 'pay';
  if (s.status === 'paid' && s.paidMinor > 0 && s.refundedMinor >= s.paidMinor) return 'refund';
  if (s.status === 'paid' && s.paidMinor < s.amountMinor) return 'reopen';
  return null;
}

/** What is still due: the amount less the payments (refunds do not add to it). */
export function dueMinor(s: Settlement): number {
  if (s.status !== 'unpaid' && s.status !== 'overdue') return 0;
  return Math.max(0, s.amountMinor - s.paidMinor);
}

/** What can still be refunded: the payments less the refunds, on a paid invoice. */
export function refundableMinor(s: Settlement): number {
  return s.status === 'paid' ? Math.max(0, s.paidMinor - s.refundedMinor) : 0;
}

export type PaymentKind = 'payment' | 'refund';

/** Why a payment or refund of `valueMinor` cannot be recorded on the invoice now, or undefined. */
export function recordProblem(
  s: Settlement,
  kind: PaymentKind,
  valueMinor: number,
): { conflict: boolean; message: string } | undefined {
  if (kind === 'payment') {
    if (s.status !== 'unpaid' && s.status !== 'overdue') {
      return { conflict: true, message: `The invoice is ${s.status}: only an unpaid or overdue invoice takes payments` };
    }
    if (valueMinor <= 0) return { conflict: false, message: 'a payment is a positive amount' };
    if (valueMinor > dueMinor(s)) return { conflict: false, message: 'the payment is more than the invoice still has due' };
    return undefined;
  }
  if (s.status !== 'paid') {
    return {
      conflict: true,
      message: `The invoice is ${s.status}: only a paid invoice is refunded (a payment of an open invoice is unmatched instead)`,
    };
  }
  if (valueMinor <= 0) return { conflict: false, message: 'a refund is a positive amount' };
  if (valueMinor > refundableMinor(s))
    return { conflict: false, message: 'the refund is more than was paid and not yet refunded' };
  return undefined;
}
