import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import * as tar from 'tar-stream';
import { blobPath, FILES_DIR } from '../infra/blob-store';
import {
  forgetInvoicePdfs,
  onlineCopy,
  type SnapshotContents,
  snapshotContents,
  type TableCount,
  vacuumInto,
} from '../store/backups/snapshot';
import { DB_FILE_NAME, type Db } from '../store/db';
import { SERVER_VERSION } from '../version';

/**
 * One backup = one gzipped tar archive of a data dir (docs/decisions/0185-backups.md):
 *
 *   finops-backup.json          the manifest, first: format, app and schema version, when, whether secrets are in,
 *                               every table's row count and every other entry's size and sha256
 *   finops.sqlite               a consistent copy of the database (snapshot.ts)
 *   files/<sha[0:2]>/<sha>      every stored document the copy refers to (content-addressed: name = hash)
 *   invoices/<team>/<id>.pdf    every stored invoice PDF the copy refers to
 *   secrets/<name>.json         only when asked for (SMTP, IMAP, Peppol keys: whoever holds the file holds them)
 *
 * Only the manifest's names are ever written on restore, each to a path built here, never a name read from the
 * archive, so an archive cannot write outside the data dir. The archive is written to a temporary name, fsynced
 * and renamed: a crash mid-backup leaves no file that looks like a backup.
 */

export const MANIFEST_NAME = 'finops-backup.json';
export const ARCHIVE_FORMAT = 1;
export const SECRETS_DIR = 'secrets';
const INVOICES_DIR = 'invoices';

export interface ManifestEntry {
  name: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: number;
  app: string;
  createdAt: string;
  schemaVersion: number;
  secretsIncluded: boolean;
  tables: TableCount[];
  entries: ManifestEntry[];
  /** Invoice PDFs rewritten while the backup ran: left out, their rows dropped from the copy (rendered again). */
  skippedInvoicePdfs: string[];
}

export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

export interface CreateOptions {
  /** An open connection to copy from; without one the data dir's file is opened for the copy. */
  db: Db;
  dataDir: string;
  /** The archive to write (its folder is created). */
  to: string;
  includeSecrets?: boolean;
  /** `online`: the backup API in steps (the server's own connection); `vacuum`: VACUUM INTO (a CLI). */
  mode: 'online' | 'vacuum';
  onProgress?: (phase: 'database' | 'files', done: number, total: number) => void;
  now?: Date;
}

export interface CreatedBackup {
  path: string;
  size: number;
  manifest: Manifest;
}

async function sha256File(file: string): Promise<{ sha256: string; size: number }> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  for await (const chunk of fs.createReadStream(file)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

/** The data dir's file holding a stored blob: its place, or — deleted after the copy was taken — its trashed copy. */
function findBlob(dataDir: string, sha: string): string | undefined {
  const at = blobPath(dataDir, sha);
  if (fs.existsSync(at)) return at;
  const trash = path.join(dataDir, FILES_DIR, '.trash');
  const trashed = fs.existsSync(trash) ? fs.readdirSync(trash).find((n) => n.startsWith(`${sha}.`)) : undefined;
  return trashed ? path.join(trash, trashed) : undefined;
}

function secretFiles(dataDir: string): string[] {
  const dir = path.join(dataDir, SECRETS_DIR);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((n) => /^[a-z0-9-]+\.json$/.test(n))
    .sort();
}

/** Writes one archive of the data dir; see the module header. */
export async function createBackup(options: CreateOptions): Promise<CreatedBackup> {
  const target = path.resolve(options.to);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const stage = fs.mkdtempSync(path.join(path.dirname(target), '.finops-backup-'));
  const tmp = `${target}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  try {
    const copy = path.join(stage, DB_FILE_NAME);
    if (options.mode === 'vacuum') vacuumInto(options.db, copy);
    else await onlineCopy(options.db, copy, (done, total) => options.onProgress?.('database', done, total));
    let contents: SnapshotContents = snapshotContents(copy);
    if (contents.integrity !== 'ok') throw new BackupError(`the database copy failed its integrity check: ${contents.integrity}`);

    // Everything the copy refers to, hashed before the manifest is written (it goes first in the archive).
    const sources = new Map<string, string>();
    const entries: ManifestEntry[] = [];
    for (const sha of contents.blobs) {
      const file = findBlob(options.dataDir, sha);
      if (!file) throw new BackupError(`stored file ${sha} is missing from ${path.join(options.dataDir, FILES_DIR)}`);
      const name = `${FILES_DIR}/${sha.slice(0, 2)}/${sha}`;
      sources.set(name, file);
      entries.push({ name, sha256: sha, size: fs.statSync(file).size });
    }
    const skipped: string[] = [];
    for (const pdf of contents.invoicePdfs) {
      const file = path.join(options.dataDir, pdf.path);
      const name = pdf.path.split(path.sep).join('/');
      if (!/^invoices\/[^/]+\/[^/]+\.pdf$/.test(name) || !fs.existsSync(file)) {
        skipped.push(pdf.path);
        continue;
      }
      const { sha256, size } = await sha256File(file);
      if (sha256 !== pdf.sha256) {
        skipped.push(pdf.path);
        continue;
      }
      sources.set(name, file);
      entries.push({ name, sha256, size });
    }
    if (skipped.length) {
      forgetInvoicePdfs(copy, skipped);
      contents = snapshotContents(copy);
    }
    const includeSecrets = options.includeSecrets === true;
    if (includeSecrets) {
      for (const n of secretFiles(options.dataDir)) {
        const file = path.join(options.dataDir, SECRETS_DIR, n);
        const name = `${SECRETS_DIR}/${n}`;
        sources.set(name, file);
        entries.push({ name, ...(await sha256File(file)) });
      }
    }
    const db = await sha256File(copy);
    sources.set(DB_FILE_NAME, copy);
    entries.unshift({ name: DB_FILE_NAME, ...db });
    const manifest: Manifest = {
      format: ARCHIVE_FORMAT,
      app: SERVER_VERSION,
      createdAt: (options.now ?? new Date()).toISOString(),
      schemaVersion: contents.schemaVersion,
      secretsIncluded: includeSecrets,
      tables: contents.tables,
      entries,
      skippedInvoicePdfs: skipped,
    };

    const pack = tar.pack();
    const out = fs.createWriteStream(tmp, { mode: 0o600 });
    const written = pipeline(pack, zlib.createGzip({ level: 6 }), out);
    const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    pack.entry({ name: MANIFEST_NAME, size: manifestBytes.length, mode: 0o600 }, manifestBytes);
    let done = 0;
    for (const entry of entries) {
      const source = sources.get(entry.name) as string;
      await new Promise<void>((resolve, reject) => {
        const sink = pack.entry({ name: entry.name, size: entry.size, mode: 0o600 }, (err) => (err ? reject(err) : resolve()));
        fs.createReadStream(source).on('error', reject).pipe(sink);
      });
      options.onProgress?.('files', ++done, entries.length);
    }
    pack.finalize();
    await written;
    const fd = fs.openSync(tmp, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, target);
    fsyncDir(path.dirname(target));
    return { path: target, size: fs.statSync(target).size, manifest };
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

export function fsyncDir(dir: string): void {
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // Not every platform opens a directory for fsync (Windows): the rename itself is what matters there.
  }
}

/** An entry name the manifest may carry, mapped to where it goes under a folder (never outside it). */
function placeOf(root: string, name: string): string {
  const ok =
    name === DB_FILE_NAME ||
    /^files\/[0-9a-f]{2}\/[0-9a-f]{64}$/.test(name) ||
    /^invoices\/[A-Za-z0-9-]+\/[A-Za-z0-9-]+\.pdf$/.test(name) ||
    /^secrets\/[a-z0-9-]+\.json$/.test(name);
  if (!ok) throw new BackupError(`the archive names an entry no backup has: ${JSON.stringify(name).slice(0, 200)}`);
  return path.join(root, ...name.split('/'));
}

function parseManifest(bytes: Buffer): Manifest {
  let m: Manifest;
  try {
    m = JSON.parse(bytes.toString('utf8')) as Manifest;
  } catch {
    throw new BackupError('the archive’s manifest is not valid JSON');
  }
  if (m?.format !== ARCHIVE_FORMAT || !Array.isArray(m.entries) || !Array.isArray(m.tables)) {
    throw new BackupError(`not a Finops Desk backup of format ${ARCHIVE_FORMAT}`);
  }
  return m;
}

export interface ExtractOptions {
  /** Leave the secrets out even when the archive has them. */
  skipSecrets?: boolean;
}

/**
 * Unpacks an archive into an empty folder, checking as it goes: the manifest first, every entry's size and sha256
 * against it, nothing the manifest does not name, nothing missing. Throws BackupError on any mismatch (the folder is
 * then the caller's to remove). The database copy is not checked here (restore.ts opens it).
 */
export async function extractBackup(file: string, into: string, options: ExtractOptions = {}): Promise<Manifest> {
  if (!fs.existsSync(file)) throw new BackupError(`no backup at ${file}`);
  const extract = tar.extract();
  let manifest: Manifest | undefined;
  const seen = new Set<string>();
  const done = new Promise<void>((resolve, reject) => {
    extract.on('entry', (header, stream, next) => {
      const fail = (err: unknown) => {
        stream.resume();
        reject(err);
        extract.destroy();
      };
      if (header.type !== 'file') return fail(new BackupError(`the archive holds a ${header.type} entry (${header.name})`));
      if (!manifest) {
        if (header.name !== MANIFEST_NAME)
          return fail(new BackupError('not a Finops Desk backup: its first entry is not the manifest'));
        const chunks: Buffer[] = [];
        stream.on('data', (c: unknown) => chunks.push(c as Buffer));
        stream.on('end', () => {
          try {
            manifest = parseManifest(Buffer.concat(chunks));
            next();
          } catch (err) {
            fail(err);
          }
        });
        return;
      }
      const entry = manifest.entries.find((e) => e.name === header.name);
      if (!entry || seen.has(header.name))
        return fail(new BackupError(`the archive holds an entry its manifest does not name: ${header.name}`));
      seen.add(header.name);
      const skip = options.skipSecrets && entry.name.startsWith(`${SECRETS_DIR}/`);
      const target = placeOf(into, entry.name);
      const hash = crypto.createHash('sha256');
      let size = 0;
      stream.on('data', (raw: unknown) => {
        const c = raw as Buffer;
        hash.update(c);
        size += c.length;
      });
      if (!skip) fs.mkdirSync(path.dirname(target), { recursive: true });
      const sink = skip ? null : fs.createWriteStream(target, { mode: 0o600 });
      const finished = sink ? pipeline(stream, sink) : new Promise<void>((r) => stream.on('end', () => r()).resume());
      finished.then(() => {
        if (size !== entry.size || hash.digest('hex') !== entry.sha256) {
          return fail(new BackupError(`${entry.name} in the archive does not match its manifest (damaged archive)`));
        }
        next();
      }, fail);
    });
    extract.on('finish', resolve);
    extract.on('error', reject);
  });
  const input = fs.createReadStream(file);
  await Promise.all([
    pipeline(input, zlib.createGunzip(), extract).catch((err) => {
      throw err instanceof BackupError ? err : new BackupError(`the archive cannot be read: ${(err as Error).message}`);
    }),
    done,
  ]);
  if (!manifest) throw new BackupError('not a Finops Desk backup: it has no manifest');
  const missing = (manifest as Manifest).entries.filter((e) => !seen.has(e.name));
  if (missing.length)
    throw new BackupError(`the archive lacks ${missing.length} entries its manifest names (e.g. ${missing[0]?.name})`);
  return manifest;
}

/** Reads only the manifest (listing backups, the restore confirmation). */
export async function readManifest(file: string): Promise<Manifest> {
  const extract = tar.extract();
  const input = fs.createReadStream(file);
  return new Promise<Manifest>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
      input.destroy();
      extract.destroy();
    };
    extract.on('entry', (header, stream) => {
      if (header.name !== MANIFEST_NAME) return settle(() => reject(new BackupError('not a Finops Desk backup')));
      const chunks: Buffer[] = [];
      stream.on('data', (c: unknown) => chunks.push(c as Buffer));
      stream.on('end', () =>
        settle(() => {
          try {
            resolve(parseManifest(Buffer.concat(chunks)));
          } catch (err) {
            reject(err);
          }
        }),
      );
    });
    extract.on('finish', () => settle(() => reject(new BackupError('not a Finops Desk backup: it has no manifest'))));
    input
      .on('error', (err) => settle(() => reject(err)))
      .pipe(zlib.createGunzip())
      .on('error', () => settle(() => reject(new BackupError('not a Finops Desk backup (not gzip)'))))
      .pipe(extract)
      .on('error', () => settle(() => reject(new BackupError('not a Finops Desk backup (not a tar archive)'))));
  });
}

export { INVOICES_DIR };
