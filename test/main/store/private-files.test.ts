import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureBlob, sha256 } from '../../../src-main/infra/blob-store';
import { openDatabase } from '../../../src-main/store/db';
import { tmpDir } from '../../helpers/tmp';

/** The data dir, the database and the blobs are the owner's alone, whatever the umask of the process. */
const umask = process.umask();
afterEach(() => void process.umask(umask));

const mode = (p: string) => fs.statSync(p).mode & 0o777;

describe('private files', () => {
  it('creates the data dir 0700, the database and its WAL 0600, blobs 0600 in 0700 folders, under umask 000', () => {
    process.umask(0o000);
    const dataDir = path.join(tmpDir(), 'books');
    const db = openDatabase(dataDir);
    try {
      db.prepare("INSERT INTO teams (id, name, created_at, updated_at) VALUES ('t', 'T', '2026-01-01', '2026-01-01')").run();
      expect(mode(dataDir)).toBe(0o700);
      expect(mode(db.name)).toBe(0o600);
      expect(mode(`${db.name}-wal`)).toBe(0o600);
      const bytes = Buffer.from('a receipt');
      ensureBlob(dataDir, sha256(bytes), bytes);
      const blob = path.join(dataDir, 'files', sha256(bytes).slice(0, 2), sha256(bytes));
      expect(mode(blob)).toBe(0o600);
      expect(mode(path.dirname(blob))).toBe(0o700);
      expect(mode(path.join(dataDir, 'files'))).toBe(0o700);
    } finally {
      db.close();
    }
  });

  it('tightens a database file left readable by others', () => {
    const dataDir = tmpDir();
    openDatabase(dataDir).close();
    fs.chmodSync(path.join(dataDir, 'finops.sqlite'), 0o644);
    openDatabase(dataDir).close();
    expect(mode(path.join(dataDir, 'finops.sqlite'))).toBe(0o600);
  });
});
