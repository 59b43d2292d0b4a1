import type { Invoice, InvoiceDelivery } from '../../../src-shared/contract/invoices';
import { nextReminderLevel } from '../../../src-shared/domain/dunning';
import type { InvoiceAction } from '../../../src-shared/domain/invoice-lifecycle';
import { currencyExponent } from '../../../src-shared/money';
import type { Db } from '../db';
import { InvalidReference } from '../errors';
import { newId } from '../ids';
import { write } from '../write';
import { deliveryByKey, queueDelivery, toDelivery } from './deliveries';
import { applyMove, checkedMove } from './lifecycle';
import { customerEmail, getInvoice, type InvoiceRow, requireInvoiceRow } from './read';
import { teamDunning } from './settings';

/**
 * The emails of an invoice, queued on the delivery queue (./deliveries.ts) inside the invoice's write: sending it
 * (which issues a draft or scheduled invoice) or again, and a payment reminder.
 */

/** Who gets the invoice's email: the address asked for, else the customer's; refused when there is none. */
export function recipientOf(
  db: Db,
  teamId: string,
  r: Pick<InvoiceRow, 'customer_id'>,
  explicit: string | null | undefined,
): string {
  if (explicit) return explicit;
  const to = customerEmail(db, teamId, r.customer_id);
  if (!to) throw new InvalidReference('to', 'The customer has no email address: give one in "to" or on the customer');
  return to;
}

/**
 * POST /invoices/{id}/send: a draft or scheduled invoice is issued and its email queued; an issued open one is sent
 * again (a new email, unless the idempotency key was used before).
 */
export function sendInvoice(
  db: Db,
  teamId: string,
  id: string,
  options: {
    to?: string | null;
    idempotencyKey?: string;
    now?: Date;
    /** Asked before a draft or scheduled invoice is issued (inside the write); throws to refuse. */
    beforeIssue?: (row: InvoiceRow) => void;
    /** What the person wrote in the send dialog; null: the default text. */
    subject?: string | null;
    message?: string | null;
  } = {},
): Invoice {
  const now = options.now ?? new Date();
  write(db, teamId, (w) => {
    const r = requireInvoiceRow(db, teamId, id);
    if (options.idempotencyKey && deliveryByKey(db, teamId, `send:${id}:${options.idempotencyKey}`)) return;
    const action: InvoiceAction = r.status === 'draft' || r.status === 'scheduled' ? 'issue' : 'resend';
    checkedMove(r, action, now);
    const to = recipientOf(db, teamId, r, options.to);
    if (action === 'issue') {
      options.beforeIssue?.(r);
      applyMove(w, r, 'issue', { now });
    }
    queueDelivery(db, teamId, id, {
      kind: 'invoice',
      idempotencyKey: `send:${id}:${options.idempotencyKey ?? newId()}`,
      recipient: to,
      subject: options.subject ?? null,
      message: options.message ?? null,
    });
  });
  return getInvoice(db, teamId, id, now);
}

/**
 * Queues a payment reminder for an unpaid or overdue invoice (the workflows engine's "send invoice reminder" step
 * calls this with its step's idempotency key). 409 for an invoice in another state; 422 when nobody can receive it.
 */
export function queueInvoiceReminder(
  db: Db,
  teamId: string,
  invoiceId: string,
  options: {
    idempotencyKey: string;
    recipient?: string | null;
    now?: Date;
    subject?: string | null;
    message?: string | null;
    /** The dunning level to state (the schedule's); default the next of the team's levels. */
    level?: number;
  },
): InvoiceDelivery {
  const now = options.now ?? new Date();
  return write(db, teamId, () => {
    const r = requireInvoiceRow(db, teamId, invoiceId);
    const existing = deliveryByKey(db, teamId, options.idempotencyKey);
    if (existing && existing.invoice_id === invoiceId && existing.kind === 'reminder') return toDelivery(existing, r.currency);
    checkedMove(r, 'remind', now);
    const recipient = recipientOf(db, teamId, r, options.recipient);
    const { level, feeMinor } = reminderTerms(db, teamId, r, options.level);
    const queued = queueDelivery(db, teamId, invoiceId, {
      kind: 'reminder',
      idempotencyKey: options.idempotencyKey,
      recipient,
      subject: options.subject ?? null,
      message: options.message ?? null,
      reminderLevel: level,
      feeMinor: level === null ? null : feeMinor,
    });
    return toDelivery(queued.delivery, r.currency);
  });
}

/** The highest dunning level this invoice's reminders stated (0: none yet); a canceled or failed one counts too. */
export function highestReminderLevel(db: Db, teamId: string, invoiceId: string): number {
  return (
    (db
      .prepare(`SELECT max(reminder_level) FROM invoice_deliveries WHERE team_id = ? AND invoice_id = ? AND kind = 'reminder'`)
      .pluck()
      .get(teamId, invoiceId) as number | null) ?? 0
  );
}

/** The level and fee the invoice's next reminder states (docs/decisions/0122): none without levels. */
export function reminderTerms(
  db: Db,
  teamId: string,
  r: Pick<InvoiceRow, 'id' | 'currency'>,
  asked?: number,
): { level: number | null; feeMinor: number } {
  const { levels } = teamDunning(db, teamId);
  const level = asked ?? nextReminderLevel(levels, highestReminderLevel(db, teamId, r.id));
  const fee = level === null ? 0 : (levels[Math.min(level, levels.length) - 1]?.fee ?? 0);
  // A fee with more decimals than the invoice's currency has (2.50 on a yen invoice) is rounded to its minor unit.
  const feeMinor = Math.round(fee * 10 ** currencyExponent(r.currency));
  return { level: levels.length ? level : null, feeMinor };
}
