import type { Db } from '../db';
import type { LedgerRow } from '../ledger/derived-data';

/** A transaction as stored: what the write paths read before they change it. */
export interface TransactionRow extends LedgerRow {
  team_id: string;
  internal_id: string;
  name: string;
  description: string | null;
  method: string;
  balance_minor: number | null;
  base_amount_minor: number | null;
  base_currency: string | null;
  tax_rate: number | null;
  tax_type: string | null;
  counterparty_name: string | null;
  merchant_name: string | null;
  recurring: number | null;
  frequency: string | null;
  note: string | null;
  assigned_id: string | null;
  metadata: string;
  notified: number | null;
  review_state: string;
  created_at: string;
  updated_at: string;
}

export function getRow(db: Db, teamId: string, id: string): TransactionRow | undefined {
  return db.prepare('SELECT * FROM transactions WHERE team_id = ? AND id = ?').get(teamId, id) as TransactionRow | undefined;
}
