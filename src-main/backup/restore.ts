import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { FILES_DIR } from '../infra/blob-store';
import { liveServers } from '../store/backups/presence';
import { copyDatabaseFile, snapshotContents } from '../store/backups/snapshot';
import { DB_FILE_NAME, type Db } from '../store/db';
import { LATEST_VERSION } from '../store/migrations/index';
import { BackupError, extractBackup, fsyncDir, INVOICES_DIR, type Manifest, SECRETS_DIR } from './archive';
import { BACKUPS_DIR_NAME } from './folder';

/**
 * Putting a backup back (docs/decisions/0185-backups.md). Both ways first unpack the archive into a folder beside
 * the data (so the moves stay on one file system), check every entry against the manifest, then open the database
 * copy and check it: `PRAGMA integrity_check`, every table's row count as the manifest says, a schema this version
 * can read. Only then is anything of the data dir touched.
 * - `restoreDataDir` (the CLI, no server on the data dir): the database file is replaced by rename.
 * - `restoreInto` (a running server, the Settings screen): the copy's pages are written into the live database
 *   through SQLite's backup API, so the server's connection stays valid and sees the restored data.
 * Stored documents the backup holds are added (content-addressed: a file of that name is those bytes); invoice PDFs
 * are replaced by the backup's; secrets are replaced only when the backup has them.
 */

export class RestoreRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefused';
  }
}

/** What a data dir holds besides its backups folder (a data dir with only backups in it counts as empty). */
export function dataDirIsEmpty(dataDir: string): boolean {
  if (!fs.existsSync(dataDir)) return true;
  return fs.readdirSync(dataDir).every((n) => n === BACKUPS_DIR_NAME || n.startsWith('.restore-'));
}

interface Staged {
  dir: string;
  manifest: Manifest;
}

async function stage(from: string, dataDir: string): Promise<Staged> {
  fs.mkdirSync(dataDir, { recursive: true });
  const dir = fs.mkdtempSync(path.join(dataDir, '.restore-'));
  try {
    const manifest = await extractBackup(from, dir);
    if (manifest.schemaVersion > LATEST_VERSION) {
      throw new RestoreRefused(
        `the backup is of schema version ${manifest.schemaVersion}, newer than this version of Finops Desk supports (${LATEST_VERSION}); restore it with a newer version`,
      );
    }
    const contents = snapshotContents(path.join(dir, DB_FILE_NAME));
    if (contents.integrity !== 'ok')
      throw new BackupError(`the backup's database fails its integrity check: ${contents.integrity}`);
    const expected = new Map(manifest.tables.map((t) => [t.name, t.rows]));
    for (const t of contents.tables) {
      if (expected.get(t.name) !== t.rows) {
        throw new BackupError(
          `the backup's table ${t.name} has ${t.rows} rows, its manifest says ${expected.get(t.name) ?? 'none'}`,
        );
      }
    }
    if (contents.tables.length !== expected.size) throw new BackupError('the backup’s tables differ from its manifest');
    return { dir, manifest };
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** Files of a staged backup into the data dir (documents added, invoice PDFs and — when present — secrets replaced). */
function installFiles(staged: Staged, dataDir: string): void {
  const files = path.join(staged.dir, FILES_DIR);
  if (fs.existsSync(files)) {
    for (const prefix of fs.readdirSync(files)) {
      for (const name of fs.readdirSync(path.join(files, prefix))) {
        const to = path.join(dataDir, FILES_DIR, prefix, name);
        if (fs.existsSync(to)) continue;
        fs.mkdirSync(path.dirname(to), { recursive: true });
        fs.renameSync(path.join(files, prefix, name), to);
      }
    }
  }
  const invoices = path.join(dataDir, INVOICES_DIR);
  fs.rmSync(invoices, { recursive: true, force: true });
  if (fs.existsSync(path.join(staged.dir, INVOICES_DIR))) fs.renameSync(path.join(staged.dir, INVOICES_DIR), invoices);
  const secrets = path.join(staged.dir, SECRETS_DIR);
  if (staged.manifest.secretsIncluded && fs.existsSync(secrets)) {
    const into = path.join(dataDir, SECRETS_DIR);
    fs.mkdirSync(into, { recursive: true, mode: 0o700 });
    fs.chmodSync(into, 0o700);
    for (const name of fs.readdirSync(secrets)) fs.renameSync(path.join(secrets, name), path.join(into, name));
  }
}

export interface RestoreOptions {
  from: string;
  dataDir: string;
  /** Replace a data dir that holds data (its current state is backed up first by the caller). */
  force?: boolean;
}

/** Whether a server has this data dir open now (its presence lease, renewed while it runs). */
export function serversOn(dataDir: string): string[] {
  const file = path.join(dataDir, DB_FILE_NAME);
  if (!fs.existsSync(file)) return [];
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch {
    return [];
  }
  try {
    return liveServers(db as Db);
  } catch {
    return [];
  } finally {
    db.close();
  }
}

/**
 * Restores into a data dir no server has open. Refuses a data dir with data in it unless `force`, and always one a
 * running server holds (stop it, or restore from its Settings screen).
 */
export async function restoreDataDir(options: RestoreOptions): Promise<Manifest> {
  const dataDir = path.resolve(options.dataDir);
  if (!dataDirIsEmpty(dataDir) && !options.force) {
    throw new RestoreRefused(`${dataDir} is not empty; restore into an empty folder, or pass --force to replace its data`);
  }
  const servers = serversOn(dataDir);
  if (servers.length) {
    throw new RestoreRefused(
      `a server is running on ${dataDir} (${servers.join(', ')}); stop it first, or restore from its Settings screen`,
    );
  }
  const staged = await stage(path.resolve(options.from), dataDir);
  try {
    const db = path.join(dataDir, DB_FILE_NAME);
    for (const suffix of ['-wal', '-shm', '']) fs.rmSync(`${db}${suffix}`, { force: true });
    fs.renameSync(path.join(staged.dir, DB_FILE_NAME), db);
    installFiles(staged, dataDir);
    fsyncDir(dataDir);
    return staged.manifest;
  } finally {
    fs.rmSync(staged.dir, { recursive: true, force: true });
  }
}

/**
 * Restores into the database a running server has open (`db`): the backup's pages replace the live ones through
 * SQLite, so the connection stays valid. The caller has stopped the background work and holds off requests; it
 * migrates the database afterwards when the backup is older than the code.
 */
export async function restoreInto(db: Db, from: string, dataDir: string): Promise<Manifest> {
  const staged = await stage(path.resolve(from), dataDir);
  try {
    await copyDatabaseFile(path.join(staged.dir, DB_FILE_NAME), db.name);
    installFiles(staged, dataDir);
    return staged.manifest;
  } finally {
    fs.rmSync(staged.dir, { recursive: true, force: true });
  }
}

/** A name for an archive made at `now`: sortable, unique within a second, safe on every file system. */
export function archiveName(now: Date, trigger: string): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  return `finops-${stamp}-${trigger}-${crypto.randomBytes(2).toString('hex')}.tar.gz`;
}
