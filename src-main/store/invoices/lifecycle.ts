import { isPastDue } from '../../../src-shared/domain/invoice-dates';
import { type InvoiceAction, type LifecycleContext, refusal, transition } from '../../../src-shared/domain/invoice-lifecycle';
import type { InvoiceStatus } from '../../../src-shared/domain/invoice-status';
import { Conflict } from '../errors';
import { publish } from '../events';
import type { Writer } from '../write';
import { cancelPendingDeliveries } from './deliveries';
import { freezeParties } from './parties';
import { releaseInvoicePayments } from './payment-links';
import { type InvoiceRow, invoiceTimeZone } from './read';
import { publishEnteredSegments, segmentsBefore } from './segments';
import { NO_NUMBER, numbersInvoicesHere, takeInvoiceNumber } from './settings';

/**
 * The invoice lifecycle (src-shared/domain/invoice-lifecycle.ts) applied to stored invoices: the check of a move
 * against the invoice's state at `now`, and the one place that applies a move with what goes with it.
 */

type Lifecycled = Pick<InvoiceRow, 'status' | 'due_date' | 'timezone'>;

/** What the lifecycle needs besides the status: whether the invoice is past due at `now` in its time zone. */
export function lifecycleContext(r: Pick<InvoiceRow, 'due_date' | 'timezone'>, now: Date): LifecycleContext {
  return { pastDue: isPastDue(r.due_date, invoiceTimeZone(r), now) };
}

/** Where `action` takes the invoice; a refused move is a Conflict naming the allowed states. */
export function checkedMove(r: Lifecycled, action: InvoiceAction, now: Date): InvoiceStatus {
  const ctx = lifecycleContext(r, now);
  const t = transition(r.status, action, ctx);
  if (!t.ok) throw new Conflict(refusal(r.status, action, ctx));
  return t.status;
}

export interface MoveOptions {
  paidAt?: string;
  scheduledAt?: string | null;
  now: Date;
}

/**
 * Moves an invoice by `action` (checked: a refused move is a Conflict naming the allowed states) and applies what
 * goes with it. Runs inside the caller's write.
 */
export function applyMove(w: Writer, r: InvoiceRow, action: InvoiceAction, options: MoveOptions): InvoiceStatus {
  const status = checkedMove(r, action, options.now);
  const values: Record<string, string | null> = { status };
  switch (action) {
    case 'issue':
      values.scheduled_at = null;
      // What the invoice says of both parties is fixed now (docs/decisions/0119): later edits of the team or the
      // customer never reach an issued invoice's documents. Issued once: a second issue (none exists) keeps them.
      if (!r.issued_parties) values.issued_parties = freezeParties(w.db, w.teamId, r, w.now);
      // Left without a number by a remote the team no longer syncs with (0143): numbered here when it goes out.
      if (r.invoice_number === NO_NUMBER && numbersInvoicesHere(w.db, w.teamId)) {
        values.invoice_number = takeInvoiceNumber(w.db, w.teamId);
      }
      break;
    case 'schedule':
      // Stored as the clock prints instants, so the scheduler's text comparison orders them correctly.
      values.scheduled_at = options.scheduledAt ? new Date(options.scheduledAt).toISOString() : null;
      break;
    case 'unschedule':
      values.scheduled_at = null;
      break;
    case 'pay':
      values.paid_at = options.paidAt ? new Date(options.paidAt).toISOString() : w.now;
      break;
    case 'reopen':
      values.paid_at = null;
      break;
    case 'refund':
      values.refunded_at = w.now;
      break;
    case 'cancel':
      values.canceled_at = w.now;
      values.scheduled_at = null;
      cancelPendingDeliveries(w.db, w.teamId, r.id, w.now);
      releaseTrackerEntries(w, r.id);
      releaseInvoicePayments(w, r.id);
      break;
    default:
      break;
  }
  const segments = segmentsBefore(w, r, options.now);
  w.update('invoice', r.id, values);
  publishEnteredSegments(w, r, segments, status, options.now);
  if (status === 'overdue' && r.status !== 'overdue') publish(w, 'invoice.overdue', { invoiceId: r.id, dueDate: r.due_date });
  return status;
}

/** Frees the tracker entries billed on this invoice (they become unbilled again). */
export function releaseTrackerEntries(w: Writer, invoiceId: string): number {
  const ids = w.db
    .prepare('SELECT id FROM tracker_entries WHERE team_id = ? AND invoice_id = ?')
    .pluck()
    .all(w.teamId, invoiceId) as string[];
  for (const id of ids) w.update('tracker_entry', id, { invoice_id: null });
  return ids.length;
}
