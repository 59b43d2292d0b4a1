import { scheduledLevel } from '../../../src-shared/domain/dunning';
import { dayIn, isPastDue } from '../../../src-shared/domain/invoice-dates';
import type { Db } from '../db';
import { type Writer, write } from '../write';
import { queueDelivery } from './deliveries';
import { applyMove } from './lifecycle';
import { customerEmail, getInvoiceRow, type InvoiceRow, invoiceTimeZone } from './read';
import { highestReminderLevel, queueInvoiceReminder } from './send';
import { dunningOf } from './settings';

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
  reminded: { teamId: string; invoiceId: string }[];
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

/**
 * Queues the reminders the teams' dunning schedules ask for (docs/decisions/0122): for each team whose levels are
 * sent automatically, every overdue invoice whose next level's day has come, to the customer's e-mail. The key
 * names the invoice and the level, so a rerun queues nothing more; an invoice whose customer has no e-mail is left
 * for a person. Not for a team that syncs (its remote holds the same settings and sends them, as with scheduled
 * invoices).
 */
export function queueScheduledReminders(db: Db, now = new Date()): SchedulerResult['reminded'] {
  const teams = db
    .prepare(
      `SELECT team_id, dunning FROM invoice_settings WHERE dunning IS NOT NULL
         AND team_id NOT IN (SELECT team_id FROM sync_remotes WHERE enabled = 1)`,
    )
    .all() as { team_id: string; dunning: string }[];
  const reminded: SchedulerResult['reminded'] = [];
  for (const team of teams) {
    const dunning = dunningOf(team);
    if (!dunning.automatic || dunning.levels.length === 0) continue;
    const rows = db
      .prepare(`SELECT * FROM invoices WHERE team_id = ? AND status = 'overdue' ORDER BY due_date, id`)
      .all(team.team_id) as InvoiceRow[];
    for (const r of rows) {
      const today = dayIn(now, invoiceTimeZone(r));
      const level = scheduledLevel(dunning.levels, r.due_date, today, highestReminderLevel(db, r.team_id, r.id));
      if (level === null || !customerEmail(db, r.team_id, r.customer_id)) continue;
      try {
        write(
          db,
          r.team_id,
          () => queueInvoiceReminder(db, r.team_id, r.id, { idempotencyKey: `dunning:${r.id}:${level}`, level, now }),
          { origin: 'system' },
        );
        reminded.push({ teamId: r.team_id, invoiceId: r.id });
      } catch {
        // Paid or canceled between the read and the write: nothing to remind of; the next run looks again.
      }
    }
  }
  return reminded;
}

export function runInvoiceSchedule(db: Db, now = new Date()): SchedulerResult {
  const issued = issueScheduledInvoices(db, now);
  const overdue = markOverdueInvoices(db, now);
  return { issued, overdue, reminded: queueScheduledReminders(db, now) };
}
