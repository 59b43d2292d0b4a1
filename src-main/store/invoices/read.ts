import type { EditorDoc, Invoice, InvoiceTemplate } from '../../../src-shared/contract/invoices';
import { lineAmountMinor } from '../../../src-shared/domain/invoice-amounts';
import { isPastDue } from '../../../src-shared/domain/invoice-dates';
import { nextStatuses } from '../../../src-shared/domain/invoice-lifecycle';
import { dueMinor } from '../../../src-shared/domain/invoice-settlement';
import type { InvoiceStatus } from '../../../src-shared/domain/invoice-status';
import { unitPriceMajor } from '../../../src-shared/domain/unit-price';
import { toMajor } from '../../../src-shared/money';
import type { Db } from '../db';
import { NotFound } from '../errors';
import { placeholders } from '../list/keyset';
import { latestDeliveries, toDelivery } from './deliveries';
import { readBlocks } from './editor-fields';
import { appliedPayments, type PaymentRow, totalsOf } from './payment-links';
import { baseTemplate, resolveTemplate } from './settings';

/**
 * An invoice as stored (its row, line items and template as JSON) and as the API shows it: the row read with its
 * customer, latest delivery and applied payments. Reads return the stored totals; writes compute them
 * (./content.ts).
 */

export interface InvoiceRow {
  id: string;
  team_id: string;
  customer_id: string | null;
  customer_name: string | null;
  /** '' while the invoice waits for its number from the team's sync remote (docs/decisions/0143). */
  invoice_number: string;
  status: InvoiceStatus;
  currency: string;
  subtotal_minor: number;
  vat_minor: number;
  tax_minor: number;
  discount_minor: number;
  amount_minor: number;
  issue_date: string;
  due_date: string;
  supply_date: string | null;
  supply_end_date: string | null;
  sent_at: string | null;
  paid_at: string | null;
  line_items: string;
  template: string;
  note: string | null;
  timezone: string | null;
  scheduled_at: string | null;
  canceled_at: string | null;
  refunded_at: string | null;
  reminder_sent_at: string | null;
  tracker_project_id: string | null;
  internal_note: string | null;
  /** The hosted editor's rich-text blocks as sent (./editor-fields.ts, migration 024); null: none. */
  rich_text: string | null;
  /** The seller and buyer frozen at issue (JSON, ./parties.ts); null while not issued. */
  issued_parties: string | null;
  created_at: string;
  updated_at: string;
  seq: number;
}

/**
 * A line item as stored (JSON in invoices.line_items): the unit price as src-shared/domain/unit-price.ts holds it
 * (minor units of the invoice currency, or finer with `priceScale`).
 */
export interface StoredLine {
  name: string;
  quantity: number;
  unit?: string | null;
  priceMinor: number;
  /** Decimals of the unit price beyond the currency's minor unit (1 or 2); absent: none. */
  priceScale?: number;
  /** The hosted editor's document the name was given as (`name` is its plain text). */
  nameContent?: EditorDoc;
  vatRate?: number | null;
  taxRate?: number | null;
  /** The line's revenue category (a transaction category's slug); a local extension. */
  category?: string | null;
}

export interface CustomerRef {
  id: string;
  name: string;
  email: string | null;
  billing_email: string | null;
}

export function invoiceTimeZone(r: Pick<InvoiceRow, 'timezone'>): string {
  return r.timezone ?? 'UTC';
}

export function getInvoiceRow(db: Db, teamId: string, id: string): InvoiceRow | undefined {
  return db.prepare('SELECT * FROM invoices WHERE team_id = ? AND id = ?').get(teamId, id) as InvoiceRow | undefined;
}

export function requireInvoiceRow(db: Db, teamId: string, id: string): InvoiceRow {
  const r = getInvoiceRow(db, teamId, id);
  if (!r) throw new NotFound('invoice', id);
  return r;
}

/** The rows of these invoices, in the order of `ids` (an id without a row is left out). */
export function invoiceRows(db: Db, teamId: string, ids: readonly string[]): InvoiceRow[] {
  if (ids.length === 0) return [];
  const rows = db
    .prepare(`SELECT * FROM invoices WHERE team_id = ? AND id IN (${placeholders(ids.length)})`)
    .all(teamId, ...ids) as InvoiceRow[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((x) => byId.get(x)).filter((r): r is InvoiceRow => r !== undefined);
}

export function storedLines(r: Pick<InvoiceRow, 'line_items'>): StoredLine[] {
  try {
    const v = JSON.parse(r.line_items) as unknown;
    return Array.isArray(v) ? (v as StoredLine[]) : [];
  } catch {
    return [];
  }
}

export function invoiceTemplate(r: Pick<InvoiceRow, 'template' | 'currency' | 'timezone'>): InvoiceTemplate {
  let stored: unknown = {};
  try {
    stored = JSON.parse(r.template);
  } catch {
    stored = {};
  }
  const t = resolveTemplate(stored, baseTemplate(r.currency));
  return { ...t, currency: r.currency, timezone: invoiceTimeZone(r) };
}

/** How the invoice was to be delivered when created (kept in its stored template, not part of the API's). */
export function invoiceDeliveryType(r: Pick<InvoiceRow, 'template'>): string | undefined {
  try {
    const t = JSON.parse(r.template) as { deliveryType?: unknown };
    return typeof t.deliveryType === 'string' ? t.deliveryType : undefined;
  } catch {
    return undefined;
  }
}

export function customersById(db: Db, teamId: string, ids: readonly string[]): Map<string, CustomerRef> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = db
    .prepare(`SELECT id, name, email, billing_email FROM customers WHERE team_id = ? AND id IN (${placeholders(unique.length)})`)
    .all(teamId, ...unique) as CustomerRef[];
  return new Map(rows.map((c) => [c.id, c]));
}

/** Where the customer's invoices go: the billing address, else the customer's email; null without either. */
export function customerEmail(db: Db, teamId: string, customerId: string | null): string | null {
  const c = customerId ? customersById(db, teamId, [customerId]).get(customerId) : undefined;
  return c?.billing_email ?? c?.email ?? null;
}

/** The invoices of these rows as the API shows them, in the same order. */
export function toInvoices(db: Db, teamId: string, rows: readonly InvoiceRow[], now: Date): Invoice[] {
  const ids = rows.map((r) => r.id);
  const customers = customersById(
    db,
    teamId,
    rows.map((r) => r.customer_id).filter((x): x is string => x !== null),
  );
  const deliveries = latestDeliveries(db, teamId, ids);
  const payments = appliedPayments(db, teamId, ids);
  return rows.map((r) => toInvoice(r, customers, deliveries, payments, now));
}

function toInvoice(
  r: InvoiceRow,
  customers: Map<string, CustomerRef>,
  deliveries: ReturnType<typeof latestDeliveries>,
  payments: ReturnType<typeof appliedPayments>,
  now: Date,
): Invoice {
  const c = r.customer_id ? customers.get(r.customer_id) : undefined;
  const major = (minor: number) => toMajor(minor, r.currency);
  const tz = invoiceTimeZone(r);
  const delivery = deliveries.get(r.id);
  const applied = payments.get(r.id) ?? [];
  const totals = totalsOf(applied);
  const ref = (p: PaymentRow) => ({
    id: p.id,
    kind: p.kind,
    transactionId: p.transaction_id,
    amount: toMajor(p.amount_minor, p.currency),
    currency: p.currency,
    date: p.paid_on,
    matchedBy: p.matched_by,
    confidence: p.confidence,
  });
  const payment = applied.filter((p) => p.kind === 'payment').at(-1);
  const blocks = readBlocks(r.rich_text);
  return {
    id: r.id,
    invoiceNumber: r.invoice_number || null,
    status: r.status,
    nextStatuses: nextStatuses(r.status, { pastDue: isPastDue(r.due_date, tz, now) }),
    customerId: r.customer_id,
    customerName: r.customer_name,
    customer: c ? { id: c.id, name: c.name, email: c.email, billingEmail: c.billing_email } : null,
    currency: r.currency,
    amount: major(r.amount_minor),
    subtotal: major(r.subtotal_minor),
    vat: major(r.vat_minor),
    tax: major(r.tax_minor),
    discount: major(r.discount_minor),
    issueDate: r.issue_date,
    dueDate: r.due_date,
    supplyDate: r.supply_date,
    supplyEndDate: r.supply_end_date,
    timezone: tz,
    scheduledAt: r.scheduled_at,
    sentAt: r.sent_at,
    paidAt: r.paid_at,
    canceledAt: r.canceled_at,
    refundedAt: r.refunded_at,
    reminderSentAt: r.reminder_sent_at,
    lineItems: storedLines(r).map((l) => {
      const own = l.taxRate ?? null;
      let amount = 0;
      try {
        amount = major(lineAmountMinor(l.quantity, l.priceMinor, 'lineItems', l.priceScale ?? 0));
      } catch {
        amount = 0;
      }
      return {
        name: l.name,
        quantity: l.quantity,
        unit: l.unit ?? null,
        price: unitPriceMajor(l, r.currency),
        vat: l.vatRate ?? null,
        taxRate: own,
        tax: own,
        category: l.category ?? null,
        amount,
        nameContent: l.nameContent ?? null,
      };
    }),
    template: invoiceTemplate(r),
    note: r.note,
    internalNote: r.internal_note,
    fromDetails: blocks.fromDetails ?? null,
    paymentDetails: blocks.paymentDetails ?? null,
    noteDetails: blocks.noteDetails ?? null,
    topBlock: blocks.topBlock ?? null,
    bottomBlock: blocks.bottomBlock ?? null,
    trackerProjectId: r.tracker_project_id,
    delivery: delivery ? toDelivery(delivery, r.currency) : null,
    payment: payment ? ref(payment) : null,
    payments: applied.map(ref),
    paidAmount: major(totals.paidMinor),
    refundedAmount: major(totals.refundedMinor),
    amountDue: major(dueMinor({ status: r.status, amountMinor: r.amount_minor, ...totals })),
    pdfUrl: `/v1/invoices/${r.id}/pdf`,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export function getInvoice(db: Db, teamId: string, id: string, now = new Date()): Invoice {
  return toInvoices(db, teamId, [requireInvoiceRow(db, teamId, id)], now)[0]!;
}
