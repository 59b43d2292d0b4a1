import crypto from 'node:crypto';
import fs from 'node:fs';
import { blobStore } from '../infra/blob-store';
import type { Db } from '../store/db';
import type { BlobStore } from '../store/files/stored-files';
import { type InboxSource, inboxSourcesOfKind, recordInboxSourceRun } from '../store/inbox/sources';
import { PROCESS_OWNER, withLeaseAsync } from '../store/leases';
import { FolderScanner } from './folder';
import { fetchMailbox } from './imap';
import { readInboxSecrets } from './secrets';

/**
 * The inbox's background intake (docs/decisions/0150-inbox-ingestion.md), started by runtime/background.ts:
 * - folders: each team's watched folder is looked at when it changes (fs.watch) and every `folderPollMs` anyway
 *   (network drives and some container mounts send no events);
 * - mailboxes: each team's IMAP mailbox is fetched every `imapPollMs`.
 * Each team's source is claimed with a lease (`inbox-folder:<team>`, `inbox-imap:<team>`), so the server and a
 * `finops inbox fetch` on one data dir never take the same mail or file at once; the ingestion ledger makes a second
 * look harmless anyway. What a run found wrong is kept on the source (its last error), shown to the owner.
 */
export interface InboxIntakeOptions {
  folderPollMs?: number;
  imapPollMs?: number;
  /** A file must be unmodified this long before it is taken (it may still be being written). */
  settleMs?: number;
  imapTimeoutMs?: number;
  /** Called after a run created inbox items (the document runner extracts them). */
  onIngested?: () => void;
  onError?: (err: unknown, teamId: string) => void;
}

export type IntakeKind = 'folder' | 'imap';

export interface IntakeOutcome {
  teamId: string;
  kind: IntakeKind;
  /** Another process held the source's lease: nothing was done here. */
  busy: boolean;
  created: number;
  duplicates: number;
  skipped: number;
  error: string | null;
}

const LEASE_MS = 2 * 60_000;

export const intakeLeaseName = (kind: IntakeKind, teamId: string) => `inbox-${kind}:${teamId}`;

export class InboxIntake {
  private readonly blobs: BlobStore;
  private readonly scanner: FolderScanner;
  /** Own lease identity: two runs in one process must not both pass as the same holder. */
  private readonly owner = `${PROCESS_OWNER}:inbox:${crypto.randomBytes(3).toString('hex')}`;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly watchers = new Map<string, { path: string; watcher: fs.FSWatcher }>();
  private readonly runs: Record<IntakeKind, { running?: Promise<unknown>; again: boolean }> = {
    folder: { again: false },
    imap: { again: false },
  };
  private stopped = false;
  private started = false;
  private readonly stopping = new AbortController();

  constructor(
    private readonly db: Db,
    private readonly dataDir: string,
    private readonly options: InboxIntakeOptions = {},
  ) {
    this.blobs = blobStore(dataDir);
    this.scanner = new FolderScanner(db, this.blobs, options.settleMs ?? 1000);
  }

  start(): this {
    this.started = true;
    const every = (ms: number, fn: () => void) => {
      const t = setInterval(fn, ms);
      t.unref();
      this.timers.push(t);
    };
    every(this.options.folderPollMs ?? 10_000, () => this.kick('folder'));
    every(this.options.imapPollMs ?? 60_000, () => this.kick('imap'));
    this.kick('folder');
    this.kick('imap');
    return this;
  }

  /** Runs a round of one kind now, or right after the one in progress; nothing before start() or after stop(). */
  kick(kind: IntakeKind): void {
    if (this.stopped || !this.started) return;
    const state = this.runs[kind];
    if (state.running) {
      state.again = true;
      return;
    }
    state.running = this.round(kind)
      .catch(() => {})
      .finally(() => {
        state.running = undefined;
        if (state.again) {
          state.again = false;
          this.kick(kind);
        }
      });
  }

  /** Resolves when no round is running (tests). */
  async idle(): Promise<void> {
    while (this.runs.folder.running || this.runs.imap.running) {
      await Promise.all([this.runs.folder.running, this.runs.imap.running]);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    for (const t of this.timers.splice(0)) clearInterval(t);
    for (const w of this.watchers.values()) w.watcher.close();
    this.watchers.clear();
    await this.idle();
  }

  /** One round of one kind over every team that has such a source, or one team's (`finops inbox fetch`, the app). */
  async round(kind: IntakeKind, teamId?: string): Promise<IntakeOutcome[]> {
    const all = inboxSourcesOfKind(this.db, kind);
    if (kind === 'folder' && teamId === undefined) this.watch(all as InboxSource<'folder'>[]);
    const sources = teamId === undefined ? all : all.filter((s) => s.teamId === teamId);
    const outcomes: IntakeOutcome[] = [];
    for (const source of sources) {
      if (this.stopped) break;
      outcomes.push(await this.runSource(source));
    }
    if (outcomes.some((o) => o.created > 0)) this.options.onIngested?.();
    return outcomes;
  }

  private async runSource(source: InboxSource): Promise<IntakeOutcome> {
    const kind = source.kind as IntakeKind;
    const outcome: IntakeOutcome = {
      teamId: source.teamId,
      kind,
      busy: true,
      created: 0,
      duplicates: 0,
      skipped: 0,
      error: null,
    };
    await withLeaseAsync(
      this.db,
      intakeLeaseName(kind, source.teamId),
      LEASE_MS,
      async () => {
        outcome.busy = false;
        try {
          const taken = await this.take(source);
          outcome.created = taken.created;
          outcome.duplicates = taken.duplicates;
          outcome.skipped = taken.skipped;
          if (kind === 'folder') recordInboxSourceRun(this.db, source.teamId, kind, { error: null });
        } catch (err) {
          outcome.error = err instanceof Error ? err.message : String(err);
          recordInboxSourceRun(this.db, source.teamId, kind, { error: outcome.error });
          this.options.onError?.(err, source.teamId);
        }
      },
      { owner: this.owner, teamId: source.teamId },
    );
    return outcome;
  }

  private async take(source: InboxSource): Promise<{ created: number; duplicates: number; skipped: number }> {
    if (source.kind === 'folder') {
      const look = await this.scanner.look(source as InboxSource<'folder'>);
      // A file still being written is looked at again once it has had time to settle.
      if (look.unsettled > 0) setTimeout(() => this.kick('folder'), this.options.settleMs ?? 1000).unref();
      return look;
    }
    const password = readInboxSecrets(this.dataDir, source.teamId).imapPassword;
    if (!password) throw new Error('no IMAP password is set: finops inbox imap set … --password-stdin, or the app');
    return fetchMailbox(this.db, this.blobs, source as InboxSource<'imap'>, password, {
      timeoutMs: this.options.imapTimeoutMs,
      signal: this.stopping.signal,
    });
  }

  /** Keeps one watcher per watched folder; a folder that cannot be watched is still looked at on the timer. */
  private watch(sources: readonly InboxSource<'folder'>[]): void {
    if (!this.started || this.stopped) return;
    const wanted = new Map(sources.map((s) => [s.teamId, s.config.path]));
    for (const [teamId, w] of this.watchers) {
      if (wanted.get(teamId) !== w.path) {
        w.watcher.close();
        this.watchers.delete(teamId);
      }
    }
    for (const [teamId, path] of wanted) {
      if (this.watchers.has(teamId)) continue;
      try {
        const watcher = fs.watch(path, { persistent: false }, () => this.kick('folder'));
        watcher.on('error', () => {
          watcher.close();
          this.watchers.delete(teamId);
        });
        this.watchers.set(teamId, { path, watcher });
      } catch {
        // missing or unwatchable: the timer's looks report it
      }
    }
  }
}
