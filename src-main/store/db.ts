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

/** The database file is not a database, or SQLite found it damaged: nothing is written to it (restore a backup). */
export class DatabaseCorrupt extends Error {
  constructor(
    readonly file: string,
    readonly detail: string,
  ) {
    super(
      `the database ${file} is damaged (${detail}); it was left as it is. Restore a backup with finops restore --from FILE --data-dir DIR --force, or move the file away to start empty`,
    );
    this.name = 'DatabaseCorrupt';
  }
}

export const DB_FILE_NAME = 'finops.sqlite';
/** Where backups go unless the data dir's settings name another folder (backups/ beside the database). */
export const DEFAULT_BACKUPS_DIR = 'backups';

/** What opening a data dir reports while it works: the backup before migrating, then each migration. */
export type OpenEvent =
  | { type: 'checking'; file: string }
  | { type: 'backup'; path: string; from: number; to: number }
  | { type: 'migration'; version: number; name: string; index: number; total: number }
  | { type: 'migrated'; from: number; to: number; ms: number };

export interface OpenOptions {
  /** Migrate only up to this version (tests of historical schemas). */
  targetVersion?: number;
  readonly?: boolean;
  /**
   * `PRAGMA quick_check` before anything else (a server's start); it always runs before migrations. Its cost grows
   * with the file (docs/decisions/0186-start-up-safety.md), so a CLI command skips it, and a file larger than
   * QUICK_CHECK_MAX_BYTES is not checked.
   */
  check?: boolean;
  /** Progress of the checks, the backup and the migrations (the desktop host shows it; the CLI prints it). */
  onEvent?: (event: OpenEvent) => void;
  /** Copy the database before migrating it (default true for a data dir; off only in tests of migrations). */
  backupBeforeMigrating?: boolean;
}

/**
 * Opens (creating if needed) the data dir's database with the pragmas a finance app needs:
 * WAL so readers never block the writer and the CLI can work beside a running server; a busy timeout for the
 * writer lock; foreign keys on; and synchronous=FULL so a committed write survives power loss (its cost is
 * recorded in docs/decisions/0002-sqlite-durability.md).
 *
 * Before anything is written (docs/decisions/0186-start-up-safety.md): a file that is not a SQLite database, or one
 * SQLite finds damaged, is refused with DatabaseCorrupt; a database newer than this code with DatabaseTooNew; and a
 * database about to be migrated is first copied (VACUUM INTO) to `<backups>/before-migration-vA-to-vB-….sqlite`,
 * reported through `onEvent`.
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

/**
 * Up to this size a start runs `PRAGMA quick_check` (~1 s here at 64 MiB); above it, only what opening reads (the
 * header, the schema): quick_check took 39.7 s on a 1.9 GB database with 1M transactions on this machine. Every
 * backup checks its copy whole, so a damaged large database is found by the next backup.
 */
export const QUICK_CHECK_MAX_BYTES = 64 * 1024 * 1024;

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

const SQLITE_MAGIC = 'SQLite format 3\u0000';

/** The header of an existing, non-empty file says whether it is a SQLite database at all. */
function headerProblem(file: string): string | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const head = Buffer.alloc(16);
    const read = fs.readSync(fd, head, 0, 16, 0);
    if (read === 0) return undefined;
    return head.toString('latin1', 0, read) === SQLITE_MAGIC ? undefined : 'not a SQLite database';
  } finally {
    fs.closeSync(fd);
  }
}

function isCorruption(err: unknown): boolean {
  const code = (err as { code?: string }).code ?? '';
  return code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT_');
}

export function openDatabaseFile(file: string, options: OpenOptions = {}): Db {
  const problem = headerProblem(file);
  if (problem) throw new DatabaseCorrupt(file, problem);
  const db = new Database(file, { readonly: options.readonly ?? false });
  try {
    cacheStatements(db);
    db.pragma('busy_timeout = 5000');
    // Nothing is written before the checks: a database from a newer version or a damaged one stays as it was.
    const current = schemaVersion(db);
    const latest = LATEST_VERSION;
    if (current > latest) throw new DatabaseTooNew(current, latest);
    const target = options.targetVersion ?? latest;
    const migrating = current > 0 && current < target && !options.readonly;
    if ((options.check || migrating) && fileSize(file) <= QUICK_CHECK_MAX_BYTES) {
      options.onEvent?.({ type: 'checking', file });
      const result = quickCheck(db);
      if (result !== 'ok') throw new DatabaseCorrupt(file, result);
    }
    if (!options.readonly) db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    if (migrating && options.backupBeforeMigrating !== false) {
      const copy = backupBeforeMigration(db, current, target);
      options.onEvent?.({ type: 'backup', path: copy, from: current, to: target });
    }
    const started = Date.now();
    migrate(db, target, MIGRATIONS, options.onEvent);
    if (current > 0 && current < target)
      options.onEvent?.({ type: 'migrated', from: current, to: target, ms: Date.now() - started });
  } catch (err) {
    db.close();
    // Damage met anywhere while opening (the schema, a page the checks read) is the same finding.
    if (isCorruption(err)) throw new DatabaseCorrupt(file, (err as Error).message);
    throw err;
  }
  return db;
}

/** 'ok', or the first problems SQLite's quick check found; corruption found while reading counts as a problem. */
export function quickCheck(db: Db): string {
  try {
    const rows = db.pragma('quick_check(10)') as { quick_check: string }[];
    return rows.map((r) => r.quick_check).join('; ') || 'ok';
  } catch (err) {
    if (isCorruption(err)) return (err as Error).message;
    throw err;
  }
}

/** The folder backups go to: the data dir's setting (migration 026), else backups/ beside the database. */
export function backupsFolderOf(db: Db): string {
  let folder: string | null = null;
  try {
    folder = db.prepare('SELECT folder FROM backup_settings WHERE id = 1').pluck().get() as string | null;
  } catch {
    // Before migration 026 there are no settings: the default folder.
  }
  return folder ? path.resolve(folder) : path.join(path.dirname(db.name), DEFAULT_BACKUPS_DIR);
}

/**
 * A copy of the database as it is before a migration (VACUUM INTO: consistent, compact), kept next to the data dir's
 * other backups. Migrations change only the database, so the copy with the data dir's files is the state before.
 */
function backupBeforeMigration(db: Db, from: number, to: number): string {
  const folder = backupsFolderOf(db);
  fs.mkdirSync(folder, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const target = path.join(folder, `before-migration-v${from}-to-v${to}-${stamp}.sqlite`);
  const tmp = `${target}.tmp`;
  fs.rmSync(tmp, { force: true });
  db.prepare('VACUUM INTO ?').run(tmp);
  const fd = fs.openSync(tmp, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, target);
  return target;
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
export function migrate(
  db: Db,
  target: number = LATEST_VERSION,
  migrations: readonly Migration[] = MIGRATIONS,
  onEvent?: (event: OpenEvent) => void,
): void {
  const latest = migrations[migrations.length - 1]?.version ?? 0;
  const current = schemaVersion(db);
  if (current > latest) throw new DatabaseTooNew(current, latest);
  const pending = migrations.filter((m) => m.version > current && m.version <= target);
  for (const [index, m] of pending.entries()) {
    if (current > 0) onEvent?.({ type: 'migration', version: m.version, name: m.name, index, total: pending.length });
    db.transaction(() => {
      // Re-read inside the write lock: another process (CLI beside the server) may have migrated meanwhile.
      if (schemaVersion(db) >= m.version) return;
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
  }
}
