/**
 * Start-up safety (docs/decisions/0186-start-up-safety.md): a database about to be migrated is first copied to the
 * backups folder and the copy is named; a database from a newer version and a damaged one are refused at start with
 * a clear message, and the file is left byte for byte as it was (no WAL switch, no migration, no repair attempt).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  DatabaseCorrupt,
  DatabaseTooNew,
  DB_FILE_NAME,
  type OpenEvent,
  openDatabase,
  schemaVersion,
} from '../../../src-main/store/db';
import { LATEST_VERSION } from '../../../src-main/store/migrations/index';
import { runCli } from '../../helpers/cli';
import { tmpDir } from '../../helpers/tmp';

const hashOf = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** A database in rollback-journal mode (as an older app or another tool may leave it), so a WAL switch would show. */
function plainDatabase(dir: string, version: number): string {
  const file = path.join(dir, DB_FILE_NAME);
  const raw = new Database(file);
  raw.exec('CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3);');
  raw.pragma(`user_version = ${version}`);
  raw.close();
  return file;
}

describe('opening a data dir', () => {
  it('backs the database up before migrating it and says where', () => {
    const dir = tmpDir();
    const old = openDatabase(dir, { targetVersion: LATEST_VERSION - 2 });
    old
      .prepare("INSERT INTO teams (id, name, base_currency, created_at, updated_at) VALUES ('t1', 'Old', 'EUR', 'x', 'x')")
      .run();
    old.close();
    const events: OpenEvent[] = [];
    const db = openDatabase(dir, { onEvent: (e) => events.push(e) });
    expect(schemaVersion(db)).toBe(LATEST_VERSION);
    db.close();
    const backup = events.find((e) => e.type === 'backup');
    expect(backup).toMatchObject({ from: LATEST_VERSION - 2, to: LATEST_VERSION });
    const file = (backup as { path: string }).path;
    expect(path.dirname(file)).toBe(path.join(dir, 'backups'));
    const copy = new Database(file, { readonly: true });
    expect(copy.pragma('user_version', { simple: true })).toBe(LATEST_VERSION - 2);
    expect(copy.prepare('SELECT name FROM teams').pluck().all()).toEqual(['Old']);
    copy.close();
    expect(events.filter((e) => e.type === 'migration').map((e) => (e as { index: number }).index)).toEqual([0, 1]);
    // A database at the latest version is not copied again.
    const again: OpenEvent[] = [];
    openDatabase(dir, { onEvent: (e) => again.push(e) }).close();
    expect(again.filter((e) => e.type === 'backup')).toEqual([]);
  });

  it('the CLI names the backup it made before a migration', () => {
    const dir = tmpDir();
    openDatabase(dir, { targetVersion: LATEST_VERSION - 1 }).close();
    const r = runCli(['token', 'create', '--data-dir', dir, '--team', 'Acme']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      new RegExp(
        `backed up the database to ${dir}/backups/before-migration-v${LATEST_VERSION - 1}-to-v${LATEST_VERSION}-.*\\.sqlite before migrating it`,
      ),
    );
  });

  it('refuses a database of a newer version and leaves its file untouched', () => {
    const dir = tmpDir();
    const file = plainDatabase(dir, LATEST_VERSION + 1);
    const before = hashOf(file);
    expect(() => openDatabase(dir)).toThrow(DatabaseTooNew);
    expect(hashOf(file)).toBe(before);
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    expect(fs.existsSync(path.join(dir, 'backups'))).toBe(false);
    const cli = runCli(['serve', '--data-dir', dir, '--port', '0']);
    expect(cli.status).toBe(1);
    expect(cli.stderr).toMatch(/schema version \d+ is newer than this version of Finops Desk supports/);
    expect(hashOf(file)).toBe(before);
  });

  it('refuses a file that is not a database, and a damaged database, with a clear message and no write', () => {
    const garbage = tmpDir();
    const file = path.join(garbage, DB_FILE_NAME);
    fs.writeFileSync(file, crypto.randomBytes(8192));
    const before = hashOf(file);
    expect(() => openDatabase(garbage)).toThrow(DatabaseCorrupt);
    expect(hashOf(file)).toBe(before);

    // A real database whose table pages were overwritten: the header reads, the b-tree does not.
    const damaged = tmpDir();
    const db = openDatabase(damaged);
    db.exec('CREATE TABLE filler (x TEXT)');
    const insert = db.prepare('INSERT INTO filler VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < 2000; i++) insert.run(`row ${i} ${'x'.repeat(200)}`);
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.pragma('journal_mode = DELETE');
    db.close();
    const dbFile = path.join(damaged, DB_FILE_NAME);
    const bytes = fs.readFileSync(dbFile);
    const pageSize = bytes.readUInt16BE(16);
    // Every page past the first few (the schema's) is scrambled.
    for (let p = 10; p < bytes.length / pageSize; p += 3) crypto.randomFillSync(bytes, p * pageSize, 64);
    fs.writeFileSync(dbFile, bytes);
    const damagedHash = hashOf(dbFile);
    let thrown: unknown;
    try {
      openDatabase(damaged, { check: true });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(DatabaseCorrupt);
    expect((thrown as Error).message).toMatch(/is damaged .*finops restore --from FILE/);
    expect(hashOf(dbFile)).toBe(damagedHash);
    expect(fs.existsSync(`${dbFile}-wal`)).toBe(false);
    const serve = runCli(['serve', '--data-dir', damaged, '--port', '0']);
    expect(serve.status).toBe(1);
    expect(serve.stderr).toMatch(/is damaged/);
    expect(hashOf(dbFile)).toBe(damagedHash);
  });
});
