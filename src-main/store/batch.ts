import type { Db } from './db';

/**
 * Several independent units of work in one commit (docs/decisions/0187-group-commit.md).
 *
 * With synchronous=FULL every commit waits for the disk (decision 0002): a server answering one request per commit
 * spends most of a write's time in fsync. `runBatch` runs a list of units — each one request's writes, made through
 * `write()` or any store function — in one IMMEDIATE transaction, each unit in its own savepoint: a unit that throws
 * rolls back alone and the others go on. Then one COMMIT makes all of them durable at once.
 *
 * What a caller may rely on:
 * - a unit's outcome is `ok` only once the COMMIT that holds its writes has returned: its data is on disk;
 * - units run in the order given, and each sees the writes of the units before it (one connection, one
 *   transaction), so two requests for the same record behave as if committed one after the other;
 * - when SQLite gives up the whole transaction (a full or failing disk rolls it back) or the COMMIT fails, every
 *   unit of the batch fails with that error, the ones that had succeeded too: none of their writes was kept;
 * - a unit must not answer anyone itself: it returns its result and the caller answers after the commit.
 *
 * The store stays synchronous: the grouping of concurrent requests is the server's (server/group-commit.ts). Inside
 * a transaction already open (a test's, a caller's) the units simply run as savepoints of it.
 */

/** COMMITs `runBatch` made on each database: tests and the bench compare them with the requests they carried. */
const commits = new WeakMap<Db, number>();

export function batchCommits(db: Db): number {
  return commits.get(db) ?? 0;
}

export type UnitOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

export function runBatch<T>(db: Db, units: readonly (() => T)[]): UnitOutcome<T>[] {
  const outcomes: UnitOutcome<T>[] = [];
  const outer = db.inTransaction;
  try {
    if (!outer) db.prepare('BEGIN IMMEDIATE').run();
  } catch (error) {
    return units.map(() => ({ ok: false, error }));
  }
  for (const unit of units) {
    try {
      // Nested inside the open transaction, better-sqlite3 makes this a savepoint: a throw rolls back this unit only.
      outcomes.push({ ok: true, value: db.transaction(unit)() });
    } catch (error) {
      outcomes.push({ ok: false, error });
    }
    if (!db.inTransaction) {
      // SQLite rolled the whole transaction back (SQLITE_FULL, an I/O error): nothing of the batch was kept.
      const lost = outcomes.at(-1);
      const error = lost && !lost.ok ? lost.error : new Error('the batch transaction was rolled back');
      return units.map(() => ({ ok: false, error }));
    }
  }
  if (outer) return outcomes;
  try {
    db.prepare('COMMIT').run();
  } catch (error) {
    try {
      if (db.inTransaction) db.prepare('ROLLBACK').run();
    } catch {
      // The connection gave the transaction up by itself; the error that says why is the COMMIT's.
    }
    return units.map(() => ({ ok: false, error }));
  }
  commits.set(db, batchCommits(db) + 1);
  return outcomes;
}
