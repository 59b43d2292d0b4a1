import { describe, expect, it } from 'vitest';
import { openDatabase, schemaVersion } from '../../../src-main/store/db';
import { getImportBatch, listBatchRows } from '../../../src-main/store/import/batches';
import { getReviewItem } from '../../../src-main/store/import/review';
import { getUpload } from '../../../src-main/store/import/uploads';
import { createTeam } from '../../../src-main/store/teams/teams';
import { write } from '../../../src-main/store/write';
import { tmpDir } from '../../helpers/tmp';

/** Migration 015 rebuilds the import tables (QIF, statement references, uploads for a team): nothing is lost. */
describe('migration 015 (import statements)', () => {
  it('keeps batches, their rows, review items and uploads, and the cascade from batch to rows', () => {
    const dir = tmpDir('finops-m015-');
    const old = openDatabase(dir, { targetVersion: 14 });
    const team = createTeam(old, { name: 'M15', baseCurrency: 'EUR' }).id;
    const account = write(old, team, (w) =>
      w.insert('bank_account', { name: 'Giro', type: 'depository', currency: 'EUR', manual: 0 }),
    );
    const now = '2026-03-01T10:00:00.000Z';
    old
      .prepare(
        `INSERT INTO import_batches (id, team_id, bank_account_id, file_name, file_sha256, file_size, format, encoding, status,
           rows_total, created_count, created_at, updated_at, seq) VALUES ('b1', ?, ?, 'x.csv', 'abc', 10, 'csv', 'UTF-8', 'committed', 2, 1, ?, ?, 1)`,
      )
      .run(team, account, now, now);
    old
      .prepare(
        `INSERT INTO import_batch_rows (team_id, batch_id, position, line, outcome, date, amount_minor, description)
         VALUES (?, 'b1', 0, 2, 'created', '2026-03-01', -500, 'Kaffee'), (?, 'b1', 1, 3, 'review', '2026-03-01', -900, 'Taxi')`,
      )
      .run(team, team);
    old
      .prepare(
        `INSERT INTO import_review_items (id, team_id, bank_account_id, batch_id, position, status, row, candidates, created_at, updated_at, seq)
         VALUES ('r1', ?, ?, 'b1', 1, 'open', ?, '[]', ?, ?, 2)`,
      )
      .run(
        team,
        account,
        JSON.stringify({ date: '2026-03-01', amountMinor: -900, currency: 'EUR', name: 'Taxi', line: 3 }),
        now,
        now,
      );
    old
      .prepare(
        `INSERT INTO import_uploads (id, team_id, bank_account_id, file_name, sha256, size, content, created_at, expires_at)
         VALUES ('u1', ?, ?, 'x.csv', 'abc', 3, x'616263', ?, '2999-01-01T00:00:00.000Z')`,
      )
      .run(team, account, now);
    old.close();

    const db = openDatabase(dir);
    expect(schemaVersion(db)).toBeGreaterThanOrEqual(15); // the latest version, past 015
    expect(getImportBatch(db, team, 'b1')).toMatchObject({ format: 'csv', accountRef: null, counts: { rows: 2, created: 1 } });
    expect(listBatchRows(db, team, 'b1', { limit: 10 }).data.map((r) => r.description)).toEqual(['Kaffee', 'Taxi']);
    expect(getReviewItem(db, team, 'r1')).toMatchObject({ batchId: 'b1', status: 'open', name: 'Taxi' });
    expect(getUpload(db, team, 'u1').bankAccountId).toBe(account);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    // The rebuilt tables still refer to each other: a batch removed takes its rows and review items with it.
    db.prepare("DELETE FROM import_batches WHERE id = 'b1'").run();
    expect(db.prepare('SELECT count(*) FROM import_batch_rows').pluck().get()).toBe(0);
    expect(db.prepare('SELECT count(*) FROM import_review_items').pluck().get()).toBe(0);
    db.close();
  });
});
