/**
 * A customer's activity, newest first: when the record was made and changed, and what happened to its invoices
 * (issued, e-mailed, reminded, paid, canceled, refunded) as far as the invoices loaded tell. Pure, tested in Node.
 */
import type { Customer } from '../../../src-shared/contract/customers';
import type { Invoice } from '../../../src-shared/contract/invoices';

export type ActivityKind = 'created' | 'issued' | 'sent' | 'reminded' | 'paid' | 'canceled' | 'refunded';

export interface ActivityEvent {
  /** A day or an instant. */
  at: string;
  kind: ActivityKind;
  invoice?: Pick<Invoice, 'id' | 'invoiceNumber' | 'amount' | 'currency'>;
}

/** Sorts days and instants together: a day counts as its start. */
const instant = (at: string) => (at.length === 10 ? `${at}T00:00:00.000Z` : new Date(at).toISOString());

export function activityOf(customer: Pick<Customer, 'createdAt'>, invoices: readonly Invoice[], limit = 12): ActivityEvent[] {
  const events: ActivityEvent[] = [{ at: customer.createdAt, kind: 'created' }];
  for (const inv of invoices) {
    const invoice = { id: inv.id, invoiceNumber: inv.invoiceNumber, amount: inv.amount, currency: inv.currency };
    if (inv.status !== 'draft' && !(inv.status === 'canceled' && !inv.sentAt))
      events.push({ at: inv.issueDate, kind: 'issued', invoice });
    if (inv.sentAt) events.push({ at: inv.sentAt, kind: 'sent', invoice });
    if (inv.reminderSentAt) events.push({ at: inv.reminderSentAt, kind: 'reminded', invoice });
    if (inv.paidAt) events.push({ at: inv.paidAt, kind: 'paid', invoice });
    if (inv.canceledAt) events.push({ at: inv.canceledAt, kind: 'canceled', invoice });
    if (inv.refundedAt) events.push({ at: inv.refundedAt, kind: 'refunded', invoice });
  }
  return events.sort((a, b) => instant(b.at).localeCompare(instant(a.at))).slice(0, limit);
}
