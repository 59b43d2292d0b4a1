import { BackupScheduler, type BackupSchedulerOptions } from '../backup/scheduler';
import { DocumentRunner, type DocumentRunnerOptions } from '../documents/runner';
import { InboxIntake, type InboxIntakeOptions } from '../inbox-ingest/runner';
import { type HandOffOptions, type HandOffRunner, startHandOffRunner } from '../invoices/hand-off-runner';
import { type InvoiceJobs, startInvoiceJobs } from '../invoices/jobs';
import type { Db } from '../store/db';
import { type SchedulerOptions, SyncScheduler } from '../sync/scheduler';
import { type RunnerOptions, retiredEnvSettings, runnerOptionsFromEnv, WorkflowRunner } from '../workflows/runner';
import { installSubscriptions } from './subscriptions';

/**
 * The one place that starts and stops the product's background work in a process. Every runner claims its work
 * through the database with a lease, so the server and a CLI command on one data dir never run the same job twice:
 * - workflows: the run engine (workflows/runner.ts), which also fires due schedules;
 * - invoices: the scheduler (overdue moves, scheduled sends, payment matching) and the email sender;
 * - e-invoice hand-offs to the teams' Peppol access points (invoices/hand-off-runner.ts), with the invoices;
 * - documents: extraction, inbox matching and file housekeeping (documents/runner.ts);
 * - inbox intake: each team's watched folder and IMAP mailbox (inbox-ingest/runner.ts), new items handed to documents;
 * - sync: rounds with each team's remote, periodic and soon after local edits (sync/scheduler.ts).
 * A server starts the set it is configured with (server/start.ts through the app); a CLI command that advances work
 * beside it uses the one-shot helpers below. Each kind can be turned off (`false`), as tests of other areas do.
 */
export interface BackgroundOptions {
  /** The data dir (stored files, invoice PDFs). */
  dataDir: string;
  workflows?: false | RunnerOptions;
  invoices?: false | { schedulerIntervalMs?: number; senderIntervalMs?: number };
  /** On with the invoices unless `false`. */
  peppol?: false | (HandOffOptions & { intervalMs?: number });
  /** `runner: false` creates the runner without its timer (tests drive it by hand). */
  documents?: false | (DocumentRunnerOptions & { runner?: boolean });
  sync?: false | SchedulerOptions;
  /** Off unless given (a server turns it on; tests of other areas need no folder watchers or mail polls). */
  inboxIntake?: false | InboxIntakeOptions;
  /** Scheduled backups of the data dir (backup/scheduler.ts); off unless given (a server turns it on). */
  backups?: false | BackupSchedulerOptions;
  onError?: (err: unknown, area: 'workflows' | 'invoices' | 'documents' | 'sync' | 'inbox' | 'backups', id?: string) => void;
}

export interface BackgroundWork {
  readonly workflows: WorkflowRunner | undefined;
  readonly invoices: InvoiceJobs | undefined;
  readonly peppol: HandOffRunner | undefined;
  readonly documents: DocumentRunner | undefined;
  readonly sync: SyncScheduler | undefined;
  readonly inboxIntake: InboxIntake | undefined;
  readonly backups: BackupScheduler | undefined;
  /** Stops every runner; a step in flight completes and the rest is taken up by the next start. */
  stop(): Promise<void>;
}

/** What runs in this process for each database (tests wait on its runners). */
const running = new WeakMap<Db, BackgroundWork>();

export function backgroundOf(db: Db): BackgroundWork | undefined {
  return running.get(db);
}

export function startBackgroundWork(db: Db, options: BackgroundOptions): BackgroundWork {
  installSubscriptions();
  const onError = options.onError ?? (() => {});
  const retired = retiredEnvSettings();
  if (retired && options.workflows !== false) onError(new Error(retired), 'workflows');
  const workflows =
    options.workflows === false
      ? undefined
      : new WorkflowRunner(db, {
          ...runnerOptionsFromEnv(),
          ...options.workflows,
          onError: options.workflows?.onError ?? ((err, runId) => onError(err, 'workflows', runId)),
        }).start();
  // Overdue moves (caught up at once for the time the app was closed), scheduled sends and the email queue.
  const invoices =
    options.invoices === false
      ? undefined
      : startInvoiceJobs(db, { dataDir: options.dataDir, ...options.invoices, onError: (err) => onError(err, 'invoices') });
  const peppol =
    options.invoices === false || options.peppol === false
      ? undefined
      : startHandOffRunner(db, {
          dataDir: options.dataDir,
          // A sender interval given for the invoices (tests) paces the hand-offs too; else the runner's own 10 s.
          intervalMs: options.invoices?.senderIntervalMs,
          ...options.peppol,
          onError: (err) => onError(err, 'invoices'),
        });
  let documents: DocumentRunner | undefined;
  if (options.documents !== false) {
    documents = new DocumentRunner(db, options.dataDir, options.documents);
    if (options.documents?.runner !== false) documents.start();
  }
  const sync =
    options.sync === false || options.sync === undefined
      ? undefined
      : new SyncScheduler(db, { ...options.sync, onError: (err, teamId) => onError(err, 'sync', teamId) }).start();
  const inboxIntake =
    options.inboxIntake === false || options.inboxIntake === undefined
      ? undefined
      : new InboxIntake(db, options.dataDir, {
          ...options.inboxIntake,
          onIngested: () => documents?.kick(),
          onError: (err, teamId) => onError(err, 'inbox', teamId),
        }).start();
  const backups =
    options.backups === false || options.backups === undefined
      ? undefined
      : new BackupScheduler(db, options.dataDir, { ...options.backups, onError: (err) => onError(err, 'backups') }).start();
  let stopped = false;
  const work: BackgroundWork = {
    workflows,
    invoices,
    peppol,
    documents,
    sync,
    inboxIntake,
    backups,
    async stop() {
      if (stopped) return;
      stopped = true;
      if (running.get(db) === work) running.delete(db);
      await inboxIntake?.stop();
      await workflows?.stop();
      await invoices?.stop();
      await peppol?.stop();
      await documents?.stop();
      await sync?.stop();
      await backups?.stop();
    },
  };
  running.set(db, work);
  started.set(db, options);
  return work;
}

const started = new WeakMap<Db, BackgroundOptions>();

/**
 * Stops this database's background work and hands back a function that starts it again with the same options
 * (a restore into a running server: nothing may write while the data is replaced).
 */
export async function pauseBackgroundWork(db: Db): Promise<() => void> {
  const work = running.get(db);
  const options = started.get(db);
  await work?.stop();
  return () => {
    if (work && options) startBackgroundWork(db, options);
  };
}

/**
 * A workflow runner for a CLI command that advances the run it just started or decided, and nothing else in the
 * background (no schedules, no polling): the command drives it until the run waits or ends.
 */
export function commandWorkflowRunner(db: Db): WorkflowRunner {
  installSubscriptions();
  return new WorkflowRunner(db, { ...runnerOptionsFromEnv(), schedules: false });
}
