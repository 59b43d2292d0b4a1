import fs from 'node:fs';
import type { Projection } from '../../src-shared/domain/sync/merge';
import { blobPath, blobStore, dataDirOf, ensureBlob, sha256 } from '../infra/blob-store';
import { type BlobStore, isStoredFile, putStoredFile } from '../store/files/stored-files';
import type { Writer } from '../store/write';
import { pathFor } from './capabilities';
import type { RoundContext } from './context';
import { ok, RemoteUnavailable } from './remote-client';

/**
 * The files of pulled documents and receipts (docs/decisions/0151-document-sync.md). A replica never lists a
 * document or an attachment without its bytes: before a page is applied, the file of each such record in it is
 * downloaded (also when the same content is stored here already: having the hash proves nothing) from the remote (`GET /documents/{id}/download`,
 * `GET /transaction-attachments/{id}/download`), checked against its sha256 and written to the data dir's blob
 * store; the page's write then records it, in the same transaction as the record that holds it. A blob written here
 * and not yet recorded is an orphan for an hour at least (storage.ts `sweepOrphans`), longer than any page takes.
 */
const DOWNLOADS: Readonly<Record<string, string>> = {
  document: '/documents/:id/download',
  transaction_attachment: '/transaction-attachments/:id/download',
};

/** Whether records of this entity hold a stored file (by their `sha256`). */
export function holdsFile(entity: string): boolean {
  return Object.hasOwn(DOWNLOADS, entity);
}

export interface FetchedFile {
  sha256: string;
  size: number;
  mimetype: string;
}

interface FileItem {
  entity: string;
  id: string;
  op: 'upsert' | 'delete';
  record: Projection | null;
}

/** Downloads the files this page's records need; returns them and the records gone there meanwhile (entity:id). */
export async function fetchRecordFiles(
  ctx: RoundContext,
  items: readonly FileItem[],
): Promise<{ files: FetchedFile[]; gone: Set<string> }> {
  const dataDir = dataDirOf(ctx.db);
  const files = new Map<string, FetchedFile>();
  const gone = new Set<string>();
  for (const item of items) {
    const download = DOWNLOADS[item.entity];
    if (!download || item.op !== 'upsert' || !item.record) continue;
    const sha = item.record.sha256;
    // Downloaded and checked even when these bytes are stored here already (another team's, perhaps): a remote
    // that only names a hash must not be given the file behind it.
    if (typeof sha !== 'string' || files.has(sha)) continue;
    const path = pathFor(download, item.id);
    const res = await ctx.client.request<Uint8Array>('GET', path, { binary: true });
    if (res.status === 404) {
      // Deleted there since the page was read: its tombstone comes later in the feed.
      gone.add(`${item.entity}:${item.id}`);
      continue;
    }
    if (!ok(res.status) || !(res.body instanceof Uint8Array)) throw new RemoteUnavailable(`GET ${path} answered ${res.status}`);
    if (sha256(res.body) !== sha) {
      throw new RemoteUnavailable(`the file of ${path} arrived damaged (its sha256 differs); the next round tries again`);
    }
    if (!isStoredFile(ctx.db, sha)) ensureBlob(dataDir, sha, res.body);
    files.set(sha, { sha256: sha, size: res.body.length, mimetype: String(item.record.mimetype) });
  }
  return { files: [...files.values()], gone };
}

/** A create's file, base64, for the remote's upload (the file travels in the body with the record). */
export function fileContent(ctx: RoundContext, entity: string, p: Projection): { content?: string } {
  if (!holdsFile(entity) || typeof p.sha256 !== 'string') return {};
  return { content: fs.readFileSync(blobPath(dataDirOf(ctx.db), p.sha256)).toString('base64') };
}

/** Inside the page's write: records the downloaded files (their blobs are on disk already). */
export function recordFetchedFiles(ctx: RoundContext, w: Writer, files: readonly FetchedFile[]): void {
  if (files.length === 0) return;
  const dataDir = dataDirOf(ctx.db);
  const blobs: BlobStore = {
    ...blobStore(dataDir),
    ensure: (sha) => {
      if (!fs.existsSync(blobPath(dataDir, sha)))
        throw new RemoteUnavailable(`the downloaded file ${sha} is gone from the data dir`);
    },
  };
  for (const f of files) putStoredFile(ctx.db, f, new Uint8Array(), blobs, w.now);
}
