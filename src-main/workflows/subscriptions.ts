import { subscribe } from '../store/events';
import { enqueueTriggeredRuns } from './triggers';

/**
 * Starts the workflows that declare `invoice_overdue` when an invoice turns overdue, inside the write that moves it
 * (the scheduler at the due date, or issuing an invoice whose due date has passed): a crash can never leave an
 * overdue invoice whose trigger was lost, nor a trigger for a move that rolled back. The key names the invoice and
 * its due date: the same overdue spell starts each workflow once; a new due date (the terms changed, it was paid and
 * reopened later) may start it again. A move pulled from a sync remote starts nothing: the replica where it happened
 * started its workflows.
 */
export function subscribeWorkflowTriggers(): () => void {
  return subscribe('invoice.overdue', (w, event) => {
    if (w.origin === 'sync') return;
    enqueueTriggeredRuns(
      w.db,
      w.teamId,
      'invoice_overdue',
      { invoiceId: event.invoiceId },
      { idempotencyKey: `invoice_overdue:${event.invoiceId}:${event.dueDate}` },
    );
  });
}
