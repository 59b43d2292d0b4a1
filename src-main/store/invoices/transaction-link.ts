import type { Transaction } from '../../../src-shared/contract/transactions';
import type { Db } from '../db';
import { getTransaction } from '../transactions/read';
import { updateTransaction } from '../transactions/update';
import type { PaymentRow } from './payment-links';

/**
 * What paying an invoice with a transaction changes on the transaction, and how unmatching puts it back — through
 * the ledger's store functions only. The transaction is marked fulfilled (status completed: the invoice documents
 * it, so it needs no receipt) unless it already was, or a bank statement reconciliation locks its status; what was
 * changed is recorded on the payment row (`restore_transaction`) and undone on unmatch, only while the transaction
 * still shows what we set (a person's later change wins).
 */

interface Restore {
  changed: boolean;
  status?: string;
}

/** Marks the transaction fulfilled if it is not; returns the restore note for the payment row. */
export function markTransactionPaid(db: Db, teamId: string, t: Transaction): string {
  if (t.isFulfilled || t.reconciledAt || ['exported', 'excluded', 'archived'].includes(t.status)) {
    return JSON.stringify({ changed: false } satisfies Restore);
  }
  updateTransaction(db, teamId, t.id, { fulfilled: true }, { source: 'system' });
  return JSON.stringify({ changed: true, status: t.status } satisfies Restore);
}

/** For unmatching: puts the transaction of an applied payment back as it was before the match. */
export function restoreMatchedTransaction(db: Db, teamId: string): (row: PaymentRow) => void {
  return (row) => {
    if (!row.transaction_id || !row.restore_transaction) return;
    const note = JSON.parse(row.restore_transaction) as Restore;
    if (!note.changed || !note.status) return;
    let t: Transaction;
    try {
      t = getTransaction(db, teamId, row.transaction_id);
    } catch {
      return; // deleted meanwhile: nothing to restore
    }
    if (t.status !== 'completed' || t.reconciledAt) return;
    updateTransaction(db, teamId, t.id, { status: note.status }, { source: 'system' });
  };
}
