import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { BackupSchedulerOptions } from '../backup/scheduler';
import type { InboxIntakeOptions } from '../inbox-ingest/runner';
import { openDataDir } from '../runtime/data-dir';
import { announceServer, withdrawServer } from '../store/backups/presence';
import type { Db, OpenEvent } from '../store/db';
import type { SchedulerOptions } from '../sync/scheduler';
import type { RunnerOptions } from '../workflows/runner';
import { buildApp } from './app';

export interface StartOptions {
  dataDir: string;
  host?: string;
  port?: number;
  rateLimitPerMinute?: number;
  /** Byte budget of the GET response cache; 0 turns it off (AppOptions.responseCacheBytes). */
  responseCacheBytes?: number;
  webRoot?: string;
  /** Only the spec's and the hosted service's operations (AppOptions.specOnly). */
  specOnly?: boolean;
  logLevel?: 'silent' | 'error' | 'warn' | 'info';
  /** Answer only requests addressed to this server's own Host (AppOptions.ownHostOnly; the desktop host). */
  ownHostOnly?: boolean;
  /** The invoices' scheduler and email sender started with the server (false: none). */
  invoiceJobs?: false | { schedulerIntervalMs?: number; senderIntervalMs?: number };
  /**
   * The workflow runner started with the server (false: none). Defaults come from the environment
   * (workflows/runner.ts runnerOptionsFromEnv: concurrency, lease); allowed HTTP hosts are each team's setting.
   */
  workflows?: false | RunnerOptions;
  /** Sync rounds with each team's remote (false: none); sync/scheduler.ts. */
  sync?: false | SchedulerOptions;
  /** Each team's watched folder and IMAP mailbox (false: none); inbox-ingest/runner.ts. */
  inboxIntake?: false | InboxIntakeOptions;
  /** Scheduled backups of the data dir (false: none); backup/scheduler.ts. */
  backups?: false | BackupSchedulerOptions;
  /** What opening the data dir reports (backup before a migration, each migration); default: lines on stderr. */
  onOpenEvent?: (event: OpenEvent) => void;
}

const PRESENCE_MS = 10_000;

export interface RunningServer {
  app: FastifyInstance;
  db: Db;
  /** `http://host:port`, the API being at `${url}/v1`. */
  url: string;
  close(): Promise<void>;
}

/** The built web UI, when present (out/web after `npm run build:web`). */
export function defaultWebRoot(): string | undefined {
  const candidates = [path.resolve(__dirname, '../../out/web'), path.resolve(process.cwd(), 'out/web')];
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'index.html')));
}

/**
 * Opens the data dir and serves the v1 API (and the web UI) on host:port. Used by `finops serve` and by the
 * Electron utility process. `close()` stops accepting requests, lets those in flight finish, then checkpoints
 * and closes the database, so a SIGTERM loses nothing that was answered as committed.
 */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  const db = openDataDir(options.dataDir, { check: true, onEvent: options.onOpenEvent });
  // A long-lived connection: let SQLite gather the statistics its planner needs (bounded work; SQLite's advice).
  db.pragma('optimize=0x10002');
  let app: FastifyInstance;
  try {
    app = await buildApp({
      db,
      dataDir: options.dataDir,
      rateLimitPerMinute: options.rateLimitPerMinute,
      responseCacheBytes: options.responseCacheBytes,
      webRoot: options.webRoot ?? defaultWebRoot(),
      logLevel: options.logLevel,
      specOnly: options.specOnly,
      ownHostOnly: options.ownHostOnly,
      // The server's background work (runtime/background.ts): workflow runs, the invoices' scheduler and sender,
      // document extraction; each claims its work through the database (leases).
      workflows: options.workflows ?? {},
      invoiceJobs: options.invoiceJobs ?? {},
      sync: options.sync ?? {},
      inboxIntake: options.inboxIntake ?? {},
      backups: options.backups ?? {},
    });
    await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  } catch (err) {
    db.close();
    throw err;
  }
  // This server's presence on the data dir (`finops restore` refuses to replace a database a server has open).
  announceServer(db, PRESENCE_MS * 3);
  const presence = setInterval(() => {
    try {
      announceServer(db, PRESENCE_MS * 3);
    } catch {
      // A disk that refuses writes for a while: the next renewal tries again.
    }
  }, PRESENCE_MS);
  presence.unref();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host ?? '127.0.0.1';
  const urlHost = host.includes(':') ? `[${host}]` : host;
  let closed = false;
  return {
    app,
    db,
    url: `http://${urlHost}:${port}`,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(presence);
      // Stops the background work too (a step in flight completes; the rest is taken up by the next start).
      await app.close();
      try {
        withdrawServer(db);
      } catch {
        // Its lease lapses on its own.
      }
      db.pragma('optimize');
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
    },
  };
}
