/** The migration runner's progress callback: what the desktop host relays as "Updating the database (n of m)". */
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DB_FILE_NAME, migrate, type OpenEvent, openDatabase, schemaVersion } from '../../../src-main/store/db';
import { LATEST_VERSION, MIGRATIONS } from '../../../src-main/store/migrations/index';
import { tmpDir } from '../../helpers/tmp';

type MigrationEvent = Extract<OpenEvent, { type: 'migration' }>;

describe('migration progress', () => {
  it('is called once per pending migration, in order, each before it runs', () => {
    const dir = tmpDir();
    const from = LATEST_VERSION - 4;
    openDatabase(dir, { targetVersion: from }).close();
    const raw = new Database(path.join(dir, DB_FILE_NAME));
    const seen: (MigrationEvent & { versionThen: number })[] = [];
    migrate(raw, LATEST_VERSION, MIGRATIONS, (event) => {
      if (event.type === 'migration') seen.push({ ...event, versionThen: schemaVersion(raw) });
    });
    expect(schemaVersion(raw)).toBe(LATEST_VERSION);
    raw.close();
    const pending = MIGRATIONS.filter((m) => m.version > from);
    expect(seen).toEqual(
      pending.map((m, index) => ({
        type: 'migration',
        version: m.version,
        name: m.name,
        index,
        total: 4,
        versionThen: m.version - 1,
      })),
    );
  });

  it('says nothing when nothing is pending, or for a new database (nothing to wait for there)', () => {
    const dir = tmpDir();
    const fresh: OpenEvent[] = [];
    openDatabase(dir, { onEvent: (e) => fresh.push(e) }).close();
    expect(fresh.filter((e) => e.type === 'migration')).toEqual([]);
    const again: OpenEvent[] = [];
    openDatabase(dir, { onEvent: (e) => again.push(e) }).close();
    expect(again).toEqual([]);
  });

  it('reaches the opener of a data dir in order, between the backup and "migrated"', () => {
    const dir = tmpDir();
    openDatabase(dir, { targetVersion: LATEST_VERSION - 2 }).close();
    const events: OpenEvent[] = [];
    openDatabase(dir, { onEvent: (e) => events.push(e) }).close();
    expect(events.map((e) => (e.type === 'migration' ? `migration ${e.index + 1}/${e.total} v${e.version}` : e.type))).toEqual([
      'checking',
      'backup',
      `migration 1/2 v${LATEST_VERSION - 1}`,
      `migration 2/2 v${LATEST_VERSION}`,
      'migrated',
    ]);
  });
});
