import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from './db';
import { ENTITIES, type EntityName } from './entities';
import { Conflict, NotFound } from './errors';
import { newId } from './ids';

/**
 * The one way to write a team-owned record (docs/decisions/0007-write-path-and-sync-bookkeeping.md).
 *
 * `write(db, teamId, (w) => …)` runs the callback in one IMMEDIATE transaction with a Writer that:
 * - reads the clock once: every row written gets the same `updated_at` (`w.now`);
 * - gives every record it touches exactly one change: the first touch takes the team's next sequence number, stores
 *   it in the row's `seq` and upserts the record's row in `changes` (op, origin); later touches of the same record
 *   in the same write reuse it (a delete turns the row into a tombstone);
 * - records changes for the records that embed a changed one (registry: entities.ts `embeddedIn`);
 * - takes sequence numbers from memory and stores the team's counter once at the end: the write lock is held, so
 *   no one else can move it meanwhile, and a bulk import of 100k rows costs no counter update per row.
 *
 * Nesting: a store function that writes calls `write` itself; called inside another write for the same team (an
 * import creating transactions, the sync engine applying a pull), it joins the outer writer, so one outer write is
 * one transaction with one change per record, and the outer write's origin holds unless the inner one names its own.
 * Rolled back with its transaction, a write leaves no trace in the feed.
 */

export const ORIGINS = ['local', 'import', 'rule', 'workflow', 'sync', 'system'] as const;
/** Who made a change: a person or API client (local), an import, a rule, a workflow run, a sync pull, the app. */
export type Origin = (typeof ORIGINS)[number];

export type SqlValue = string | number | bigint | null | Buffer;
export type Values = Readonly<Record<string, SqlValue | undefined>>;

export interface WriteOptions {
  origin?: Origin;
  /** ISO-8601 timestamp for every row of this write (tests, the demo seeder); default: the clock, read once. */
  now?: string;
}

export interface Writer {
  readonly db: Db;
  readonly teamId: string;
  readonly origin: Origin;
  readonly now: string;
  /**
   * Inserts a record and records its change. `values` are column values (not team_id/seq); `id`, `created_at` and
   * `updated_at` are filled in unless given. A given id that any record of the table holds is a Conflict. Returns
   * the id.
   */
  insert(entity: EntityName, values: Values): string;
  /**
   * A prepared bulk insert for `columns` (positional values in that order): the fast path for imports and the demo.
   * Each call inserts one record with a fresh id (unless the columns include `id`) and records its change.
   */
  inserter(entity: EntityName, columns: readonly string[]): (values: readonly SqlValue[]) => string;
  /**
   * Sets columns of a record and records its change; undefined values are skipped. Returns false (and writes
   * nothing) when every given value equals the stored one. Throws NotFound when the team has no such record.
   */
  update(entity: EntityName, id: string, values: Values): boolean;
  /** Deletes a record and leaves its tombstone; the records embedding it get a change. NotFound when absent. */
  remove(entity: EntityName, id: string): void;
  /**
   * Deletes every record of the entity in the team, leaving a tombstone for each (a team's data replaced or wiped).
   * Records embedding them are not touched: the caller removes or touches those itself. Returns the count.
   */
  removeAll(entity: EntityName): number;
  /** Records a change for a record whose API shape changed through another record (a link row, a parent's name). */
  touch(entity: EntityName, id: string): void;
  /** Runs `fn` with another origin for the changes it records (a rule applied during an import). */
  as<T>(origin: Origin, fn: () => T): T;
  /**
   * Runs `fn` in a savepoint of this write: when it throws, what it wrote (rows and change-feed entries) is rolled
   * back and the write goes on without it (the sync engine applies each pulled record so). Rethrows.
   */
  attempt<T>(fn: () => T): T;
}

interface Touch {
  seq: number;
  op: 'upsert' | 'delete';
  origin: Origin;
}

class TeamWriter implements Writer {
  touched = new Map<string, Touch>();
  private nextSeq: number | undefined;
  origin: Origin;

  constructor(
    readonly db: Db,
    readonly teamId: string,
    origin: Origin,
    readonly now: string,
  ) {
    this.origin = origin;
  }

  /** The team's next change sequence number; the counter is written back by `flush` at the end of the write. */
  private takeSeq(): number {
    if (this.nextSeq === undefined) {
      const row = this.db.prepare('SELECT change_seq FROM teams WHERE id = ?').get(this.teamId) as
        | { change_seq: number }
        | undefined;
      if (!row) throw new NotFound('team', this.teamId);
      this.nextSeq = row.change_seq + 1;
    }
    return this.nextSeq++;
  }

  flush(): void {
    if (this.nextSeq !== undefined) {
      this.db.prepare('UPDATE teams SET change_seq = ? WHERE id = ?').run(this.nextSeq - 1, this.teamId);
    }
  }

  /** One change per record per write: returns the record's sequence number for its `seq` column. */
  private change(entity: EntityName, id: string, op: 'upsert' | 'delete'): number {
    const key = `${entity}\u0000${id}`;
    const seen = this.touched.get(key);
    if (seen && seen.op === op && seen.origin === this.origin) return seen.seq;
    const seq = seen?.seq ?? this.takeSeq();
    this.db
      .prepare(
        `INSERT INTO changes (team_id, seq, entity, entity_id, op, changed_at, origin) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (team_id, entity, entity_id) DO UPDATE SET
           seq = excluded.seq, op = excluded.op, changed_at = excluded.changed_at, origin = excluded.origin`,
      )
      .run(this.teamId, seq, entity, id, op, this.now, this.origin);
    this.touched.set(key, { seq, op, origin: this.origin });
    return seq;
  }

  insert(entity: EntityName, values: Values): string {
    const columns = Object.keys(values).filter((c) => values[c] !== undefined);
    const id = (values.id as string | undefined) ?? newId();
    const row: Record<string, SqlValue> = { created_at: this.now, updated_at: this.now };
    for (const c of columns) row[c] = values[c] as SqlValue;
    row.id = id;
    row.team_id = this.teamId;
    row.seq = this.change(entity, id, 'upsert');
    const names = Object.keys(row);
    try {
      this.db
        .prepare(`INSERT INTO ${ENTITIES[entity].table} (${names.join(', ')}) VALUES (${names.map((n) => `@${n}`).join(', ')})`)
        .run(row);
    } catch (err) {
      // A caller-chosen id (a sync replica's) that any record of the table holds, in any team: ids are keys.
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
        throw new Conflict(`A record with the id ${id} already exists`, 'field: id (choose another id, or update that record)');
      }
      throw err;
    }
    return id;
  }

  inserter(entity: EntityName, columns: readonly string[]): (values: readonly SqlValue[]) => string {
    const hasId = columns.includes('id');
    const extra = ['team_id', 'seq', ...(hasId ? [] : ['id'])];
    const stamped = ['created_at', 'updated_at'].filter((c) => !columns.includes(c));
    const names = [...columns, ...extra, ...stamped];
    const statement = this.db.prepare(
      `INSERT INTO ${ENTITIES[entity].table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
    );
    const idAt = columns.indexOf('id');
    return (values) => {
      const id = hasId ? (values[idAt] as string) : newId();
      const seq = this.change(entity, id, 'upsert');
      statement.run(...values, this.teamId, seq, ...(hasId ? [] : [id]), ...stamped.map(() => this.now));
      return id;
    };
  }

  update(entity: EntityName, id: string, values: Values): boolean {
    const table = ENTITIES[entity].table;
    const current = this.db.prepare(`SELECT * FROM ${table} WHERE team_id = ? AND id = ?`).get(this.teamId, id) as
      | Record<string, SqlValue>
      | undefined;
    if (!current) throw new NotFound(entity, id);
    const changed = Object.keys(values).filter((c) => values[c] !== undefined && !sameValue(values[c] as SqlValue, current[c]));
    if (changed.length === 0) return false;
    const seq = this.change(entity, id, 'upsert');
    const params: Record<string, SqlValue> = { team_id: this.teamId, id, seq, updated_at: this.now };
    for (const c of changed) params[`v_${c}`] = values[c] as SqlValue;
    this.db
      .prepare(
        `UPDATE ${table} SET ${changed.map((c) => `${c} = @v_${c}, `).join('')}updated_at = @updated_at, seq = @seq
         WHERE team_id = @team_id AND id = @id`,
      )
      .run(params);
    this.touchEmbedding(entity, id);
    return true;
  }

  remove(entity: EntityName, id: string): void {
    const table = ENTITIES[entity].table;
    // Embedding records are found through link rows, which the delete cascades away: touch them first.
    if (!this.db.prepare(`SELECT 1 FROM ${table} WHERE team_id = ? AND id = ?`).get(this.teamId, id)) {
      throw new NotFound(entity, id);
    }
    this.touchEmbedding(entity, id);
    this.change(entity, id, 'delete');
    this.db.prepare(`DELETE FROM ${table} WHERE team_id = ? AND id = ?`).run(this.teamId, id);
  }

  removeAll(entity: EntityName): number {
    const table = ENTITIES[entity].table;
    const count = this.db.prepare(`SELECT count(*) FROM ${table} WHERE team_id = ?`).pluck().get(this.teamId) as number;
    if (count === 0) return 0;
    // One statement for all tombstones: the records' sequence numbers are consecutive, in id order. (A record given
    // a change earlier in this write gets a newer number: its one change row moves, as for any later change.)
    const first = this.takeSeq();
    this.nextSeq = first + count;
    this.db
      .prepare(
        `INSERT INTO changes (team_id, seq, entity, entity_id, op, changed_at, origin)
         SELECT @team, @first + row_number() OVER (ORDER BY id) - 1, @entity, id, 'delete', @now, @origin
         FROM ${table} WHERE team_id = @team
         ON CONFLICT (team_id, entity, entity_id) DO UPDATE SET
           seq = excluded.seq, op = excluded.op, changed_at = excluded.changed_at, origin = excluded.origin`,
      )
      .run({ team: this.teamId, first, entity, now: this.now, origin: this.origin });
    this.db.prepare(`DELETE FROM ${table} WHERE team_id = ?`).run(this.teamId);
    return count;
  }

  touch(entity: EntityName, id: string): void {
    const table = ENTITIES[entity].table;
    if (!this.db.prepare(`SELECT 1 FROM ${table} WHERE team_id = ? AND id = ?`).get(this.teamId, id)) return;
    const seq = this.change(entity, id, 'upsert');
    this.db
      .prepare(`UPDATE ${table} SET seq = ?, updated_at = ? WHERE team_id = ? AND id = ?`)
      .run(seq, this.now, this.teamId, id);
  }

  private touchEmbedding(entity: EntityName, id: string): void {
    const def = ENTITIES[entity] as {
      embeddedIn?: readonly { entity: EntityName; link: string; column: string; target: string }[];
    };
    for (const e of def.embeddedIn ?? []) {
      const ids = this.db
        .prepare(`SELECT ${e.target} FROM ${e.link} WHERE team_id = ? AND ${e.column} = ?`)
        .pluck()
        .all(this.teamId, id) as string[];
      for (const other of ids) this.touch(e.entity as EntityName, other);
    }
  }

  attempt<T>(fn: () => T): T {
    const touched = new Map(this.touched);
    const origin = this.origin;
    try {
      return this.db.transaction(fn)();
    } catch (err) {
      // The savepoint rolled its rows back: forget its touches too, so a later change of the same record records its
      // change row again. Sequence numbers it took stay taken (the feed allows gaps; order is what matters).
      this.touched = touched;
      this.origin = origin;
      throw err;
    }
  }

  as<T>(origin: Origin, fn: () => T): T {
    const outer = this.origin;
    this.origin = origin;
    try {
      return fn();
    } finally {
      this.origin = outer;
    }
  }
}

/** SQLite hands back integers for booleans and numbers; compare as SQLite would store them. */
function sameValue(next: SqlValue, stored: SqlValue | undefined): boolean {
  if (stored === undefined) return false;
  if (Buffer.isBuffer(next) || Buffer.isBuffer(stored)) {
    return Buffer.isBuffer(next) && Buffer.isBuffer(stored) && next.equals(stored);
  }
  return next === stored || (typeof next !== 'string' && typeof stored !== 'string' && Number(next) === Number(stored));
}

const active = new WeakMap<Db, TeamWriter>();

/** The origin of writes that name none, for the work running inside `withDefaultOrigin` (a request). */
const defaultOrigin = new AsyncLocalStorage<Origin>();

/**
 * Runs `fn` (and what it awaits) with `origin` for the writes that name none: a sync replica's push to this server
 * is written as `sync`, so the subscriptions that skip pulled changes (workflow triggers, rules, notifications of
 * local events) skip it too — they ran on the replica where the change was made.
 */
export function withDefaultOrigin<T>(origin: Origin, fn: () => T): T {
  return defaultOrigin.run(origin, fn);
}

/**
 * Runs `fn` outside any request's default origin: background work woken by a request (a queue's drain, the
 * workflow runner) writes as itself, not as the request that happened to wake it (nor with its write hook).
 */
export function outsideDefaultOrigin<T>(fn: () => T): T {
  return defaultOrigin.exit(() => writeHook.exit(fn));
}

/** What every write of the current request also does inside its own transaction (see `withWriteHook`). */
const writeHook = new AsyncLocalStorage<(db: Db) => void>();

/**
 * Runs `fn` (and what it awaits) with `hook` called inside each write's transaction, just before it commits: the
 * Idempotency-Key guard records there that the request's change is made, in the same commit as the change, so that
 * a crash between the change and the stored answer can never let a retry make the change twice (docs/decisions/0189).
 */
export function withWriteHook<T>(hook: (db: Db) => void, fn: () => T): T {
  return writeHook.run(hook, fn);
}

/**
 * Runs `fn` as one write of the team's records (see the module header). Returns what `fn` returns; any throw rolls
 * the whole write back.
 */
export function write<T>(db: Db, teamId: string, fn: (w: Writer) => T, options: WriteOptions = {}): T {
  const outer = active.get(db);
  if (outer) {
    if (outer.teamId !== teamId) throw new Error(`a write for team ${outer.teamId} is in progress; not mixing in ${teamId}`);
    return options.origin ? outer.as(options.origin, () => fn(outer)) : fn(outer);
  }
  const writer = new TeamWriter(
    db,
    teamId,
    options.origin ?? defaultOrigin.getStore() ?? 'local',
    options.now ?? new Date().toISOString(),
  );
  const run = db.transaction(() => {
    active.set(db, writer);
    try {
      const result = fn(writer);
      writer.flush();
      writeHook.getStore()?.(db);
      return result;
    } finally {
      active.delete(db);
    }
  });
  // Inside a caller's transaction (a read snapshot, a test's batch) this becomes a savepoint of it.
  return db.inTransaction ? run() : run.immediate();
}

/** The writer of the write in progress on this database, if any (for helpers that only make sense inside one). */
export function currentWriter(db: Db): Writer | undefined {
  return active.get(db);
}
