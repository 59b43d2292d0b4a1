import { dayIn, isPastDue } from '../../../src-shared/domain/invoice-dates';
import type { Db } from '../db';
import { type Writer, write } from '../write';
import { queueDelivery } from './deliveries';
import { applyMove } from './lifecycle';
import { customerEmail, getInvoiceRow, type InvoiceRow, invoiceTimeZone } from './read';

/**
 * The time-driven moves of invoices, across all teams (docs/decisions/0072-invoice-overdue-and-scheduler.md):
 * - an unpaid invoice becomes overdue from the first instant after its due date in its own time zone;
 * - a scheduled invoice is issued (and its email queued) at its scheduled time.
 * Each move is its own write (origin `system`) that re-reads the invoice first, so a person's change in between wins
 * and a second run finds nothing left to do. The runner (src-main/invoices/scheduler.ts) calls these under a lease.
 */

export interface SchedulerResult {
  overdue: { teamId: string; invoiceId: string }[];
  issued: { teamId: string; invoiceId: string }[];
}

type Moved = SchedulerResult['overdue'];

/** Each candidate in a write of its own: `move` gets the invoice as it is now and says whether it moved it. */
function moveEach(
  db: Db,
  candidates: readonly Pick<InvoiceRow, 'team_id' | 'id'>[],
  move: (w: Writer, current: InvoiceRow) => boolean,
): Moved {
  const moved: Moved = [];
  for (const r of candidates) {
    const done = write(
      db,
      r.team_id,
      (w) => {
        const current = getInvoiceRow(db, r.team_id, r.id);
        return current ? move(w, current) : false;
      },
      { origin: 'system' },
    );
    if (done) moved.push({ teamId: r.team_id, invoiceId: r.id });
  }
  return moved;
}

/** Marks every unpaid invoice that is past due at `now` as overdue. */
export function markOverdueInvoices(db: Db, now = new Date()): SchedulerResult['overdue'] {
  // Candidates by day alone: no time zone is more than 14 hours ahead of UTC.
  const latest = dayIn(new Date(now.getTime() + 14 * 3600_000), 'UTC');
  const rows = db
    .prepare(
      `SELECT team_id, id, due_date, timezone FROM invoices WHERE status = 'unpaid' AND due_date < ? ORDER BY due_date, id`,
    )
    .all(latest) as Pick<InvoiceRow, 'team_id' | 'id' | 'due_date' | 'timezone'>[];
  const pastDue = (r: Pick<InvoiceRow, 'due_date' | 'timezone'>) => isPastDue(r.due_date, invoiceTimeZone(r), now);
  return moveEach(db, rows.filter(pastDue), (w, current) => {
    if (current.status !== 'unpaid' || !pastDue(current)) return false;
    applyMove(w, current, 'mark_overdue', { now });
    return true;
  });
}

/**
 * Issues every scheduled invoice whose time has come, queueing its email. Not those of a team that syncs with a
 * remote: one place sends a team's invoices, and the remote, which holds the schedule too, sends them (0143).
 */
export function issueScheduledInvoices(db: Db, now = new Date()): SchedulerResult['issued'] {
  const rows = db
    .prepare(
      `SELECT team_id, id FROM invoices WHERE status = 'scheduled' AND scheduled_at <= ?
         AND team_id NOT IN (SELECT team_id FROM sync_remotes WHERE enabled = 1)
       ORDER BY scheduled_at, id`,
    )
    .all(now.toISOString()) as Pick<InvoiceRow, 'team_id' | 'id'>[];
  return moveEach(db, rows, (w, current) => {
    if (current.status !== 'scheduled' || !current.scheduled_at || Date.parse(current.scheduled_at) > now.getTime()) {
      return false;
    }
    const recipient = customerEmail(db, current.team_id, current.customer_id);
    applyMove(w, current, 'issue', { now });
    // The key names this scheduled time: a rerun never queues a second email for it.
    queueDelivery(db, current.team_id, current.id, {
      kind: 'invoice',
      idempotencyKey: `scheduled:${current.id}:${current.scheduled_at}`,
      recipient,
    });
    return true;
  });
}

export function runInvoiceSchedule(db: Db, now = new Date()): SchedulerResult {
  return { issued: issueScheduledInvoices(db, now), overdue: markOverdueInvoices(db, now) };
}
