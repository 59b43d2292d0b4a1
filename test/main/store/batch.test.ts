import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { batchCommits, runBatch } from '../../../src-main/store/batch';
import { listCustomers } from '../../../src-main/store/customers/list';
import { upsertCustomer } from '../../../src-main/store/customers/write';
import { DB_FILE_NAME, type Db, openDatabase } from '../../../src-main/store/db';
import { InvalidReference } from '../../../src-main/store/errors';
import { createTeam } from '../../../src-main/store/teams/teams';
import { tmpDir } from '../../helpers/tmp';

let db: Db;
afterEach(() => db?.close());

function fresh(): { dir: string; team: string } {
  const dir = tmpDir();
  db = openDatabase(dir);
  return { dir, team: createTeam(db, { name: 'Batch' }).id };
}

/** The customers' names as a second connection sees them: only what was committed. */
function committedNames(dir: string): string[] {
  const other = new Database(`${dir}/${DB_FILE_NAME}`, { readonly: true });
  try {
    return other.prepare('SELECT name FROM customers ORDER BY name').pluck().all() as string[];
  } finally {
    other.close();
  }
}

describe('runBatch', () => {
  it('makes every unit durable with one COMMIT', () => {
    const { dir, team } = fresh();
    const before = batchCommits(db);
    const units = Array.from({ length: 20 }, (_, i) => () => upsertCustomer(db, team, { name: `C${i}` }).customer.id);
    const outcomes = runBatch(db, units);
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(batchCommits(db) - before).toBe(1);
    expect(db.inTransaction).toBe(false);
    expect(committedNames(dir)).toHaveLength(20);
  });

  it('rolls back a failing unit alone, with the rows it had written before it failed', () => {
    const { dir, team } = fresh();
    const outcomes = runBatch<unknown>(db, [
      () => upsertCustomer(db, team, { name: 'Kept 1' }),
      // The customer row is inserted, then the unknown tag throws: the unit's savepoint takes the row back.
      () => upsertCustomer(db, team, { name: 'Lost', tags: [{ id: '01900000-0000-7000-8000-000000000000' }] }),
      // A constraint SQLite itself enforces (customers.team_id references teams).
      () => db.prepare("INSERT INTO customers (id, team_id, name) VALUES ('x', 'no-such-team', 'Orphan')").run(),
      // Two writes, the second failing: the first one's own savepoint was already released into the batch, so only
      // the unit's savepoint can take it back.
      () => {
        upsertCustomer(db, team, { name: 'Lost too' });
        throw new Error('the request fails after its first write');
      },
      () => upsertCustomer(db, team, { name: 'Kept 2' }),
    ]);
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, false, false, true]);
    const failed = outcomes[1];
    expect(failed && !failed.ok && failed.error).toBeInstanceOf(InvalidReference);
    const constraint = outcomes[2];
    expect(constraint && !constraint.ok && (constraint.error as { code?: string }).code).toMatch(/^SQLITE_CONSTRAINT/);
    expect(committedNames(dir)).toEqual(['Kept 1', 'Kept 2']);
    // The change feed holds the kept ones only: no change row of the rolled-back create survived either.
    expect(db.prepare("SELECT count(*) FROM changes WHERE entity = 'customer'").pluck().get()).toBe(2);
  });

  it('lets each unit see the writes of the units before it', () => {
    const { team } = fresh();
    const outcomes = runBatch(db, [
      () => upsertCustomer(db, team, { name: 'First', email: 'same@example.com' }),
      () => upsertCustomer(db, team, { name: 'Second', email: 'SAME@example.com' }),
    ]);
    const [a, b] = outcomes.map((o) => (o.ok ? o.value : undefined));
    expect(a?.created).toBe(true);
    expect(b?.created).toBe(false);
    expect(b?.customer.id).toBe(a?.customer.id);
    expect(listCustomers(db, team, {}).data.map((c) => c.name)).toEqual(['Second']);
  });

  it('fails every unit, the successful ones too, when the whole transaction is lost', () => {
    const { dir, team } = fresh();
    const before = batchCommits(db);
    const outcomes = runBatch<unknown>(db, [
      () => upsertCustomer(db, team, { name: 'Would be kept' }),
      // What SQLite does on SQLITE_FULL or an I/O error: the transaction ends, rolled back.
      () => db.prepare('ROLLBACK').run(),
      () => upsertCustomer(db, team, { name: 'Never runs' }),
    ]);
    expect(outcomes.every((o) => !o.ok)).toBe(true);
    expect(batchCommits(db)).toBe(before);
    expect(committedNames(dir)).toEqual([]);
  });

  it('inside a transaction already open, runs the units as its savepoints and leaves the commit to it', () => {
    const { dir, team } = fresh();
    const before = batchCommits(db);
    db.transaction(() => {
      const outcomes = runBatch<unknown>(db, [
        () => upsertCustomer(db, team, { name: 'Inner' }),
        () => {
          throw new Error('unit fails');
        },
      ]);
      expect(outcomes.map((o) => o.ok)).toEqual([true, false]);
      expect(db.inTransaction).toBe(true);
    })();
    expect(batchCommits(db)).toBe(before);
    expect(committedNames(dir)).toEqual(['Inner']);
  });
});
