import type { ParsedRow } from '../../../src-shared/domain/import/types';
import type { Db } from '../db';
import type { LedgerWrite } from '../ledger/derived-data';
import { createTransactions, type NewTransaction } from '../transactions/create';
import { deleteTransactions } from '../transactions/delete';
import { updateTransaction, updateTransactions } from '../transactions/update';

/**
 * What an import does to the ledger, one row at a time, always through the transactions store (docs/decisions/0064):
 * create a bank row, link a bank row into a hand-entered transaction, undo either. Used by the commit, the review
 * queue, unlink and undo, so each path does it the same way.
 */

/** The bank row as an import batch or a review item keeps it (enough to create it later, exactly). */
export interface HeldRow {
  date: string;
  valueDate: string | null;
  amountMinor: number;
  currency: string;
  name: string;
  description: string | null;
  counterparty: string | null;
  externalId: string | null;
  fingerprint: string;
  status: 'posted' | 'pending';
  line: number;
  details: Record<string, unknown>;
}

export function heldRow(r: ParsedRow, fingerprint: string): HeldRow {
  return {
    date: r.date,
    valueDate: r.valueDate,
    amountMinor: r.amountMinor,
    currency: r.currency,
    name: r.name,
    description: r.description,
    counterparty: r.counterparty,
    externalId: r.externalId,
    fingerprint,
    status: r.status,
    line: r.line,
    details: r.details,
  };
}

export function newBankTransaction(accountId: string, batchId: string, r: HeldRow, format: string): NewTransaction {
  const metadata: Record<string, unknown> = { import: { batchId, format, line: r.line } };
  if (Object.keys(r.details).length) metadata.bank = r.details;
  if (r.valueDate && r.valueDate !== r.date) metadata.valueDate = r.valueDate;
  return {
    bankAccountId: accountId,
    name: r.name,
    amountMinor: r.amountMinor,
    currency: r.currency,
    date: r.date,
    manual: false,
    status: r.status,
    description: r.description,
    counterpartyName: r.counterparty,
    metadata,
    extra: { external_id: r.externalId, fingerprint: r.fingerprint, import_batch_id: batchId },
  };
}

/** Creates bank rows (one ledger call for all of them). */
export function createBankRows(
  db: Db,
  teamId: string,
  accountId: string,
  batchId: string,
  rows: readonly HeldRow[],
  format: string,
): string[] {
  if (rows.length === 0) return [];
  return createTransactions(
    db,
    teamId,
    rows.map((r) => newBankTransaction(accountId, batchId, r, format)),
    { source: 'import', sourceId: batchId },
  );
}

/** What a link changed on the hand-entered transaction, to put back on unlink or undo. */
export interface LinkSnapshot {
  date: string;
  description: string | null;
  status: string;
  manual: number | null;
  externalId: string | null;
  fingerprint: string | null;
  importBatchId: string | null;
}

interface ManualRow {
  id: string;
  date: string;
  description: string | null;
  status: string;
  manual: number | null;
  external_id: string | null;
  fingerprint: string | null;
  import_batch_id: string | null;
  reconciled_at: string | null;
}

function readManual(db: Db, teamId: string, id: string): ManualRow | undefined {
  return db
    .prepare(
      `SELECT id, date, description, status, manual, external_id, fingerprint, import_batch_id, reconciled_at
       FROM transactions WHERE team_id = ? AND id = ?`,
    )
    .get(teamId, id) as ManualRow | undefined;
}

/**
 * Links a bank row into a hand-entered transaction: the bank supplies its id, booking date, status (a pending or
 * posted one only: a person's completed/exported stays) and description; the person's category, note, tags, splits
 * and review state stay, and any field a person set is skipped (respectLocks). The row becomes a bank line.
 */
export function linkBankRow(db: Db, teamId: string, transactionId: string, batchId: string, r: HeldRow): LinkSnapshot {
  const before = readManual(db, teamId, transactionId);
  if (!before) throw new Error(`transaction ${transactionId} vanished during the import`);
  const snapshot: LinkSnapshot = {
    date: before.date,
    description: before.description,
    status: before.status,
    manual: before.manual,
    externalId: before.external_id,
    fingerprint: before.fingerprint,
    importBatchId: before.import_batch_id,
  };
  updateTransaction(
    db,
    teamId,
    transactionId,
    {
      date: r.date,
      description: r.description ?? before.description,
      ...(before.status === 'pending' || before.status === 'posted' ? { status: r.status } : {}),
      extra: { external_id: r.externalId, fingerprint: r.fingerprint, import_batch_id: batchId, manual: 0 },
    },
    { source: 'import', sourceId: batchId, respectLocks: true },
  );
  return snapshot;
}

/** Puts a linked transaction back as it was before the link (its person-set fields were never touched). */
export function restoreLinked(db: Db, teamId: string, transactionId: string, s: LinkSnapshot, sourceId: string): void {
  updateTransaction(
    db,
    teamId,
    transactionId,
    {
      date: s.date,
      description: s.description,
      status: s.status,
      extra: { external_id: s.externalId, fingerprint: s.fingerprint, import_batch_id: s.importBatchId, manual: s.manual },
    },
    { source: 'import', sourceId },
  );
}

/** Reconciled rows among `ids`: an undo that would touch them is refused. */
export function reconciledAmong(db: Db, teamId: string, ids: readonly string[]): { id: string; date: string; name: string }[] {
  const out: { id: string; date: string; name: string }[] = [];
  const stmt = db.prepare('SELECT id, date, name FROM transactions WHERE team_id = ? AND id = ? AND reconciled_at IS NOT NULL');
  for (const id of ids) {
    const r = stmt.get(teamId, id) as { id: string; date: string; name: string } | undefined;
    if (r) out.push(r);
  }
  return out;
}

/**
 * Removes bank rows an import created. The ledger deletes only manual transactions (a bank line is excluded
 * instead), so the rows are first marked manual in the same write: an undone import leaves nothing behind.
 */
export function removeBankRows(db: Db, teamId: string, ids: readonly string[]): void {
  if (ids.length === 0) return;
  updateTransactions(db, teamId, ids, { extra: { manual: 1 } }, { source: 'import' });
  deleteTransactions(db, teamId, ids, { source: 'import' });
}

export type { LedgerWrite };
