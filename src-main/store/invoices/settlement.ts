import { settlementMove } from '../../../src-shared/domain/invoice-settlement';
import type { InvoiceStatus } from '../../../src-shared/domain/invoice-status';
import type { Writer } from '../write';
import { applyMove } from './lifecycle';
import { settlementOf } from './payment-links';
import { requireInvoiceRow } from './read';

/**
 * Moves an invoice to the status its applied payments call for (src-shared/domain/invoice-settlement.ts), inside the
 * write that changed them: paid once they cover it (paid at the last payment's day, 12:00 UTC — the same calendar
 * day from UTC−11 to UTC+11), refunded once refunds reach the payments, unpaid or overdue again when a payment that
 * covered it stops counting. Returns the status it has now.
 */
export function settleInvoice(w: Writer, invoiceId: string, now: Date, paidOn?: string): InvoiceStatus {
  const r = requireInvoiceRow(w.db, w.teamId, invoiceId);
  const move = settlementMove(settlementOf(w.db, w.teamId, r));
  if (!move) return r.status;
  return applyMove(w, r, move, { now, paidAt: paidOn ? `${paidOn}T12:00:00.000Z` : undefined });
}
