/**
 * What a person can do with an invoice in its state, asked of the same lifecycle the server checks
 * (src-shared/domain/invoice-lifecycle.ts, docs/decisions/0070), so a button is shown exactly when its request can
 * succeed. And how its latest e-mail stands (docs/decisions/0074): `awaiting_sync` is said plainly, as waiting.
 */
import type { Invoice, InvoiceDelivery } from '../../../src-shared/contract/invoices';
import { allows, type InvoiceAction } from '../../../src-shared/domain/invoice-lifecycle';
import type { InvoiceStatus } from '../../../src-shared/domain/invoice-status';

export type InvoiceCommand = 'send' | 'resend' | 'remind' | 'markPaid' | 'undoPayment' | 'refund' | 'cancel' | 'delete';

/** Each command and the lifecycle action the server checks it as. */
const ACTION: Record<Exclude<InvoiceCommand, 'undoPayment'>, InvoiceAction> = {
  send: 'issue',
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
  for (const command of ['send', 'remind', 'markPaid', 'resend', 'refund'] as const)
    if (allows(invoice.status, ACTION[command], ctx)) out.push(command);
  // A payment matched to a transaction is undone by unmatching it (the invoice reopens, the transaction is restored).
  if (invoice.status === 'paid' && invoice.payment) out.push('undoPayment');
  for (const command of ['cancel', 'delete'] as const) if (allows(invoice.status, ACTION[command], ctx)) out.push(command);
  return out;
}

/** Commands that cannot be taken back: they ask first. */
export const CONFIRMED: ReadonlySet<InvoiceCommand> = new Set(['cancel', 'refund', 'delete', 'undoPayment']);

/** The pill's tone for a status. */
export function statusTone(status: InvoiceStatus): 'neutral' | 'info' | 'warn' | 'bad' | 'ok' {
  switch (status) {
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
