import { type Change, changesSince, currentSeq } from '../store/changes';
import { changeStamp, type Db } from '../store/db';

/**
 * Watches one database's change feed for live subscribers (the `/app/changes/stream` SSE route), one poller per
 * database however many subscribers it has.
 *
 * Commits come from this process and from others on the same data dir (the CLI), so there is nothing to hook:
 * the watcher polls. Each tick it reads the database's change stamp (store/db.ts `changeStamp`, a few µs) and reads
 * the feed only when the stamp moved, once per team that has subscribers, from the team's last delivered seq.
 * Subscribing and polling are synchronous (better-sqlite3), so a new subscriber's replay and the live feed meet
 * at one seq with nothing lost or doubled between them.
 */
export type ChangeListener = (changes: readonly Change[]) => void;

export interface Subscription {
  /** The team's changes after `since` up to `position`, oldest first; empty without `since`. */
  replay: Change[];
  /** The seq the live feed continues after. */
  position: number;
  unsubscribe(): void;
}

interface TeamFeed {
  /** The last seq read from the feed for this team. */
  seq: number;
  listeners: Set<ChangeListener>;
}

export const DEFAULT_POLL_MS = 200;
const BATCH = 1000;

export class ChangeWatcher {
  private readonly teams = new Map<string, TeamFeed>();
  private timer: NodeJS.Timeout | null = null;
  private stamp = '';

  constructor(
    private readonly db: Db,
    private readonly pollMs = DEFAULT_POLL_MS,
  ) {}

  /** Subscribes `listener` to the team's changes; `since` asks for a replay of what came after it first. */
  subscribe(teamId: string, since: number | undefined, listener: ChangeListener): Subscription {
    let feed = this.teams.get(teamId);
    if (!feed) {
      feed = { seq: currentSeq(this.db, teamId), listeners: new Set() };
      this.teams.set(teamId, feed);
      // Another process may have committed after that read under a stamp the last tick already saw: read next tick.
      this.stamp = '';
    }
    const position = feed.seq;
    const replay: Change[] = [];
    // The changes table keeps one row per record (its latest change), so a record changed again after `position`
    // shows with its newer seq: it is left to the live feed.
    for (let after = since ?? position; after < position; ) {
      const batch = changesSince(this.db, teamId, after, BATCH);
      for (const c of batch) if (c.seq <= position) replay.push(c);
      if (batch.length < BATCH) break;
      after = batch[batch.length - 1]!.seq;
    }
    feed.listeners.add(listener);
    this.start();
    const owned = feed;
    return {
      replay,
      position,
      unsubscribe: () => {
        owned.listeners.delete(listener);
        if (owned.listeners.size === 0 && this.teams.get(teamId) === owned) this.teams.delete(teamId);
        if (this.teams.size === 0) this.stop();
      },
    };
  }

  get subscriberCount(): number {
    let n = 0;
    for (const feed of this.teams.values()) n += feed.listeners.size;
    return n;
  }

  /** One tick: reads the feed of every watched team if anything was committed since the last tick. */
  poll(): void {
    if (!this.db.open) {
      this.stop();
      return;
    }
    const stamp = changeStamp(this.db);
    if (stamp === this.stamp) return;
    // Taken before reading: a commit landing during the reads moves the stamp again and is read next tick.
    this.stamp = stamp;
    for (const [teamId, feed] of this.teams) {
      for (;;) {
        const batch = changesSince(this.db, teamId, feed.seq, BATCH);
        if (batch.length === 0) break;
        feed.seq = batch[batch.length - 1]!.seq;
        for (const listener of [...feed.listeners]) listener(batch);
        if (batch.length < BATCH) break;
      }
    }
  }

  private start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.poll(), this.pollMs);
    // Open streams keep the server alive, not this timer.
    this.timer.unref();
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

const watchers = new WeakMap<Db, ChangeWatcher>();

/** The database's one watcher (created on first use; `pollMs` counts only then). */
export function changeWatcher(db: Db, pollMs?: number): ChangeWatcher {
  let watcher = watchers.get(db);
  if (!watcher) {
    watcher = new ChangeWatcher(db, pollMs);
    watchers.set(db, watcher);
  }
  return watcher;
}
