import { enqueueTriggeredRuns } from '../workflows/triggers';
import type { Db } from './db';

/**
 * Called inside the write that moves an invoice to overdue (the scheduler at the due date, or issuing an invoice
 * whose due date has passed), so the workflows' `invoice_overdue` trigger is enqueued in the same transaction: a
 * crash can never leave an overdue invoice whose trigger was lost, nor a trigger for a move that rolled back. The key
 * names the invoice and its due date: the same overdue spell starts each workflow once; a new due date (the terms
 * changed, it was paid and reopened later) may start it again.
 */
export function invoiceBecameOverdue(db: Db, teamId: string, invoiceId: string, dueDate: string): void {
  enqueueTriggeredRuns(
    db,
    teamId,
    'invoice_overdue',
    { invoiceId },
    { idempotencyKey: `invoice_overdue:${invoiceId}:${dueDate}` },
  );
}
