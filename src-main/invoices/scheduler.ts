import type { Db } from '../store/db';
import { runInvoiceSchedule, type SchedulerResult } from '../store/invoice-scheduling';
import { type LeaseOptions, withLease } from '../store/leases';

/**
 * The invoice scheduler (docs/decisions/0072): overdue moves and scheduled sends, run once at start-up — which
 * catches up on everything missed while the app was closed — and then every `intervalMs`. Each run holds the named
 * lease `invoices.scheduler`, so two processes on one data dir (the server and `finops invoices run`) never run it at
 * once; a process that finds the lease taken skips that run.
 */

export const SCHEDULER_LEASE = 'invoices.scheduler';
const LEASE_TTL_MS = 5 * 60_000;

/** One run under the lease; undefined when another process holds it. */
export function runSchedulerOnce(db: Db, now = new Date(), lease: LeaseOptions = {}): SchedulerResult | undefined {
  return withLease(db, SCHEDULER_LEASE, LEASE_TTL_MS, () => runInvoiceSchedule(db, now), { ...lease, now });
}

export interface SchedulerHandle {
  /** Runs now (tests, and after writes that may have made something due). */
  runNow(): SchedulerResult | undefined;
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
