import { currentSeq } from '../store/changes';
import type { Db } from '../store/db';
import { entitiesChangedSince, type MatchResult, matchInvoicePayments, teamSequences } from '../store/invoices/matching';
import { runInvoiceSchedule, type SchedulerResult } from '../store/invoices/scheduling';
import { type LeaseOptions, withLease } from '../store/leases';

/**
 * The invoice scheduler (docs/decisions/0072): overdue moves, scheduled sends and payment matching, run once at start-up — which
 * catches up on everything missed while the app was closed — and then every `intervalMs`. Each run holds the named
 * lease `invoices.scheduler`, so two processes on one data dir (the server and `finops invoices run`) never run it at
 * once; a process that finds the lease taken skips that run.
 */

export const SCHEDULER_LEASE = 'invoices.scheduler';
const LEASE_TTL_MS = 5 * 60_000;

export interface SchedulerRun extends SchedulerResult {
  /** Payments applied by the matcher in this run. */
  matched: MatchResult['applied'];
}

/** The records whose changes can change a match. */
const MATCH_INPUTS = ['transaction', 'invoice', 'customer'] as const;
/** Per database: the change sequence of each team when its payments were last matched. */
const matchedAt = new WeakMap<Db, Map<string, number>>();

/**
 * Payment matching for every team whose transactions, invoices or customers changed since its last matching in this
 * process (and for every team on the first run): new transactions or newly issued invoices are matched within one
 * scheduler interval. The scoring reads without the write lock; a pass that finds nothing new writes nothing.
 */
function matchChangedTeams(db: Db, now: Date): MatchResult['applied'] {
  let seen = matchedAt.get(db);
  if (!seen) {
    seen = new Map();
    matchedAt.set(db, seen);
  }
  const applied: MatchResult['applied'] = [];
  for (const team of teamSequences(db)) {
    const last = seen.get(team.id);
    if (last === team.seq) continue;
    if (last === undefined || entitiesChangedSince(db, team.id, last, MATCH_INPUTS)) {
      applied.push(...matchInvoicePayments(db, team.id, { now }).applied);
    }
    seen.set(team.id, currentSeq(db, team.id));
  }
  return applied;
}

/** One run under the lease; undefined when another process holds it. */
export function runSchedulerOnce(db: Db, now = new Date(), lease: LeaseOptions = {}): SchedulerRun | undefined {
  return withLease(
    db,
    SCHEDULER_LEASE,
    LEASE_TTL_MS,
    () => {
      const schedule = runInvoiceSchedule(db, now);
      return { ...schedule, matched: matchChangedTeams(db, now) };
    },
    { ...lease, now },
  );
}

export interface SchedulerHandle {
  /** Runs now (tests, and after writes that may have made something due). */
  runNow(): SchedulerRun | undefined;
  stop(): void;
}

export function startInvoiceScheduler(
  db: Db,
  options: { intervalMs?: number; onError?: (err: unknown) => void; clock?: () => Date } = {},
): SchedulerHandle {
  const clock = options.clock ?? (() => new Date());
  const run = () => {
    try {
      return runSchedulerOnce(db, clock());
    } catch (err) {
      options.onError?.(err);
      return undefined;
    }
  };
  run();
  const timer = setInterval(run, options.intervalMs ?? 30_000);
  timer.unref();
  return {
    runNow: run,
    stop: () => clearInterval(timer),
  };
}
