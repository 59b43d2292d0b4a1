import type { SyncEntity } from '../../src-shared/domain/sync/fields';
import type { Db } from '../store/db';
import { renewLease } from '../store/leases';
import type { SyncRemote } from '../store/sync/remotes';
import { setRemoteState } from '../store/sync/remotes';
import { type Writer, write } from '../store/write';
import type { RemoteCapabilities } from './capabilities';
import type { RemoteClient } from './remote-client';

/** Everything one round works with; made by round.ts, passed to pull, push and apply. */
export interface RoundContext {
  db: Db;
  teamId: string;
  remote: SyncRemote;
  caps: RemoteCapabilities;
  client: RemoteClient;
  /** The round's lease (`sync:<team>`) and its owner: every commit checks it is still ours. */
  leaseName: string;
  leaseOwner: string;
  leaseTtlMs: number;
  counts: RoundCounts;
  progress: Progress;
  /** Remote lists read once per round (tags by name, categories by slug). */
  cache: Map<string, unknown>;
  /** Records per page of the remote's change feed (default 1000). */
  pageSize: number;
  signal?: AbortSignal;
  /** The remote team as `GET /teams` shows it (its country decides what its default categories hold). */
  remoteTeam?: { id: string; baseCurrency?: string; countryCode?: string | null };
  /** Outbox entries the remote failed on in this round: not tried again before the next round. */
  failedEntries: Set<string>;
  /**
   * The round's pull is complete: what the remote held then is known here (linked, or refused with a conflict), so
   * a create need not ask the remote for a twin first; one made there since is met by the create's answer (409).
   */
  pulled: boolean;
}

export interface RoundCounts {
  pulled: number;
  pushed: number;
  conflicts: number;
  /** Changes the remote failed on this round (each tried again next round, up to a cap, then reported). */
  failed: number;
  /** Records by entity touched by this round (tests, logs). */
  byEntity: Partial<Record<SyncEntity, { pulled: number; pushed: number }>>;
}

/** Counts one record pulled or pushed, in total and for its entity. */
export function count(ctx: RoundContext, entity: SyncEntity, what: 'pulled' | 'pushed'): void {
  ctx.counts[what]++;
  const c = ctx.counts.byEntity[entity] ?? { pulled: 0, pushed: 0 };
  c[what]++;
  ctx.counts.byEntity[entity] = c;
}

/** The round lost its lease (expired while it waited, taken by another process): it stops; nothing half-done stays. */
export class LeaseLost extends Error {
  override name = 'LeaseLost';
}

/** Renews the round's lease; throws LeaseLost when another process holds it now. Called before each commit. */
export function checkLease(ctx: RoundContext): void {
  if (!renewLease(ctx.db, ctx.leaseName, ctx.leaseTtlMs, { owner: ctx.leaseOwner })) {
    throw new LeaseLost(
      'the sync round lost its lease (another process took over the round); nothing after the last commit was kept',
    );
  }
}

/**
 * A commit of the round's own bookkeeping (outbox, id map, cursors, conflicts) that writes no record: one immediate
 * transaction, its lease checked first, like every other commit of the round.
 */
export function commit<T>(ctx: RoundContext, fn: () => T): T {
  return ctx.db
    .transaction(() => {
      checkLease(ctx);
      return fn();
    })
    .immediate();
}

/** A write of the round's: origin `sync`, its lease checked first (LeaseLost when another process holds it now). */
export function roundWrite<T>(ctx: RoundContext, fn: (w: Writer) => T): T {
  return write(
    ctx.db,
    ctx.teamId,
    (w) => {
      checkLease(ctx);
      return fn(w);
    },
    { origin: 'sync' },
  );
}

export type ProgressListener = (p: { phase: string; done: number; total: number }) => void;

/**
 * Progress of a round: shown on the CLI's progress bar and stored on the remote's row (at most every 250 ms), where
 * the app's status route and `finops sync status` read it.
 */
export class Progress {
  private lastStored = 0;
  phase = 'starting';
  done = 0;
  total = 0;

  constructor(
    private readonly db: Db,
    private readonly remoteId: string,
    private readonly listener?: ProgressListener,
  ) {}

  set(phase: string, done: number, total: number): void {
    this.phase = phase;
    this.done = done;
    this.total = total;
    this.listener?.({ phase, done, total });
    const now = Date.now();
    if (now - this.lastStored >= 250 || done === total) {
      this.lastStored = now;
      setRemoteState(this.db, this.remoteId, { progress: { phase, done, total } });
    }
  }

  add(n: number): void {
    this.set(this.phase, this.done + n, Math.max(this.total, this.done + n));
  }
}
