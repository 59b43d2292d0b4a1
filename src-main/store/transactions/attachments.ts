import type { Db } from '../db';
import { NotFound } from '../errors';
import { newId } from '../ids';
import { type LedgerWrite, ledgerWrite } from '../ledger/derived-data';
import { originOf, recordSources, type WriteSource } from './field-sources';
import { getRow, type TransactionRow } from './row';

/** Files attached to a transaction (receipts): attaching or removing one re-derives its review state. */

export function attachmentCount(db: Db, teamId: string, id: string): number {
  return db
    .prepare('SELECT count(*) FROM transaction_attachments WHERE team_id = ? AND transaction_id = ?')
    .pluck()
    .get(teamId, id) as number;
}

export interface AttachmentInput {
  sha256: string;
  filename: string | null;
  size: number;
  mimeType: string;
  /** The document or inbox item the file came from. */
  sourceId?: string | null;
}

/** Attaches a stored file (by its sha256 in the data dir's file store) to a transaction; returns the attachment id. */
export function attachToTransaction(
  db: Db,
  teamId: string,
  transactionId: string,
  file: AttachmentInput,
  source: WriteSource = { source: 'user' },
): string {
  return ledgerWrite(
    db,
    teamId,
    (lw) => {
      const row = getRow(db, teamId, transactionId);
      if (!row) throw new NotFound('transaction', transactionId);
      const id = newId();
      db.prepare(
        `INSERT INTO transaction_attachments (id, team_id, transaction_id, sha256, filename, size, mime_type, source_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(id, teamId, transactionId, file.sha256, file.filename, file.size, file.mimeType, file.sourceId ?? null, lw.w.now);
      refreshReview(lw, row);
      recordSources(lw, transactionId, ['attachments'], source);
      return id;
    },
    { origin: originOf(source) },
  );
}

/** Removes an attachment; returns its file's sha256 (the caller drops the file when nothing else references it). */
export function detachFromTransaction(db: Db, teamId: string, transactionId: string, attachmentId: string): string {
  return ledgerWrite(db, teamId, (lw) => {
    const row = getRow(db, teamId, transactionId);
    if (!row) throw new NotFound('transaction', transactionId);
    const att = db
      .prepare('SELECT sha256 FROM transaction_attachments WHERE team_id = ? AND transaction_id = ? AND id = ?')
      .pluck()
      .get(teamId, transactionId, attachmentId) as string | undefined;
    if (!att) throw new NotFound('attachment', attachmentId);
    db.prepare('DELETE FROM transaction_attachments WHERE team_id = ? AND id = ?').run(teamId, attachmentId);
    refreshReview(lw, row);
    return att;
  });
}

/** Re-derives fulfilment and review state after the attachments changed; records the change. */
function refreshReview(lw: LedgerWrite, row: TransactionRow): void {
  const review = lw.review({ ...row, attachments: attachmentCount(lw.db, lw.teamId, row.id) });
  if (!lw.w.update('transaction', row.id, review)) lw.w.touch('transaction', row.id);
}

/** An attachment's stored file, for a download link; NotFound when the attachment (or its transaction) is gone. */
export function attachmentFile(
  db: Db,
  teamId: string,
  attachmentId: string,
  transactionId?: string,
): { sha256: string; mimetype: string; fileName: string } {
  const row = db
    .prepare(
      `SELECT sha256, mime_type, filename FROM transaction_attachments
        WHERE team_id = ? AND id = ? AND (? IS NULL OR transaction_id = ?)`,
    )
    .get(teamId, attachmentId, transactionId ?? null, transactionId ?? null) as
    | { sha256: string; mime_type: string; filename: string | null }
    | undefined;
  if (!row) throw new NotFound('attachment', attachmentId);
  return { sha256: row.sha256, mimetype: row.mime_type, fileName: row.filename ?? row.sha256 };
}
