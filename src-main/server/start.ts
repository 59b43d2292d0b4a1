import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { startInvoiceJobs } from '../invoices/jobs';
import { type Db, openDatabase } from '../store/db';
import { type RunnerOptions, runnerOptionsFromEnv, WorkflowRunner } from '../workflows/runner';
import { buildApp } from './app';

export interface StartOptions {
  dataDir: string;
  host?: string;
  port?: number;
  rateLimitPerMinute?: number;
  /** Byte budget of the GET response cache; 0 turns it off (AppOptions.responseCacheBytes). */
  responseCacheBytes?: number;
  webRoot?: string;
  logLevel?: 'silent' | 'error' | 'warn' | 'info';
  /** The invoices' scheduler and email sender started with the server (false: none). */
  invoiceJobs?: false | { schedulerIntervalMs?: number; senderIntervalMs?: number };
  /**
   * The workflow runner started with the server (false: none). Defaults come from the environment
   * (workflows/runner.ts runnerOptionsFromEnv: allowed HTTP hosts, concurrency, lease); no HTTP host by default.
   */
  workflows?: false | RunnerOptions;
}

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
  const db = openDatabase(options.dataDir);
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
    });
    await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  } catch (err) {
    db.close();
    throw err;
  }
  // Runs execute in the background of the server; the runner claims them through the database (leases).
  const runner =
    options.workflows === false
      ? undefined
      : new WorkflowRunner(db, {
          ...runnerOptionsFromEnv(),
          ...options.workflows,
          ports: { ...runnerOptionsFromEnv().ports, ...options.workflows?.ports },
          onError: (err, runId) => app.log.error({ err, runId }, 'workflow runner failed'),
        }).start();
  // Overdue moves (caught up at once for the time the app was closed), scheduled sends and the email queue.
  const invoiceJobs =
    options.invoiceJobs === false
      ? undefined
      : startInvoiceJobs(db, {
          dataDir: options.dataDir,
          ...options.invoiceJobs,
          onError: (err) => app.log.error({ err }, 'invoice background work failed'),
        });
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
      await app.close();
      // A step in flight completes; the rest of each run is taken up by the next start.
      await runner?.stop();
      await invoiceJobs?.stop();
      db.pragma('optimize');
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
    },
  };
}
