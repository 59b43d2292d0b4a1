import Database from 'better-sqlite3';
import type { Db } from '../db';

/**
 * Consistent copies of the database for backups (docs/decisions/0185-backups.md), and what a copy holds.
 *
 * Two ways to copy a live database, each right for one kind of process:
 * - `vacuumInto` (a CLI beside a running server): `VACUUM INTO` reads the whole database inside one read
 *   transaction, so the copy is the state of one instant while the server goes on committing (WAL lets writers
 *   proceed); it blocks only the calling process, and the copy is compact.
 * - `onlineCopy` (the server's own backups): SQLite's backup API in steps between turns of the event loop, so
 *   requests keep being answered; writes made through the same connection meanwhile are carried into the copy, so
 *   it is the state of the instant it completes. (A write by another process restarts it; the CLI uses the first.)
 * SQLite does not fsync either copy: the archive that packs it is fsynced by its writer.
 */

export function vacuumInto(db: Db, target: string): void {
  db.prepare('VACUUM INTO ?').run(target);
}

export async function onlineCopy(db: Db, target: string, onProgress?: (done: number, total: number) => void): Promise<void> {
  await db.backup(target, {
    progress: ({ totalPages, remainingPages }) => {
      onProgress?.(totalPages - remainingPages, totalPages);
      // Pages per step: ~100 ms of work at a time, so the server's event loop keeps turning.
      return 2000;
    },
  });
}

/** Copies a database file into another (restore): the target's pages are replaced through SQLite, WAL included. */
export async function copyDatabaseFile(source: string, target: string): Promise<void> {
  const from = new Database(source, { readonly: true, fileMustExist: true });
  try {
    // One step after the first: nothing else may use the target meanwhile (the caller holds requests off).
    await from.backup(target, { progress: () => 1_000_000_000 });
  } finally {
    from.close();
  }
}

export interface TableCount {
  name: string;
  rows: number;
}

export interface SnapshotContents {
  schemaVersion: number;
  /** `PRAGMA integrity_check`: 'ok' or the first problems found. */
  integrity: string;
  tables: TableCount[];
  /** sha256 of every stored file the copy refers to (files/<sha[0:2]>/<sha>). */
  blobs: string[];
  /** Every stored invoice PDF the copy refers to, with the hash it was stored with. */
  invoicePdfs: { path: string; sha256: string }[];
}

/** Opens a copy read-only and lists what a backup of it must carry along. */
export function snapshotContents(file: string): SnapshotContents {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const integrity = (db.pragma('integrity_check(20)') as { integrity_check: string }[])
      .map((r) => r.integrity_check)
      .join('; ');
    const names = db
      .prepare(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name",
      )
      .pluck()
      .all() as string[];
    const tables = names
      .filter((n) => !isShadowTable(db, n))
      .map((name) => ({ name, rows: db.prepare(`SELECT count(*) FROM "${name}"`).pluck().get() as number }));
    const has = (t: string) => names.includes(t);
    return {
      schemaVersion: db.pragma('user_version', { simple: true }) as number,
      integrity,
      tables,
      blobs: has('stored_files') ? (db.prepare('SELECT sha256 FROM stored_files ORDER BY sha256').pluck().all() as string[]) : [],
      invoicePdfs: has('invoice_files')
        ? (db.prepare('SELECT path, sha256 FROM invoice_files ORDER BY path').all() as { path: string; sha256: string }[])
        : [],
    };
  } finally {
    db.close();
  }
}

/** FTS5's own tables (`x_data`, `x_idx`, …) belong to their virtual table: counted through it, not on their own. */
function isShadowTable(db: Database.Database, name: string): boolean {
  const m = /^(.+)_(data|idx|content|docsize|config)$/.exec(name);
  if (!m) return false;
  return (
    db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ? AND sql LIKE 'CREATE VIRTUAL TABLE%'").get(m[1]) !==
    undefined
  );
}

/** Invoice PDF rows whose file a backup could not carry (it changed while the backup ran): rendered again when read. */
export function forgetInvoicePdfs(file: string, paths: readonly string[]): void {
  if (paths.length === 0) return;
  const db = new Database(file, { fileMustExist: true });
  try {
    const drop = db.prepare('DELETE FROM invoice_files WHERE path = ?');
    db.transaction(() => {
      for (const p of paths) drop.run(p);
    })();
  } finally {
    db.close();
  }
}
