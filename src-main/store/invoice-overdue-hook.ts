import type { Db } from './db';

/**
 * Called inside the write that moves an invoice to overdue (by the scheduler, or by issuing an invoice whose due
 * date has passed), so the workflows engine's `invoice_overdue` trigger is enqueued in the same transaction: a
 * crash can never leave an overdue invoice whose trigger was lost, nor a trigger for a move that rolled back.
 *
 * NOT WIRED YET: src-main/workflows/triggers.ts (`enqueueTriggeredRuns`) is being built by the workflows work; when
 * it lands this calls `enqueueTriggeredRuns(db, teamId, 'invoice_overdue', { invoiceId })`. Until then the moves
 * are recorded in `overdueMovesSeen` for tests and status lines.
 */
export function invoiceBecameOverdue(_db: Db, teamId: string, invoiceId: string): void {
  overdueMovesSeen.push({ teamId, invoiceId });
  if (overdueMovesSeen.length > 1000) overdueMovesSeen.splice(0, overdueMovesSeen.length - 1000);
}

/** The latest overdue moves this process made (bounded), newest last. */
export const overdueMovesSeen: { teamId: string; invoiceId: string }[] = [];
