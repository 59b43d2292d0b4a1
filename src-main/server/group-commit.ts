import { AsyncResource } from 'node:async_hooks';
import { runBatch } from '../store/batch';
import type { Db } from '../store/db';

/**
 * Group commit for the server's writes (docs/decisions/0187-group-commit.md).
 *
 * A write route hands its handler to `run` instead of calling it: the handler waits in a queue, and once the current
 * turn of the event loop has read every request that had arrived, the queue is written as one batch
 * (store/batch.ts: one IMMEDIATE transaction, a savepoint per request, one COMMIT) and each request is answered
 * with its own outcome. While a batch commits (the fsync of synchronous=FULL holds the thread), the requests that
 * arrive wait in their sockets and are read together in the next turn: they join the next batch. So a lone request
 * is committed at once, and fifty concurrent ones share a few fsyncs instead of paying fifty.
 *
 * A promise from `run` settles only after the COMMIT that holds the unit's writes returned: nothing is answered as
 * saved before it is on disk. A unit that throws rolls back alone; a disk that refuses the batch fails all of it.
 */
export interface GroupCommitOptions {
  /** At most this many units per commit; the rest wait for the next batch (a turn's latency stays bounded). */
  maxBatch?: number;
}

interface Waiting {
  unit: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export interface BatchStats {
  batches: number;
  units: number;
  largest: number;
}

export class GroupCommit {
  private queue: Waiting[] = [];
  private scheduled = false;
  private readonly maxBatch: number;
  readonly stats: BatchStats = { batches: 0, units: 0, largest: 0 };

  constructor(
    private readonly db: Db,
    options: GroupCommitOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 200;
  }

  /** Runs `unit` in the next batch; resolves with its result once that batch is committed. */
  run<T>(unit: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      // Bound to the request's async context: what it set for its writes (the Idempotency-Key guard's write hook,
      // a replica push's origin) holds in the batch too.
      this.queue.push({ unit: AsyncResource.bind(unit), resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // After the poll phase: every request read in this turn has queued its unit by then.
        setImmediate(() => this.flush());
      }
    });
  }

  /**
   * Writes whatever is still queued, now: the app's onClose calls it so that no queued request outlives the database
   * it was meant for (the flush scheduled for later then finds nothing).
   */
  drain(): void {
    while (this.queue.length > 0) this.flush();
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.queue.splice(0, this.maxBatch);
    if (this.queue.length > 0) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
    if (batch.length === 0) return;
    const outcomes = runBatch(
      this.db,
      batch.map((w) => w.unit),
    );
    this.stats.batches++;
    this.stats.units += batch.length;
    this.stats.largest = Math.max(this.stats.largest, batch.length);
    for (const [i, w] of batch.entries()) {
      const outcome = outcomes[i];
      if (outcome?.ok) w.resolve(outcome.value);
      else w.reject(outcome?.error ?? new Error('no outcome'));
    }
  }
}
