import type { ScoredCandidate } from '../../../src-shared/domain/import/matching';
import { toMajor } from '../../../src-shared/money';
import type { Db } from '../db';
import { Conflict, InvalidReference, NotFound } from '../errors';
import { listFingerprint } from '../list/cursor';
import { keysetPage } from '../list/keyset';
import { write } from '../write';
import { createBankRows, type HeldRow, type LinkSnapshot, linkBankRow, restoreLinked } from './rows';

/**
 * The review queue (docs/decisions/0064-hand-entered-matching.md): bank rows whose hand-entered match was
 * ambiguous or weak are held out of the ledger — never merged, never lost — until a person links one to the right
 * transaction or creates it as a row of its own. Also unlink: a link the import made is undone, the hand-entered
 * row gets back what it was and the bank row becomes a transaction of its own.
 */
export interface ReviewItem {
  id: string;
  bankAccountId: string;
  batchId: string;
  position: number;
  line: number;
  status: 'open' | 'linked' | 'created';
  date: string;
  amount: number;
  currency: string;
  name: string;
  description: string | null;
  counterparty: string | null;
  candidates: { transactionId: string; score: number; days: number; nameSimilarity: number }[];
  resolvedTransactionId: string | null;
  resolvedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

interface ItemRow {
  id: string;
  bank_account_id: string;
  batch_id: string;
  position: number;
  status: ReviewItem['status'];
  row: string;
  candidates: string;
  resolved_transaction_id: string | null;
  resolved_at: string | null;
  created_at: string;
  updated_at: string;
}

function toItem(r: ItemRow): ReviewItem {
  const row = JSON.parse(r.row) as HeldRow;
  return {
    id: r.id,
    bankAccountId: r.bank_account_id,
    batchId: r.batch_id,
    position: r.position,
    line: row.line,
    status: r.status,
    date: row.date,
    amount: toMajor(row.amountMinor, row.currency),
    currency: row.currency,
    name: row.name,
    description: row.description,
    counterparty: row.counterparty,
    candidates: JSON.parse(r.candidates) as ScoredCandidate[],
    resolvedTransactionId: r.resolved_transaction_id,
    resolvedAt: r.resolved_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function itemRow(db: Db, teamId: string, id: string): ItemRow {
  const r = db.prepare('SELECT * FROM import_review_items WHERE team_id = ? AND id = ?').get(teamId, id) as ItemRow | undefined;
  if (!r) throw new NotFound('review item', id);
  return r;
}

export function getReviewItem(db: Db, teamId: string, id: string): ReviewItem {
  return toItem(itemRow(db, teamId, id));
}

export function listReviewItems(
  db: Db,
  teamId: string,
  q: { bankAccountId?: string; status?: ReviewItem['status']; cursor?: string; pageSize?: number },
) {
  const where = ['r.team_id = @team', 'r.status = @status'];
  if (q.bankAccountId) where.push('r.bank_account_id = @account');
  const status = q.status ?? 'open';
  const page = keysetPage(db, {
    from: 'import_review_items r',
    id: 'r.id',
    where,
    params: { team: teamId, status, account: q.bankAccountId ?? null },
    sort: { sql: 'r.created_at', kind: 'text' },
    direction: 'asc',
    pageSize: q.pageSize ?? 50,
    fingerprint: listFingerprint(['import_review_items', teamId, status, q.bankAccountId ?? null]),
    cursor: q.cursor,
  });
  return {
    data: page.ids.map((id) => getReviewItem(db, teamId, id)),
    meta: { cursor: page.cursor, hasNextPage: page.hasNextPage, hasPreviousPage: page.hasPreviousPage },
  };
}

function setBatchRow(db: Db, teamId: string, batchId: string, position: number, values: Record<string, string | null>): void {
  const cols = Object.keys(values);
  db.prepare(
    `UPDATE import_batch_rows SET ${cols.map((c) => `${c} = @${c}`).join(', ')} WHERE team_id = @team AND batch_id = @batch AND position = @position`,
  ).run({ ...values, team: teamId, batch: batchId, position });
}

function bumpCounts(
  db: Db,
  teamId: string,
  batchId: string,
  w: { update: (e: 'import_batch', id: string, v: Record<string, number>) => boolean },
) {
  const c = db
    .prepare(
      `SELECT sum(outcome = 'created') AS created, sum(outcome = 'linked') AS linked, sum(outcome = 'review') AS review
       FROM import_batch_rows WHERE team_id = ? AND batch_id = ?`,
    )
    .get(teamId, batchId) as { created: number; linked: number; review: number };
  w.update('import_batch', batchId, { created_count: c.created, linked_count: c.linked, review_count: c.review });
}

/** Links a held bank row to one of the team's open hand-entered transactions of the same account and amount. */
export function linkReviewItem(db: Db, teamId: string, id: string, transactionId: string): ReviewItem {
  return write(
    db,
    teamId,
    (w) => {
      const item = itemRow(db, teamId, id);
      if (item.status !== 'open') throw new Conflict(`The review item is already ${item.status}`);
      const row = JSON.parse(item.row) as HeldRow;
      const target = db
        .prepare(
          `SELECT id FROM transactions WHERE team_id = ? AND id = ? AND bank_account_id = ? AND amount_minor = ?
           AND manual = 1 AND external_id IS NULL AND reconciled_at IS NULL`,
        )
        .pluck()
        .get(teamId, transactionId, item.bank_account_id, row.amountMinor);
      if (!target) {
        throw new InvalidReference(
          'transactionId',
          `Transaction ${transactionId} is not an open hand-entered transaction of this account with the amount ${toMajor(row.amountMinor, row.currency)}`,
        );
      }
      const snapshot = linkBankRow(db, teamId, transactionId, item.batch_id, row);
      setBatchRow(db, teamId, item.batch_id, item.position, {
        outcome: 'linked',
        transaction_id: transactionId,
        before: JSON.stringify({ snapshot, row }),
      });
      w.update('import_review_item', id, { status: 'linked', resolved_transaction_id: transactionId, resolved_at: w.now });
      bumpCounts(db, teamId, item.batch_id, w);
      return getReviewItem(db, teamId, id);
    },
    { origin: 'import' },
  );
}

/** Creates the held bank row as a transaction of its own (it was not any of the hand-entered ones). */
export function createFromReviewItem(db: Db, teamId: string, id: string): ReviewItem {
  return write(
    db,
    teamId,
    (w) => {
      const item = itemRow(db, teamId, id);
      if (item.status !== 'open') throw new Conflict(`The review item is already ${item.status}`);
      const row = JSON.parse(item.row) as HeldRow & { format?: string };
      const [txId] = createBankRows(db, teamId, item.bank_account_id, item.batch_id, [row], row.format ?? 'csv');
      setBatchRow(db, teamId, item.batch_id, item.position, { outcome: 'created', transaction_id: txId! });
      w.update('import_review_item', id, { status: 'created', resolved_transaction_id: txId!, resolved_at: w.now });
      bumpCounts(db, teamId, item.batch_id, w);
      return getReviewItem(db, teamId, id);
    },
    { origin: 'import' },
  );
}

/**
 * Unlinks a transaction an import linked: the hand-entered row gets back its date, description, status and
 * hand-entered state; the bank row becomes a transaction of its own. Returns both ids.
 */
export function unlinkImported(db: Db, teamId: string, transactionId: string): { handEnteredId: string; bankRowId: string } {
  return write(
    db,
    teamId,
    (w) => {
      const link = db
        .prepare(
          `SELECT r.batch_id, r.position, r.before, b.bank_account_id, b.format FROM import_batch_rows r
           JOIN import_batches b ON b.id = r.batch_id
           WHERE r.team_id = ? AND r.transaction_id = ? AND r.outcome = 'linked' AND b.status = 'committed'
           ORDER BY b.created_at DESC LIMIT 1`,
        )
        .get(teamId, transactionId) as
        | { batch_id: string; position: number; before: string; bank_account_id: string; format: string }
        | undefined;
      if (!link) throw new NotFound('import link of transaction', transactionId);
      const reconciled = db
        .prepare('SELECT reconciled_at FROM transactions WHERE team_id = ? AND id = ?')
        .pluck()
        .get(teamId, transactionId);
      if (reconciled)
        throw new Conflict('The transaction is reconciled against a bank statement', 'Unreconcile it first, then unlink');
      const { snapshot, row } = JSON.parse(link.before) as { snapshot: LinkSnapshot; row: HeldRow };
      restoreLinked(db, teamId, transactionId, snapshot, link.batch_id);
      const [bankRowId] = createBankRows(db, teamId, link.bank_account_id, link.batch_id, [row], link.format);
      setBatchRow(db, teamId, link.batch_id, link.position, { outcome: 'created', transaction_id: bankRowId!, before: null });
      const item = db
        .prepare("SELECT id FROM import_review_items WHERE team_id = ? AND batch_id = ? AND position = ? AND status = 'linked'")
        .pluck()
        .get(teamId, link.batch_id, link.position) as string | undefined;
      if (item) w.update('import_review_item', item, { status: 'created', resolved_transaction_id: bankRowId! });
      bumpCounts(db, teamId, link.batch_id, w);
      return { handEnteredId: transactionId, bankRowId: bankRowId! };
    },
    { origin: 'import' },
  );
}
