import type { Db } from './db';
import type { PaymentRow } from './invoice-payment-links';

/**
 * What applying a matched payment changes on the ledger's transaction, and how unmatching puts it back — through
 * the ledger's store functions only. NOT WIRED YET: the ledger (src-main/store/transactions.ts) is being built;
 * until it lands, applying a match changes nothing on the transaction, so there is nothing to restore.
 */
export function restoreMatchedTransaction(_db: Db, _teamId: string): (row: PaymentRow) => void {
  return () => {};
}
