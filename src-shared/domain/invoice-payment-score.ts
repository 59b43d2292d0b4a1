import { dayIn } from './invoice-dates';

/**
 * The on-time payment score of a team (docs/decisions/0075-invoice-summary-and-payment-score.md). Pure: the store
 * reads the facts (the invoices paid within the window, the count overdue now) and this turns them into the score.
 *
 * Of the invoices paid (or paid, then refunded) in the last PAYMENT_SCORE_WINDOW_DAYS days plus those overdue now,
 * the share paid by their due date in the invoice's own time zone, 0–100: good from 80, average from 50, bad below,
 * none without any such invoice (a team without history gets no made-up 100).
 */

export const PAYMENT_SCORE_WINDOW_DAYS = 365;

export type PaymentRating = 'good' | 'average' | 'bad' | 'none';

/** An invoice paid within the window: its due date, when it was paid (an instant), its time zone. */
export interface PaidInvoice {
  dueDate: string;
  paidAt: string;
  timeZone: string;
}

export interface PaymentScore {
  score: number | null;
  paymentStatus: PaymentRating;
  paidOnTime: number;
  paidLate: number;
  overdue: number;
  windowDays: number;
}

/** The first instant of the window ending at `now` (ISO, as paid_at is stored). */
export function paymentScoreSince(now: Date): string {
  return new Date(now.getTime() - PAYMENT_SCORE_WINDOW_DAYS * 86_400_000).toISOString();
}

export function paymentRating(score: number | null): PaymentRating {
  if (score === null) return 'none';
  return score >= 80 ? 'good' : score >= 50 ? 'average' : 'bad';
}

/** The score of the invoices paid within the window and the count of those overdue now (they count as late). */
export function paymentScore(paid: readonly PaidInvoice[], overdue: number): PaymentScore {
  let paidOnTime = 0;
  let paidLate = 0;
  for (const p of paid) {
    if (dayIn(new Date(p.paidAt), p.timeZone) <= p.dueDate) paidOnTime++;
    else paidLate++;
  }
  const total = paidOnTime + paidLate + overdue;
  const score = total === 0 ? null : Math.round((100 * paidOnTime) / total);
  return { score, paymentStatus: paymentRating(score), paidOnTime, paidLate, overdue, windowDays: PAYMENT_SCORE_WINDOW_DAYS };
}
