import type { Db } from '../store/db';
import { type SchedulerHandle, startInvoiceScheduler } from './scheduler';
import { type SenderHandle, startDeliverySender } from './sender';

/**
 * The invoices' background work in a server process: the scheduler (overdue moves, scheduled sends; at start-up and
 * every 30 s) and the email sender (every 5 s, and right after each scheduler run). Both claim their work through
 * the database, so a CLI run beside the server never doubles it.
 */
export interface InvoiceJobs {
  scheduler: SchedulerHandle;
  sender: SenderHandle;
  stop(): Promise<void>;
}

export function startInvoiceJobs(
  db: Db,
  options: { dataDir?: string; schedulerIntervalMs?: number; senderIntervalMs?: number; onError?: (err: unknown) => void } = {},
): InvoiceJobs {
  const sender = startDeliverySender(db, {
    dataDir: options.dataDir,
    intervalMs: options.senderIntervalMs,
    onError: options.onError,
  });
  const scheduler = startInvoiceScheduler(db, { intervalMs: options.schedulerIntervalMs, onError: options.onError });
  const wakeAfterRuns = setInterval(() => sender.wake(), options.schedulerIntervalMs ?? 30_000);
  wakeAfterRuns.unref();
  return {
    scheduler,
    sender,
    async stop() {
      clearInterval(wakeAfterRuns);
      scheduler.stop();
      await sender.stop();
    },
  };
}
