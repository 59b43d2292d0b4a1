import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createApiKey, findActiveApiKey } from '../../../src-main/store/auth/api-keys';
import { DatabaseTooNew, DB_FILE_NAME, migrate, openDatabase, schemaVersion } from '../../../src-main/store/db';
import { LATEST_VERSION, MIGRATIONS } from '../../../src-main/store/migrations/index';
import { createTeam, getTeam } from '../../../src-main/store/teams/teams';
import { runCli } from '../../helpers/cli';
import { tmpDir } from '../../helpers/tmp';

describe('schema migrations', () => {
  it('creates a fresh database at the latest version with the durability pragmas', () => {
    const db = openDatabase(tmpDir());
    expect(schemaVersion(db)).toBe(LATEST_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
    expect(db.pragma('busy_timeout', { simple: true })).toBeGreaterThanOrEqual(1000);
    db.close();
  });

  it('versions are consecutive and start at 1', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
  });

  it.each(MIGRATIONS.map((m) => m.version))(
    'opens a database left at historical version %i and upgrades it with its data intact',
    (version) => {
      const dir = tmpDir();
      const old = openDatabase(dir, { targetVersion: version });
      expect(schemaVersion(old)).toBe(version);
      const team = createTeam(old, { name: 'Old Co', baseCurrency: 'JPY' });
      const { key } = createApiKey(old, { teamId: team.id, name: 'k', scopes: ['customers.read'] });
      old.close();

      const db = openDatabase(dir);
      expect(schemaVersion(db)).toBe(LATEST_VERSION);
      expect(getTeam(db, team.id)).toMatchObject({ name: 'Old Co', baseCurrency: 'JPY' });
      expect(findActiveApiKey(db, key)?.teamId).toBe(team.id);
      expect(db.pragma('foreign_key_check')).toEqual([]);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      db.close();
    },
  );

  it('refuses a database newer than the code with a clear message', { tags: ['slow'] }, () => {
    const dir = tmpDir();
    openDatabase(dir).close();
    const raw = new Database(path.join(dir, DB_FILE_NAME));
    raw.pragma(`user_version = ${LATEST_VERSION + 1}`);
    raw.close();
    expect(() => openDatabase(dir)).toThrow(DatabaseTooNew);
    expect(() => openDatabase(dir)).toThrow(/newer than this version of Finops Desk/);

    const cli = runCli(['token', 'create', '--data-dir', dir, '--team', 'x']);
    expect(cli.status).toBe(1);
    expect(cli.stderr.trim().split('\n')).toHaveLength(1);
    expect(cli.stderr).toMatch(/schema version \d+ is newer/);
  });

  it('a failing migration leaves the database at the previous version, with no half-applied change', () => {
    const raw = new Database(path.join(tmpDir(), 'x.sqlite'));
    const broken = [
      { version: 1, name: 'one', sql: 'CREATE TABLE a (x INTEGER);' },
      { version: 2, name: 'two', sql: 'CREATE TABLE b (y INTEGER); INSERT INTO nowhere VALUES (1);' },
    ];
    expect(() => migrate(raw, 2, broken)).toThrow(/no such table: nowhere/);
    expect(schemaVersion(raw)).toBe(1);
    const tables = raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
    expect(tables).toContain('a');
    expect(tables).not.toContain('b');
    raw.close();
  });
});
