import type { Db } from '../db';
import { Conflict } from '../errors';
import type { Writer } from '../write';

/**
 * Records outside the ledger that hold a transaction by its id: an invoice whose applied payment it is, and a
 * receipt of the inbox matched to it. Neither has a foreign key (a payment may be recorded by hand, an inbox item
 * exists before it is matched), so the ledger asks here before a transaction row goes for good: removing it would
 * leave a paid invoice whose payment no longer exists, or a done receipt attached to nothing. The removal is refused
 * instead, naming each holder and how to release it, exactly as a reconciled transaction refuses. Suggestions only
 * (a suggested payment) hold nothing: they go with the transaction.
 */
export interface TransactionHolder {
  transactionId: string;
  /** "invoice INV-0042" or "inbox item receipt.pdf". */
  holder: string;
  release: string;
}

const MAX_NAMED = 5;

export function holdersOf(db: Db, teamId: string, transactionIds: readonly string[]): TransactionHolder[] {
  if (transactionIds.length === 0) return [];
  const ids = JSON.stringify(transactionIds);
  const payments = db
    .prepare(
      `SELECT p.id, p.transaction_id, i.invoice_number
       FROM json_each(?) AS wanted
       JOIN invoice_payments p ON p.team_id = ? AND p.transaction_id = wanted.value AND p.state = 'applied'
       LEFT JOIN invoices i ON i.team_id = p.team_id AND i.id = p.invoice_id
       ORDER BY p.transaction_id`,
    )
    .all(ids, teamId) as { id: string; transaction_id: string; invoice_number: string | null }[];
  const receipts = db
    .prepare(
      `SELECT b.id, b.transaction_id, coalesce(b.display_name, b.file_name) AS name
       FROM json_each(?) AS wanted
       JOIN inbox_items b ON b.team_id = ? AND b.transaction_id = wanted.value AND b.status = 'done'
       ORDER BY b.transaction_id`,
    )
    .all(ids, teamId) as { id: string; transaction_id: string; name: string }[];
  return [
    ...payments.map((p) => ({
      transactionId: p.transaction_id,
      holder: `invoice ${p.invoice_number ?? p.id}`,
      release: `DELETE /v1/invoice-payments/${p.id}`,
    })),
    ...receipts.map((r) => ({
      transactionId: r.transaction_id,
      holder: `inbox item ${r.name}`,
      release: `POST /v1/inbox/${r.id}/unmatch`,
    })),
  ];
}

/** Throws Conflict when any of the transactions is held (see the module header); call inside the removing write. */
export function refuseIfHeld(db: Db, teamId: string, transactionIds: readonly string[]): void {
  const held = holdersOf(db, teamId, transactionIds);
  if (held.length === 0) return;
  const named = held
    .slice(0, MAX_NAMED)
    .map((h) => `transaction ${h.transactionId} is held by ${h.holder} (release: ${h.release})`);
  if (held.length > MAX_NAMED) named.push(`and ${held.length - MAX_NAMED} more`);
  throw new Conflict(
    held.length === 1
      ? 'A transaction to remove is still linked to another record'
      : `${held.length} transactions to remove are still linked to other records`,
    `Unlink first: ${named.join('; ')}`,
  );
}

/** Removes the payment suggestions (open or dismissed) that point at transactions about to be removed. */
export function dropPaymentSuggestions(w: Writer, db: Db, teamId: string, transactionIds: readonly string[]): void {
  if (transactionIds.length === 0) return;
  const ids = db
    .prepare(
      `SELECT p.id FROM json_each(?) AS wanted
       JOIN invoice_payments p ON p.team_id = ? AND p.transaction_id = wanted.value AND p.state IN ('suggested', 'dismissed', 'bounced')`,
    )
    .pluck()
    .all(JSON.stringify(transactionIds), teamId) as string[];
  for (const id of ids) w.remove('invoice_payment', id);
}
