/**
 * What a person can do with an invoice in its state, asked of the same lifecycle the server checks
 * (src-shared/domain/invoice-lifecycle.ts, docs/decisions/0070), so a button is shown exactly when its request can
 * succeed. And how its latest e-mail stands (docs/decisions/0074): `awaiting_sync` is said plainly, as waiting.
 */
import type { Invoice, InvoiceDelivery } from '../../../src-shared/contract/invoices';
import { allows, type InvoiceAction } from '../../../src-shared/domain/invoice-lifecycle';
import type { InvoiceStatus } from '../../../src-shared/domain/invoice-status';

export type InvoiceCommand =
  | 'send'
  | 'edit'
  | 'recordPayment'
  | 'resend'
  | 'remind'
  | 'markPaid'
  | 'undoPayment'
  | 'refund'
  | 'cancel'
  | 'delete';

/** Each command and the lifecycle action the server checks it as. */
const ACTION: Record<Exclude<InvoiceCommand, 'undoPayment' | 'recordPayment'>, InvoiceAction> = {
  send: 'issue',
  edit: 'edit',
  resend: 'resend',
  remind: 'remind',
  markPaid: 'pay',
  refund: 'refund',
  cancel: 'cancel',
  delete: 'delete',
};

/** The commands of an invoice, in the order the screen shows them (the usual next step first). */
export function commandsFor(invoice: Pick<Invoice, 'status' | 'payment'>): InvoiceCommand[] {
  const ctx = { pastDue: invoice.status === 'overdue' };
  const out: InvoiceCommand[] = [];
  if (allows(invoice.status, ACTION.send, ctx)) out.push('send');
  // A draft is edited (only a draft: a scheduled invoice is issued, its content frozen until it is unscheduled).
  if (invoice.status === 'draft' && allows(invoice.status, ACTION.edit, ctx)) out.push('edit');
  // Money received (all or part of it, from a bank line or by hand) is recorded while something is still due.
  if (invoice.status === 'unpaid' || invoice.status === 'overdue') out.push('recordPayment');
  for (const command of ['remind', 'markPaid', 'resend', 'refund'] as const)
    if (allows(invoice.status, ACTION[command], ctx)) out.push(command);
  // A payment matched to a transaction is undone by unmatching it (the invoice reopens, the transaction is restored).
  if (invoice.status === 'paid' && invoice.payment) out.push('undoPayment');
  for (const command of ['cancel', 'delete'] as const) if (allows(invoice.status, ACTION[command], ctx)) out.push(command);
  return out;
}

/** Commands that cannot be taken back: they ask first. */
export const CONFIRMED: ReadonlySet<InvoiceCommand> = new Set(['cancel', 'refund', 'delete', 'undoPayment']);

/**
 * The status as a person reads it: an issued invoice whose e-mail has not left yet (waiting for a mail server or
 * for sync, queued, failed) is "not sent", not "unpaid" — the customer has not seen it. Overdue stays overdue.
 */
export type ShownStatus = InvoiceStatus | 'unsent';
export function shownStatus(invoice: Pick<Invoice, 'status' | 'delivery'>): ShownStatus {
  const d = invoice.delivery;
  if (invoice.status === 'unpaid' && d && d.kind === 'invoice' && d.state !== 'sent') return 'unsent';
  return invoice.status;
}

/** The pill's tone for a status. */
export function statusTone(status: ShownStatus): 'neutral' | 'info' | 'warn' | 'bad' | 'ok' {
  switch (status) {
    case 'unsent':
      return 'info';
    case 'paid':
      return 'ok';
    case 'overdue':
      return 'bad';
    case 'unpaid':
      return 'warn';
    case 'scheduled':
      return 'info';
    default:
      return 'neutral';
  }
}

/** How the latest e-mail stands: its tone, and whether it still waits to leave this machine. */
export function deliveryTone(delivery: Pick<InvoiceDelivery, 'state'>): { tone: 'ok' | 'wait' | 'bad'; pending: boolean } {
  switch (delivery.state) {
    case 'sent':
      return { tone: 'ok', pending: false };
    case 'failed':
    case 'canceled':
      return { tone: 'bad', pending: false };
    default:
      return { tone: 'wait', pending: true };
  }
}
