import { lastSuccessfulBackup } from '../store/backups/settings';
import type { Db } from '../store/db';
import { acquireLease, releaseLease } from '../store/leases';
import type { CreatedBackup } from './archive';
import { backUp, backupDue, settleAbandonedRuns } from './service';

/**
 * The server's scheduled backups (docs/decisions/0185-backups.md): every `checkIntervalMs` it asks whether one is
 * due (the data dir's settings: on, every N hours) and makes it under the lease `backups`, so two servers or a
 * server and `finops backup` on one data dir never write two at once. "Back up now" goes through the same lease.
 */
export const BACKUP_LEASE = 'backups';
const LEASE_MS = 30 * 60_000;

export class BackupBusy extends Error {
  constructor() {
    super('a backup of this data dir is being made right now; try again when it is done');
    this.name = 'BackupBusy';
  }
}

export interface BackupSchedulerOptions {
  checkIntervalMs?: number;
  onError?: (err: unknown) => void;
  /** The scheduler's clock (tests). */
  now?: () => Date;
}

export class BackupScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | null = null;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly dataDir: string,
    private readonly options: BackupSchedulerOptions = {},
  ) {}

  start(): this {
    settleAbandonedRuns(this.db, this.now());
    this.timer = setInterval(() => void this.tick(), this.options.checkIntervalMs ?? 60_000);
    // The first check comes one interval after the start, not at once: a start (a restart loop, a test's server)
    // is not a reason for an archive, and the start itself stays as quick as before.
    this.timer.unref();
    return this;
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  /** Makes a scheduled backup when one is due; resolves when done (or at once when not due / busy). */
  async tick(): Promise<CreatedBackup | undefined> {
    if (this.stopped || this.running) return undefined;
    const now = this.now();
    if (!backupDue(this.db, lastSuccessfulBackup(this.db), now)) return undefined;
    try {
      return await this.run('scheduled', now);
    } catch (err) {
      if (!(err instanceof BackupBusy)) this.options.onError?.(err);
      return undefined;
    }
  }

  /** A backup now ("back up now"); BackupBusy while another is being made. */
  backUpNow(): Promise<CreatedBackup> {
    if (this.running) return Promise.reject(new BackupBusy());
    return this.run('manual', this.now());
  }

  /** Waits for a backup in progress (a restore must not overlap one). */
  async idle(): Promise<void> {
    await this.running?.catch(() => undefined);
  }

  private async run(trigger: 'scheduled' | 'manual', now: Date): Promise<CreatedBackup> {
    if (!acquireLease(this.db, BACKUP_LEASE, LEASE_MS)) throw new BackupBusy();
    const job = backUp(this.db, this.dataDir, { trigger, mode: 'online', now }).finally(() => {
      this.running = null;
      try {
        releaseLease(this.db, BACKUP_LEASE);
      } catch {
        // The database is closing: the lease lapses on its own.
      }
    });
    this.running = job;
    return job;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.idle();
  }
}
