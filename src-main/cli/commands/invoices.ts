import { Command, Option } from 'commander';
import { runSchedulerOnce } from '../../invoices/scheduler';
import { drainDeliveries } from '../../invoices/sender';
import { openDataDir } from '../../runtime/data-dir';
import { deliveryCounts } from '../../store/invoices/deliveries';
import { dataDirOption, parsePositiveInt, resolveDataDir } from '../program';

/**
 * `finops invoices run`: the invoices' background work without a server — one scheduler run (overdue moves,
 * scheduled sends) and the email queue sent until empty. Safe beside a running server: both claim their work
 * through the database (the scheduler's lease, the queue rows' leases).
 */
export function invoicesCommand(): Command {
  const invoices = new Command('invoices');
  invoices
    .command('run')
    .description(
      'run the invoice scheduler once (overdue, scheduled sends, payment matching) and send the queued emails; prints a JSON summary',
    )
    .addOption(dataDirOption())
    .addOption(
      new Option(
        '--lease-seconds <n>',
        'how long a claimed email stays this process’s (a killed run’s emails are retried after it)',
      )
        .argParser(parsePositiveInt)
        .default(120),
    )
    .action(async (opts: { dataDir?: string; leaseSeconds: number }) => {
      const dataDir = resolveDataDir(opts);
      const db = openDataDir(dataDir);
      try {
        const schedule = runSchedulerOnce(db);
        const sent = await drainDeliveries(db, { dataDir, leaseMs: opts.leaseSeconds * 1000 });
        process.stdout.write(
          `${JSON.stringify({
            scheduler: schedule
              ? { overdue: schedule.overdue.length, issued: schedule.issued.length, paymentsMatched: schedule.matched.length }
              : 'skipped: another process holds it',
            emails: sent,
            queue: deliveryCounts(db),
          })}\n`,
        );
      } finally {
        db.close();
      }
    });
  return invoices;
}
