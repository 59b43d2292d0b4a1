import type { Db } from '../db';
import { InvalidReference, NotFound } from '../errors';
import { type BlobStore, isStoredFile, putStoredFile, releaseIfUnreferenced, withBlobCleanup } from '../files/stored-files';
import { type LedgerWrite, ledgerWrite } from '../ledger/derived-data';
import { write } from '../write';
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
  /** A chosen id (a sync replica's). */
  id?: string;
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
      const id = lw.w.insert('transaction_attachment', {
        id: file.id,
        transaction_id: transactionId,
        sha256: file.sha256,
        filename: file.filename,
        size: file.size,
        mime_type: file.mimeType,
        source_id: file.sourceId ?? null,
      });
      refreshReview(lw, row);
      recordSources(lw, transactionId, ['attachments'], source);
      return id;
    },
    { origin: originOf(source) },
  );
}

/**
 * A pulled attachment over content already stored here: the round fetched its file before this write
 * (docs/decisions/0151-document-sync.md). Content that is not stored is refused (the round tries again).
 */
export function attachSyncedFile(
  db: Db,
  teamId: string,
  transactionId: string,
  file: AttachmentInput,
  source: WriteSource,
): string {
  if (!isStoredFile(db, file.sha256)) throw new InvalidReference('sha256', `the file ${file.sha256} is not stored here yet`);
  return attachToTransaction(db, teamId, transactionId, file, source);
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
    lw.w.remove('transaction_attachment', attachmentId);
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
  const a = getAttachment(db, teamId, attachmentId);
  if (transactionId !== undefined && a.transactionId !== transactionId) throw new NotFound('attachment', attachmentId);
  return { sha256: a.sha256, mimetype: a.mimetype, fileName: a.fileName ?? a.sha256 };
}

export interface Attachment {
  id: string;
  transactionId: string;
  sha256: string;
  fileName: string | null;
  size: number;
  mimetype: string;
}

/** One attachment by its own id (the extension routes of docs/decisions/0151-document-sync.md). */
export function getAttachment(db: Db, teamId: string, id: string): Attachment {
  const r = db
    .prepare(
      `SELECT id, transaction_id AS transactionId, sha256, filename AS fileName, size, mime_type AS mimetype
       FROM transaction_attachments WHERE team_id = ? AND id = ?`,
    )
    .get(teamId, id) as Attachment | undefined;
  if (!r) throw new NotFound('attachment', id);
  return r;
}

/** Attaches an uploaded file (stored here first) to a transaction, in one write; answers the attachment. */
export function attachUploadedFile(
  db: Db,
  teamId: string,
  input: {
    id?: string;
    transactionId: string;
    fileName: string | null;
    file: { bytes: Uint8Array; sha256: string; size: number; mimetype: string };
  },
  blobs: BlobStore,
): Attachment {
  const id = write(db, teamId, (w) => {
    putStoredFile(db, input.file, input.file.bytes, blobs, w.now);
    return attachToTransaction(db, teamId, input.transactionId, {
      id: input.id,
      sha256: input.file.sha256,
      filename: input.fileName,
      size: input.file.size,
      mimeType: input.file.mimetype,
    });
  });
  return getAttachment(db, teamId, id);
}

/** Detaches an attachment by its own id; its file goes with the last record holding it. */
export function detachAttachment(db: Db, teamId: string, id: string, blobs: BlobStore): Attachment {
  return withBlobCleanup(blobs, (trashed) =>
    write(db, teamId, () => {
      const a = getAttachment(db, teamId, id);
      detachFromTransaction(db, teamId, a.transactionId, id);
      releaseIfUnreferenced(db, a.sha256, blobs, trashed);
      return a;
    }),
  );
}
