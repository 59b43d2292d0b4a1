/**
 * Invoice statuses and the rules other figures are built on. Each rule is defined once here; the store's SQL forms
 * (src-main/store/invoices/status-sql.ts) are generated from these same lists, and a table test holds them equal.
 *
 * - issued: sent to the customer or due to be (every status but draft and canceled). Only issued invoices count
 *   towards a customer's invoiced totals, invoice counts, "first-time"/"repeat" and the last invoice date.
 * - open: issued and still awaiting payment (unpaid, overdue). Outstanding amounts and expected collections.
 */
export const INVOICE_STATUSES = ['draft', 'scheduled', 'unpaid', 'overdue', 'paid', 'canceled', 'refunded'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const NOT_ISSUED_STATUSES: readonly InvoiceStatus[] = ['draft', 'canceled'];
export const ISSUED_STATUSES: readonly InvoiceStatus[] = INVOICE_STATUSES.filter((s) => !NOT_ISSUED_STATUSES.includes(s));
export const OPEN_STATUSES: readonly InvoiceStatus[] = ['unpaid', 'overdue'];

export function isIssued(status: string): boolean {
  return (ISSUED_STATUSES as readonly string[]).includes(status);
}

export function isOpen(status: string): boolean {
  return (OPEN_STATUSES as readonly string[]).includes(status);
}
