import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { machineNow } from '../clock';
import type { Db } from '../store/db';
import type { BlobStore } from '../store/files/stored-files';

/**
 * Content-addressed blobs in the data dir (docs/decisions/0082-document-storage.md): `files/<sha256[0:2]>/<sha256>`.
 * The same bytes are stored once, whoever uploads them. A blob is written and removed only inside the database
 * transaction that adds its first reference or drops its last (the write lock serializes them), so an upload racing
 * a delete of the same content can never leave a row without its file:
 * - `ensureBlob` (inside the transaction) writes the file unless it exists: temporary name, fsync, rename;
 * - `trashBlob` (inside the transaction) renames it into `files/.trash/`; after the commit `emptyTrash` deletes it,
 *   and a rollback puts it back (`restoreBlob`).
 * A crash between the steps leaves at worst an unreferenced file, which `sweepOrphans` removes later.
 */
export const FILES_DIR = 'files';
const TRASH = '.trash';

/** The data dir a database lives in (the server is given the database; its files live beside it). */
export function dataDirOf(db: Db): string {
  return path.dirname(db.name);
}

export function sha256(bytes: Uint8Array): string {
  return crypto.createHash('sha256').update(bytes).digest('hex');
}

export function blobPath(dataDir: string, sha: string): string {
  if (!/^[0-9a-f]{64}$/.test(sha)) throw new Error(`not a sha256: ${sha}`);
  return path.join(dataDir, FILES_DIR, sha.slice(0, 2), sha);
}

export function ensureBlob(dataDir: string, sha: string, bytes: Uint8Array): void {
  const target = blobPath(dataDir, sha);
  if (fs.existsSync(target)) return;
  // Private whatever the umask: the shard folders 0700, the files 0600 (every team's documents are here).
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  const tmp = `${target}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  const fd = fs.openSync(tmp, 'w', 0o600);
  try {
    fs.writeSync(fd, bytes);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, target);
}

export function readBlob(dataDir: string, sha: string): Buffer {
  return fs.readFileSync(blobPath(dataDir, sha));
}

export function blobExists(dataDir: string, sha: string): boolean {
  return fs.existsSync(blobPath(dataDir, sha));
}

/** Moves the blob out of the way (inside the transaction dropping its last reference); returns the trash path. */
export function trashBlob(dataDir: string, sha: string): string | undefined {
  const from = blobPath(dataDir, sha);
  if (!fs.existsSync(from)) return undefined;
  const dir = path.join(dataDir, FILES_DIR, TRASH);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const to = path.join(dir, `${sha}.${crypto.randomBytes(4).toString('hex')}`);
  fs.renameSync(from, to);
  return to;
}

export function restoreBlob(dataDir: string, sha: string, trashed: string): void {
  const to = blobPath(dataDir, sha);
  if (!fs.existsSync(to)) fs.renameSync(trashed, to);
  else fs.rmSync(trashed, { force: true });
}

export function emptyTrash(trashed: readonly string[]): void {
  for (const t of trashed) fs.rmSync(t, { force: true });
}

/**
 * Removes what a crash may leave: trash, temporary files, and blobs no stored_files row names. Only files older
 * than `graceMs` (an upload writes its blob just before it commits its row).
 */
export function sweepOrphans(
  dataDir: string,
  isKnown: (sha: string) => boolean,
  graceMs = 3_600_000,
  now = machineNow(),
): number {
  const root = path.join(dataDir, FILES_DIR);
  if (!fs.existsSync(root)) return 0;
  let removed = 0;
  for (const dir of fs.readdirSync(root)) {
    const full = path.join(root, dir);
    if (!fs.statSync(full).isDirectory()) continue;
    for (const name of fs.readdirSync(full)) {
      const file = path.join(full, name);
      const old = now - fs.statSync(file).mtimeMs > graceMs;
      if (!old) continue;
      if (dir === TRASH || name.endsWith('.tmp') || !isKnown(name)) {
        fs.rmSync(file, { force: true });
        removed++;
      }
    }
  }
  return removed;
}

/** The file operations the store runs inside its transactions, for one data dir. */
export function blobStore(dataDir: string): BlobStore {
  return {
    ensure: (sha, bytes) => ensureBlob(dataDir, sha, bytes),
    trash: (sha) => trashBlob(dataDir, sha),
    restore: (sha, trashed) => restoreBlob(dataDir, sha, trashed),
    empty: (trashed) => emptyTrash(trashed),
  };
}
