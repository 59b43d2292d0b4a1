import { dayIn, isPastDue } from '../../../src-shared/domain/invoice-dates';
import type { Db } from '../db';
import { write } from '../write';
import { queueDelivery } from './deliveries';
import { applyMove, getInvoiceRow, type InvoiceRow, invoiceTimeZone } from './invoices';

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

/** Marks every unpaid invoice that is past due at `now` as overdue. */
export function markOverdueInvoices(db: Db, now = new Date()): SchedulerResult['overdue'] {
  // Candidates by day alone: no time zone is more than 14 hours ahead of UTC.
  const latest = dayIn(new Date(now.getTime() + 14 * 3600_000), 'UTC');
  const rows = db
    .prepare(
      `SELECT team_id, id, due_date, timezone FROM invoices WHERE status = 'unpaid' AND due_date < ? ORDER BY due_date, id`,
    )
    .all(latest) as Pick<InvoiceRow, 'team_id' | 'id' | 'due_date' | 'timezone'>[];
  const moved: SchedulerResult['overdue'] = [];
  for (const r of rows) {
    if (!isPastDue(r.due_date, invoiceTimeZone(r), now)) continue;
    const done = write(
      db,
      r.team_id,
      (w) => {
        const current = getInvoiceRow(db, r.team_id, r.id);
        if (current?.status !== 'unpaid' || !isPastDue(current.due_date, invoiceTimeZone(current), now)) return false;
        applyMove(w, current, 'mark_overdue', { now });
        return true;
      },
      { origin: 'system' },
    );
    if (done) moved.push({ teamId: r.team_id, invoiceId: r.id });
  }
  return moved;
}

/** Issues every scheduled invoice whose time has come, queueing its email. */
export function issueScheduledInvoices(db: Db, now = new Date()): SchedulerResult['issued'] {
  const rows = db
    .prepare(`SELECT team_id, id FROM invoices WHERE status = 'scheduled' AND scheduled_at <= ? ORDER BY scheduled_at, id`)
    .all(now.toISOString()) as Pick<InvoiceRow, 'team_id' | 'id'>[];
  const issued: SchedulerResult['issued'] = [];
  for (const r of rows) {
    const done = write(
      db,
      r.team_id,
      (w) => {
        const current = getInvoiceRow(db, r.team_id, r.id);
        if (current?.status !== 'scheduled' || !current.scheduled_at || Date.parse(current.scheduled_at) > now.getTime()) {
          return false;
        }
        const recipient = db
          .prepare('SELECT coalesce(billing_email, email) FROM customers WHERE team_id = ? AND id = ?')
          .pluck()
          .get(r.team_id, current.customer_id) as string | null | undefined;
        applyMove(w, current, 'issue', { now });
        // The key names this scheduled time: a rerun never queues a second email for it.
        queueDelivery(db, r.team_id, r.id, {
          kind: 'invoice',
          idempotencyKey: `scheduled:${r.id}:${current.scheduled_at}`,
          recipient: recipient ?? null,
        });
        return true;
      },
      { origin: 'system' },
    );
    if (done) issued.push({ teamId: r.team_id, invoiceId: r.id });
  }
  return issued;
}

export function runInvoiceSchedule(db: Db, now = new Date()): SchedulerResult {
  return { issued: issueScheduledInvoices(db, now), overdue: markOverdueInvoices(db, now) };
}

/** Each team's change sequence (all teams, or one). */
export function teamSequences(db: Db, teamId?: string): { id: string; seq: number }[] {
  return db
    .prepare(`SELECT id, change_seq AS seq FROM teams ${teamId ? 'WHERE id = ?' : ''} ORDER BY id`)
    .all(...(teamId ? [teamId] : [])) as { id: string; seq: number }[];
}

/** Whether any record of these entities changed in the team after change sequence `sinceSeq`. */
export function entitiesChangedSince(db: Db, teamId: string, sinceSeq: number, entities: readonly string[]): boolean {
  return (
    db
      .prepare(
        `SELECT 1 FROM changes WHERE team_id = ? AND seq > ? AND entity IN (${entities.map(() => '?').join(', ')}) LIMIT 1`,
      )
      .get(teamId, sinceSeq, ...entities) !== undefined
  );
}
