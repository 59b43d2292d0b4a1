import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { LATEST_VERSION, MIGRATIONS, type Migration } from './migrations/index';

export type Db = Database.Database;

/** The database is newer than this build of the app: opening it would risk writing rows the code does not understand. */
export class DatabaseTooNew extends Error {
  constructor(
    readonly found: number,
    readonly supported: number,
  ) {
    super(
      `database schema version ${found} is newer than this version of Finops Desk supports (${supported}); upgrade the app before opening this data`,
    );
    this.name = 'DatabaseTooNew';
  }
}

export const DB_FILE_NAME = 'finops.sqlite';

export interface OpenOptions {
  /** Migrate only up to this version (tests of historical schemas). */
  targetVersion?: number;
  readonly?: boolean;
}

/**
 * Opens (creating if needed) the data dir's database with the pragmas a finance app needs:
 * WAL so readers never block the writer and the CLI can work beside a running server; a busy timeout for the
 * writer lock; foreign keys on; and synchronous=FULL so a committed write survives power loss (its cost is
 * recorded in docs/decisions/0002-sqlite-durability.md).
 */
export function openDatabase(dataDir: string, options: OpenOptions = {}): Db {
  // The books are the owner's alone whatever the umask: a data dir made here is 0700, the database file 0600
  // (SQLite gives its -wal and -shm files the database file's mode).
  if (!fs.existsSync(dataDir)) {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    fs.chmodSync(dataDir, 0o700);
  }
  const file = path.join(dataDir, DB_FILE_NAME);
  if (!options.readonly) fs.closeSync(fs.openSync(file, 'a', 0o600));
  if (!options.readonly && (fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  return openDatabaseFile(file, options);
}

export function openDatabaseFile(file: string, options: OpenOptions = {}): Db {
  const db = new Database(file, { readonly: options.readonly ?? false });
  cacheStatements(db);
  db.pragma('busy_timeout = 5000');
  if (!options.readonly) db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  try {
    migrate(db, options.targetVersion ?? LATEST_VERSION);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

/**
 * Makes `db.prepare(sql)` return a cached statement for SQL it has compiled before on this connection. Compiling
 * was the largest single cost of a point read here (~20 % of a GET /v1/customers/{id} profile), and store modules
 * read best with their SQL written where it is used. A cached reader is handed back with its result modes
 * (pluck/raw/expand) at their defaults, so one caller's `.pluck()` never leaks into another's rows; the modes are
 * reset only when a caller changed them, since resetting all three is three native calls (~0.37 µs, more than
 * running `SELECT 1`). No store code iterates a statement lazily (`.iterate()`), so a cached statement is never busy
 * when handed out again.
 */
const STATEMENT_CACHE_SIZE = 500;

/** Each connection's own `prepare`, uncached: for statements a module keeps for itself with a fixed result mode. */
const compilers = new WeakMap<Database.Database, (source: string) => Database.Statement>();

function cacheStatements(db: Database.Database): void {
  const compile = db.prepare.bind(db) as (source: string) => Database.Statement;
  compilers.set(db, compile);
  const cache = new Map<string, Database.Statement>();
  const modeChanged = new WeakSet<Database.Statement>();
  const { pluck, raw, expand } = Object.getPrototypeOf(compile('SELECT 1')) as Database.Statement;
  db.prepare = ((source: string) => {
    let statement = cache.get(source);
    if (!statement) {
      statement = compile(source);
      if (statement.reader) {
        // Own properties shadow the prototype's setters: they note that the statement left its default modes.
        // (better-sqlite3 counts the arguments: `.pluck()` must not become `.pluck(undefined)`.)
        const noted = statement;
        const noting =
          (set: (this: Database.Statement, ...toggle: [boolean?]) => Database.Statement) =>
          (...toggle: [boolean?]) => {
            modeChanged.add(noted);
            return set.apply(noted, toggle);
          };
        noted.pluck = noting(pluck);
        noted.raw = noting(raw);
        noted.expand = noting(expand);
      }
      // Oldest out: some SQL is built from the columns a request changes, so texts can be many.
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      cache.set(source, statement);
    } else if (modeChanged.delete(statement)) {
      pluck.call(statement, false);
      raw.call(statement, false);
      expand.call(statement, false);
    }
    return statement;
  }) as typeof db.prepare;
}

/**
 * A statement compiled for one caller alone, outside the shared cache: its result mode is set once and stays. For
 * the few statements run on every request (the change stamp), where even the cache's lookup shows.
 */
export function ownStatement(db: Db, source: string): Database.Statement {
  const compile = compilers.get(db) ?? db.prepare.bind(db);
  return compile(source);
}

interface StampState {
  dataVersion: Database.Statement;
  totalChanges: Database.Statement;
  /** PRAGMA data_version as read in this turn of the event loop; undefined until a caller of this turn asks. */
  version: number | undefined;
  /** The stamp last handed out and the two counters it was made of. */
  stamp: string;
  stampVersion: number;
  stampTotal: number;
}

const stamps = new WeakMap<Db, StampState>();
/** Connections whose data_version was read in this turn (cleared at its end). */
const readThisTurn = new Set<StampState>();

/**
 * A value that changes whenever anything is committed to the database, by this connection (total_changes, no lock
 * needed) or by any other, the CLI beside the server included (data_version). Caches of database-derived values
 * (credentials, GET responses) take it as their fast path: while it has not moved, nothing changed anywhere; once it
 * moved, they compare their team's own counter (team-versions.ts), so other teams' and bookkeeping writes keep them.
 *
 * data_version needs the WAL read lock, the dearest step of a point read in a busy server (~15 µs), so it is read
 * once per turn of the event loop and reused by every request handled in that turn. Those requests had all arrived
 * when the turn began, so a commit made before a request was sent is always seen by it: what this gives up is only
 * a commit that lands while the turn runs, which its requests could not have waited for. A rolled-back write may
 * move the stamp too: that only costs a cache refill. The same string is handed out while nothing moved, so
 * callers compare stamps by identity first.
 */
export function changeStamp(db: Db): string {
  let state = stamps.get(db);
  if (!state) {
    state = {
      dataVersion: ownStatement(db, 'PRAGMA data_version').pluck(),
      totalChanges: ownStatement(db, 'SELECT total_changes()').pluck(),
      version: undefined,
      stamp: '',
      stampVersion: -1,
      stampTotal: -1,
    };
    stamps.set(db, state);
  }
  let version = state.version;
  if (version === undefined) {
    version = state.version = state.dataVersion.get() as number;
    if (readThisTurn.size === 0) setImmediate(endTurn);
    readThisTurn.add(state);
  }
  const total = state.totalChanges.get() as number;
  if (total !== state.stampTotal || version !== state.stampVersion) {
    state.stamp = `${version}:${total}`;
    state.stampVersion = version;
    state.stampTotal = total;
  }
  return state.stamp;
}

function endTurn(): void {
  for (const state of readThisTurn) state.version = undefined;
  readThisTurn.clear();
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Applies every pending migration up to `target`, each in its own immediate transaction. */
export function migrate(db: Db, target: number = LATEST_VERSION, migrations: readonly Migration[] = MIGRATIONS): void {
  const latest = migrations[migrations.length - 1]?.version ?? 0;
  const current = schemaVersion(db);
  if (current > latest) throw new DatabaseTooNew(current, latest);
  for (const m of migrations) {
    if (m.version <= current || m.version > target) continue;
    db.transaction(() => {
      // Re-read inside the write lock: another process (CLI beside the server) may have migrated meanwhile.
      if (schemaVersion(db) >= m.version) return;
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
  }
}
