import { subscribe } from '../store/events';
import { enqueueTriggeredRuns } from './triggers';

/**
 * Starts the workflows that declare a trigger the product emits, inside the write where the fact happened (a crash
 * can never leave the fact without its runs, nor runs for a fact that rolled back). A change pulled from a sync
 * remote starts nothing: the replica where it happened started its workflows. Each key names the fact, so one fact
 * starts each workflow once (docs/decisions/0104-workflow-triggers.md, 0149):
 * - `invoice_overdue` when an invoice turns overdue (the scheduler at the due date, or issuing one already past
 *   it); key: the invoice and its due date — a new due date may start it again;
 * - `payment_failed` when an applied payment bounces or the payment provider refuses a payment intent; key: the
 *   failure (the bounced payment, or the refusal's notification);
 * - `customer_segment_entered` when a move of an invoice takes its customer into a segment (first-time, repeat,
 *   recent, unpaid, paid); a trigger naming a `segment` starts only for that one; key: customer, segment, invoice
 *   and the status it moved to.
 */
export function subscribeWorkflowTriggers(): () => void {
  const unsubscribe = [
    subscribe('invoice.overdue', (w, event) => {
      if (w.origin === 'sync') return;
      enqueueTriggeredRuns(
        w.db,
        w.teamId,
        'invoice_overdue',
        { invoiceId: event.invoiceId },
        { idempotencyKey: `invoice_overdue:${event.invoiceId}:${event.dueDate}` },
      );
    }),
    subscribe('payment.failed', (w, event) => {
      if (w.origin === 'sync') return;
      const data: Record<string, unknown> = { invoiceId: event.invoiceId, reason: event.reason };
      if (event.paymentId) data.paymentId = event.paymentId;
      if (event.transactionId) data.transactionId = event.transactionId;
      enqueueTriggeredRuns(w.db, w.teamId, 'payment_failed', data, { idempotencyKey: `payment_failed:${event.failureId}` });
    }),
    subscribe('customer.segment_entered', (w, event) => {
      if (w.origin === 'sync') return;
      enqueueTriggeredRuns(
        w.db,
        w.teamId,
        'customer_segment_entered',
        { customerId: event.customerId, segment: event.segment, invoiceId: event.invoiceId },
        {
          idempotencyKey: `customer_segment_entered:${event.customerId}:${event.segment}:${event.invoiceId}:${event.invoiceStatus}`,
          accepts: (t) => t.type !== 'customer_segment_entered' || t.segment === undefined || t.segment === event.segment,
        },
      );
    }),
  ];
  return () => {
    for (const u of unsubscribe) u();
  };
}
