import type {
  Invoice,
  InvoiceCreate,
  InvoiceListQuery,
  InvoicePatch,
  InvoiceSortColumn,
  InvoiceTemplate,
  LineItemInput,
} from '../../../src-shared/contract/invoices';
import { AmountError, computeAmounts, lineAmountMinor } from '../../../src-shared/domain/invoice-amounts';
import { addDays, dayIn, isPastDue } from '../../../src-shared/domain/invoice-dates';
import { actionFor, type InvoiceAction, nextStatuses, refusal, transition } from '../../../src-shared/domain/invoice-lifecycle';
import { INVOICE_STATUSES, type InvoiceStatus } from '../../../src-shared/domain/invoice-status';
import { currencyExponent, MoneyError, toMajor, toMinor } from '../../../src-shared/money';
import type { Db } from '../db';
import { Conflict, InvalidReference, NotFound } from '../errors';
import { publish } from '../events';
import { newId } from '../ids';
import { listFingerprint } from '../list/cursor';
import { keysetPage, placeholders, type SortColumn } from '../list/keyset';
import { type Writer, write } from '../write';
import { cancelPendingDeliveries, latestDeliveries, queueDelivery, toDelivery } from './deliveries';
import { appliedPayments, recordManualPayment, releaseInvoicePayments, undoAppliedPayment } from './payment-links';
import {
  assertNumberFree,
  baseTemplate,
  getInvoiceSettings,
  mergeTemplate,
  resolveTemplate,
  takeInvoiceNumber,
} from './settings';
import { restoreMatchedTransaction } from './transaction-link';

/**
 * Invoices of a team: create (with numbering and totals), read, list, update through the checked lifecycle, send,
 * delete. Rules: docs/decisions/0070…0079. Totals are computed from the line items in exact minor units
 * (src-shared/domain/invoice-amounts.ts) on every write that touches them; reads return the stored totals.
 */

export interface InvoiceRow {
  id: string;
  team_id: string;
  customer_id: string | null;
  customer_name: string | null;
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
  created_at: string;
  updated_at: string;
  seq: number;
}

/** A line item as stored (JSON in invoices.line_items): money in minor units of the invoice currency. */
export interface StoredLine {
  name: string;
  quantity: number;
  unit?: string | null;
  priceMinor: number;
  vatRate?: number | null;
  taxRate?: number | null;
}

interface CustomerRef {
  id: string;
  name: string;
  email: string | null;
  billing_email: string | null;
}

// ---------------------------------------------------------------------------------------------------------------
// Reading.

export function invoiceTimeZone(r: Pick<InvoiceRow, 'timezone'>): string {
  return r.timezone ?? 'UTC';
}

export function getInvoiceRow(db: Db, teamId: string, id: string): InvoiceRow | undefined {
  return db.prepare('SELECT * FROM invoices WHERE team_id = ? AND id = ?').get(teamId, id) as InvoiceRow | undefined;
}

function requireRow(db: Db, teamId: string, id: string): InvoiceRow {
  const r = getInvoiceRow(db, teamId, id);
  if (!r) throw new NotFound('invoice', id);
  return r;
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

function customersById(db: Db, teamId: string, ids: readonly string[]): Map<string, CustomerRef> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = db
    .prepare(`SELECT id, name, email, billing_email FROM customers WHERE team_id = ? AND id IN (${placeholders(unique.length)})`)
    .all(teamId, ...unique) as CustomerRef[];
  return new Map(rows.map((c) => [c.id, c]));
}

function hydrate(db: Db, teamId: string, rows: readonly InvoiceRow[], now: Date): Invoice[] {
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
  const payment = payments.get(r.id);
  return {
    id: r.id,
    invoiceNumber: r.invoice_number,
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
        amount = major(lineAmountMinor(l.quantity, l.priceMinor));
      } catch {
        amount = 0;
      }
      return {
        name: l.name,
        quantity: l.quantity,
        unit: l.unit ?? null,
        price: major(l.priceMinor),
        vat: l.vatRate ?? null,
        taxRate: own,
        tax: own,
        amount,
      };
    }),
    template: invoiceTemplate(r),
    note: r.note,
    internalNote: r.internal_note,
    trackerProjectId: r.tracker_project_id,
    delivery: delivery ? toDelivery(delivery) : null,
    payment: payment
      ? {
          id: payment.id,
          transactionId: payment.transaction_id,
          amount: toMajor(payment.amount_minor, payment.currency),
          currency: payment.currency,
          date: payment.paid_on,
          matchedBy: payment.matched_by,
          confidence: payment.confidence,
        }
      : null,
    pdfUrl: `/v1/invoices/${r.id}/pdf`,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export function getInvoice(db: Db, teamId: string, id: string, now = new Date()): Invoice {
  return hydrate(db, teamId, [requireRow(db, teamId, id)], now)[0]!;
}

// ---------------------------------------------------------------------------------------------------------------
// Money and line items at the boundary.

function minorOf(amount: number, currency: string, field: string): number {
  try {
    return toMinor(amount, currency);
  } catch (e) {
    if (e instanceof MoneyError) throw new InvalidReference(field, `${field}: ${e.message}`);
    throw e;
  }
}

function toStoredLines(items: readonly LineItemInput[], currency: string): StoredLine[] {
  return items.map((li, i) => {
    if (li.tax !== undefined && li.taxRate !== undefined && li.tax !== li.taxRate) {
      throw new InvalidReference(`lineItems.${i}.tax`, `lineItems.${i}: tax and taxRate name the same rate; send one`);
    }
    const taxRate = li.taxRate !== undefined ? li.taxRate : li.tax;
    const line: StoredLine = {
      name: li.name,
      quantity: li.quantity,
      unit: li.unit ?? null,
      priceMinor: minorOf(li.price, currency, `lineItems.${i}.price`),
    };
    if (li.vat !== undefined && li.vat !== null) line.vatRate = li.vat;
    if (taxRate !== undefined && taxRate !== null) line.taxRate = taxRate;
    return line;
  });
}

/** Existing lines in a new currency: the same major amounts, refused when they do not fit its minor unit. */
function convertLines(lines: readonly StoredLine[], from: string, to: string): StoredLine[] {
  if (from === to) return [...lines];
  return lines.map((l, i) => ({
    ...l,
    priceMinor: minorOf(toMajor(l.priceMinor, from), to, `lineItems.${i}.price`),
  }));
}

interface Totals {
  subtotal_minor: number;
  vat_minor: number;
  tax_minor: number;
  discount_minor: number;
  amount_minor: number;
}

function totalsOf(lines: readonly StoredLine[], template: InvoiceTemplate, discountMinor: number): Totals {
  try {
    const a = computeAmounts(lines, {
      vatRate: template.vatRate,
      taxRate: template.taxRate,
      includeVat: template.includeVat,
      includeTax: template.includeTax,
      discountMinor,
    });
    return {
      subtotal_minor: a.subtotalMinor,
      vat_minor: a.vatMinor,
      tax_minor: a.taxMinor,
      discount_minor: a.discountMinor,
      amount_minor: a.amountMinor,
    };
  } catch (e) {
    if (e instanceof AmountError) throw new InvalidReference(e.field, e.message);
    throw e;
  }
}

/** The template as stored: everything but currency and time zone (columns of their own). */
function storedTemplate(t: InvoiceTemplate, deliveryType?: string): string {
  const { currency: _c, timezone: _z, ...rest } = t;
  return JSON.stringify(deliveryType ? { ...rest, deliveryType } : rest);
}

function customerOf(db: Db, teamId: string, id: string): CustomerRef {
  const c = customersById(db, teamId, [id]).get(id);
  if (!c) throw new InvalidReference('customerId', `customerId: the team has no customer ${id}`);
  return c;
}

// ---------------------------------------------------------------------------------------------------------------
// Lifecycle moves: one place applies a move with its side effects.

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
  const db = w.db;
  const ctx = { pastDue: isPastDue(r.due_date, invoiceTimeZone(r), options.now) };
  const t = transition(r.status, action, ctx);
  if (!t.ok) throw new Conflict(refusal(r.status, action, ctx));
  const values: Record<string, string | null> = { status: t.status };
  switch (action) {
    case 'issue':
      values.scheduled_at = null;
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
      cancelPendingDeliveries(db, w.teamId, r.id, w.now);
      releaseTrackerEntries(w, r.id);
      releaseInvoicePayments(w, r.id);
      break;
    default:
      break;
  }
  w.update('invoice', r.id, values);
  if (t.status === 'overdue' && r.status !== 'overdue') publish(w, 'invoice.overdue', { invoiceId: r.id, dueDate: r.due_date });
  return t.status;
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

function recipientOf(db: Db, teamId: string, r: InvoiceRow, explicit: string | null | undefined): string {
  if (explicit) return explicit;
  const c = r.customer_id ? customersById(db, teamId, [r.customer_id]).get(r.customer_id) : undefined;
  const to = c?.billing_email ?? c?.email;
  if (!to) throw new InvalidReference('to', 'The customer has no email address: give one in "to" or on the customer');
  return to;
}

// ---------------------------------------------------------------------------------------------------------------
// Writing.

export interface CreateOptions {
  now?: Date;
  /** Marks the invoice as drafted from this tracker project. */
  trackerProjectId?: string;
  /** Idempotency key of the send a create_and_send queues (default: one per invoice). */
  sendKey?: string;
}

export function createInvoice(db: Db, teamId: string, input: InvoiceCreate, options: CreateOptions = {}): Invoice {
  const now = options.now ?? new Date();
  const id = write(db, teamId, (w) => {
    const settings = getInvoiceSettings(db, teamId);
    let template = mergeTemplate(settings.template, input.template);
    if (input.currency) template = { ...template, currency: input.currency };
    if (input.timezone) template = { ...template, timezone: input.timezone };
    const currency = template.currency;
    const tz = template.timezone;
    const customer = input.customerId ? customerOf(db, teamId, input.customerId) : undefined;
    const issueDate = input.issueDate ?? dayIn(now, tz);
    const dueDate = input.dueDate ?? addDays(issueDate, template.paymentTermsDays);
    if (dueDate < issueDate) throw new InvalidReference('dueDate', 'dueDate must not be before issueDate');
    const lines = toStoredLines(input.lineItems ?? [], currency);
    const discount = input.discount !== undefined ? minorOf(input.discount, currency, 'discount') : 0;
    if (discount > 0) template = { ...template, includeDiscount: true };
    const totals = totalsOf(lines, template, discount);
    let invoiceNumber: string;
    if (input.invoiceNumber) {
      assertNumberFree(db, teamId, input.invoiceNumber);
      invoiceNumber = input.invoiceNumber;
    } else {
      invoiceNumber = takeInvoiceNumber(db, teamId);
    }
    if (input.deliveryType === 'scheduled') {
      if (!input.scheduledAt) throw new InvalidReference('scheduledAt', 'scheduledAt is required when deliveryType is scheduled');
      if (Date.parse(input.scheduledAt) <= now.getTime()) {
        throw new InvalidReference('scheduledAt', 'scheduledAt must be in the future');
      }
    } else if (input.scheduledAt) {
      throw new InvalidReference('scheduledAt', 'scheduledAt goes with deliveryType scheduled');
    }
    const invoiceId = newId();
    w.insert('invoice', {
      id: invoiceId,
      customer_id: customer?.id ?? null,
      customer_name: input.customerName ?? customer?.name ?? null,
      invoice_number: invoiceNumber,
      status: 'draft',
      currency,
      ...totals,
      issue_date: issueDate,
      due_date: dueDate,
      line_items: JSON.stringify(lines),
      template: storedTemplate(template, input.deliveryType),
      note: input.note ?? null,
      internal_note: input.internalNote ?? null,
      timezone: tz,
      tracker_project_id: options.trackerProjectId ?? null,
    });
    const row = requireRow(db, teamId, invoiceId);
    if (input.deliveryType === 'create_and_send') {
      const to = recipientOf(db, teamId, row, input.recipient);
      applyMove(w, row, 'issue', { now });
      queueDelivery(db, teamId, invoiceId, {
        kind: 'invoice',
        idempotencyKey: options.sendKey ?? `send:${invoiceId}:create`,
        recipient: to,
      });
    } else if (input.deliveryType === 'scheduled') {
      recipientOf(db, teamId, row, input.recipient);
      applyMove(w, row, 'schedule', { now, scheduledAt: input.scheduledAt });
    }
    return invoiceId;
  });
  return getInvoice(db, teamId, id, now);
}

const CONTENT_FIELDS = [
  'customerId',
  'customerName',
  'invoiceNumber',
  'issueDate',
  'currency',
  'template',
  'lineItems',
  'discount',
] as const;

/**
 * PATCH/PUT: only supplied fields change. Content (customer, number, lines, amounts, issue date, template) may change
 * while the invoice is not issued; terms (due date, time zone, notes) until it is settled; `status` moves through the
 * lifecycle. Totals are recomputed whenever lines, rates, discount or currency change.
 */
export function updateInvoice(db: Db, teamId: string, id: string, patch: InvoicePatch, now = new Date()): Invoice {
  write(db, teamId, (w) => {
    let r = requireRow(db, teamId, id);
    const ctx = () => ({ pastDue: isPastDue(r.due_date, invoiceTimeZone(r), now) });
    const contentChange = CONTENT_FIELDS.some((f) => patch[f] !== undefined);
    const termsChange = patch.dueDate !== undefined || patch.timezone !== undefined || patch.note !== undefined;
    const notesOnly = patch.internalNote !== undefined;
    const wantsStatus = patch.status !== undefined && patch.status !== r.status;

    // A status move the same request asks for (e.g. content plus "issue") comes after the content change, except
    // when it makes the invoice editable again (unschedule).
    if (contentChange || termsChange) {
      const action: InvoiceAction = contentChange ? 'edit' : 'edit_terms';
      const editableAfterMove = wantsStatus && patch.status === 'draft' && r.status === 'scheduled';
      if (!editableAfterMove && !transition(r.status, action, ctx()).ok) throw new Conflict(refusal(r.status, action, ctx()));
    }
    if (wantsStatus && patch.status === 'draft' && r.status === 'scheduled') {
      applyMove(w, r, 'unschedule', { now });
      r = requireRow(db, teamId, id);
    }

    if (contentChange || termsChange || notesOnly) {
      const values: Record<string, string | number | null> = {};
      let template = invoiceTemplate(r);
      let lines = storedLines(r);
      let discount = r.discount_minor;
      if (patch.template) template = mergeTemplate(template, patch.template);
      const currency = patch.currency ?? patch.template?.currency ?? r.currency;
      template = { ...template, currency };
      if (patch.timezone) template = { ...template, timezone: patch.timezone };
      if (patch.lineItems) lines = toStoredLines(patch.lineItems, currency);
      else if (currency !== r.currency) lines = convertLines(lines, r.currency, currency);
      if (patch.discount !== undefined) discount = minorOf(patch.discount, currency, 'discount');
      else if (currency !== r.currency) discount = minorOf(toMajor(discount, r.currency), currency, 'discount');
      if (discount > 0) template = { ...template, includeDiscount: true };
      if (patch.customerId !== undefined) {
        if (patch.customerId === null) values.customer_id = null;
        else {
          const c = customerOf(db, teamId, patch.customerId);
          values.customer_id = c.id;
          if (patch.customerName === undefined) values.customer_name = c.name;
        }
      }
      if (patch.customerName !== undefined) values.customer_name = patch.customerName;
      if (patch.invoiceNumber !== undefined && patch.invoiceNumber !== r.invoice_number) {
        assertNumberFree(db, teamId, patch.invoiceNumber, id);
        values.invoice_number = patch.invoiceNumber;
      }
      const issueDate = patch.issueDate ?? r.issue_date;
      const dueDate = patch.dueDate ?? r.due_date;
      if (dueDate < issueDate) throw new InvalidReference('dueDate', 'dueDate must not be before issueDate');
      values.issue_date = issueDate;
      values.due_date = dueDate;
      values.currency = currency;
      values.timezone = template.timezone;
      values.line_items = JSON.stringify(lines);
      values.template = storedTemplate(template, invoiceDeliveryType(r));
      if (patch.note !== undefined) values.note = patch.note;
      if (patch.internalNote !== undefined) values.internal_note = patch.internalNote;
      Object.assign(values, totalsOf(lines, template, discount));
      w.update('invoice', id, values);
      r = requireRow(db, teamId, id);
    }

    if (wantsStatus && r.status !== patch.status) {
      const target = patch.status!;
      const action = actionFor(r.status, target, ctx());
      if (!action) {
        const allowed = nextStatuses(r.status, ctx());
        throw new Conflict(
          `The invoice is ${r.status}: it cannot become ${target}. Allowed next states: ${allowed.length ? allowed.join(', ') : 'none (the invoice is settled)'}`,
        );
      }
      if (action === 'schedule') {
        if (!patch.scheduledAt) throw new InvalidReference('scheduledAt', 'scheduledAt is required to schedule an invoice');
        if (Date.parse(patch.scheduledAt) <= now.getTime()) {
          throw new InvalidReference('scheduledAt', 'scheduledAt must be in the future');
        }
      }
      if (action === 'issue' && !r.sent_at) w.update('invoice', id, { sent_at: w.now });
      if (action === 'issue') r = requireRow(db, teamId, id);
      applyMove(w, r, action, { now, paidAt: patch.paidAt, scheduledAt: patch.scheduledAt });
      // Marked paid by hand: the payment is recorded; reopened: the applied payment is undone.
      if (action === 'pay') recordManualPayment(w, r, dayIn(new Date(patch.paidAt ?? w.now), invoiceTimeZone(r)));
      if (action === 'reopen') undoAppliedPayment(w, id, restoreMatchedTransaction(db, teamId));
    } else if (patch.paidAt !== undefined && r.status === 'paid') {
      w.update('invoice', id, { paid_at: new Date(patch.paidAt).toISOString() });
    }
  });
  return getInvoice(db, teamId, id, now);
}

function invoiceDeliveryType(r: InvoiceRow): string | undefined {
  try {
    const t = JSON.parse(r.template) as { deliveryType?: unknown };
    return typeof t.deliveryType === 'string' ? t.deliveryType : undefined;
  } catch {
    return undefined;
  }
}

/** DELETE: only a draft or a canceled invoice; its tracker entries become unbilled. Returns the deleted invoice. */
export function deleteInvoice(db: Db, teamId: string, id: string, now = new Date()): Invoice {
  const before = getInvoice(db, teamId, id, now);
  write(db, teamId, (w) => {
    const r = requireRow(db, teamId, id);
    const ctx = { pastDue: isPastDue(r.due_date, invoiceTimeZone(r), now) };
    if (!transition(r.status, 'delete', ctx).ok) throw new Conflict(refusal(r.status, 'delete', ctx));
    releaseTrackerEntries(w, id);
    releaseInvoicePayments(w, id, { removeAll: true });
    w.remove('invoice', id);
  });
  return before;
}

/**
 * POST /invoices/{id}/send: a draft or scheduled invoice is issued and its email queued; an issued open one is sent
 * again (a new email, unless the idempotency key was used before).
 */
export function sendInvoice(
  db: Db,
  teamId: string,
  id: string,
  options: { to?: string | null; idempotencyKey?: string; now?: Date } = {},
): Invoice {
  const now = options.now ?? new Date();
  write(db, teamId, (w) => {
    const r = requireRow(db, teamId, id);
    if (options.idempotencyKey) {
      const seen = db
        .prepare('SELECT invoice_id FROM invoice_deliveries WHERE team_id = ? AND idempotency_key = ?')
        .pluck()
        .get(teamId, `send:${id}:${options.idempotencyKey}`);
      if (seen) return;
    }
    const ctx = { pastDue: isPastDue(r.due_date, invoiceTimeZone(r), now) };
    const action: InvoiceAction = r.status === 'draft' || r.status === 'scheduled' ? 'issue' : 'resend';
    if (!transition(r.status, action, ctx).ok) throw new Conflict(refusal(r.status, action, ctx));
    const to = recipientOf(db, teamId, r, options.to);
    if (action === 'issue') applyMove(w, r, 'issue', { now });
    queueDelivery(db, teamId, id, {
      kind: 'invoice',
      idempotencyKey: `send:${id}:${options.idempotencyKey ?? newId()}`,
      recipient: to,
    });
  });
  return getInvoice(db, teamId, id, now);
}

// ---------------------------------------------------------------------------------------------------------------
// The list.

const SORTS: Record<InvoiceSortColumn, SortColumn> = {
  created_at: { sql: 'i.created_at', kind: 'text' },
  invoice_date: { sql: 'i.issue_date', kind: 'text' },
  issue_date: { sql: 'i.issue_date', kind: 'text' },
  due_date: { sql: 'i.due_date', kind: 'text' },
  invoice_number: { sql: 'i.invoice_number', kind: 'text' },
  amount: { sql: 'i.amount_minor', kind: 'number' },
  status: { sql: 'i.status', kind: 'text' },
  customer: { sql: "lower(coalesce(i.customer_name, ''))", kind: 'text' },
};

/** "12.5", "12,50", "-3" → the number; anything else → undefined. */
function numericQuery(q: string): number | undefined {
  const t = q.trim().replace(/\s/g, '');
  if (!/^-?\d{1,15}([.,]\d{1,4})?$/.test(t)) return undefined;
  return Math.abs(Number(t.replace(',', '.')));
}

function likePattern(q: string): string {
  return `%${q.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function listInvoices(
  db: Db,
  teamId: string,
  query: InvoiceListQuery,
  now = new Date(),
): { data: Invoice[]; meta: { cursor: string | null; hasPreviousPage: boolean; hasNextPage: boolean } } {
  const sortColumn = query.sort?.column ?? 'created_at';
  const direction = query.sort?.direction ?? (query.sort ? 'asc' : 'desc');
  const where = ['i.team_id = @team'];
  const params: Record<string, unknown> = { team: teamId };
  const statuses = [...new Set(query.statuses ?? [])].sort();
  const customers = [...new Set(query.customers ?? [])].sort();
  if (statuses.length) {
    where.push(`i.status IN (${statuses.map((_, k) => `@st${k}`).join(', ')})`);
    statuses.forEach((s, k) => {
      params[`st${k}`] = s;
    });
  }
  if (customers.length) {
    where.push(`i.customer_id IN (${customers.map((_, k) => `@cu${k}`).join(', ')})`);
    customers.forEach((c, k) => {
      params[`cu${k}`] = c;
    });
  }
  if (query.start) {
    where.push('i.issue_date >= @start');
    params.start = query.start;
  }
  if (query.end) {
    where.push('i.issue_date <= @end');
    params.end = query.end;
  }
  const q = query.q?.trim();
  if (q) {
    const text = `(i.invoice_number LIKE @like ESCAPE '\\' OR coalesce(i.customer_name, '') LIKE @like ESCAPE '\\'
      OR coalesce(i.note, '') LIKE @like ESCAPE '\\')`;
    params.like = likePattern(q);
    const amount = numericQuery(q);
    const amountConditions: string[] = [];
    if (amount !== undefined) {
      // The same number is a different count of minor units per currency exponent (12.5 → 1250 EUR, 13 JPY no).
      const currencies = db.prepare('SELECT DISTINCT currency FROM invoices WHERE team_id = ?').pluck().all(teamId) as string[];
      const byExponent = new Map<number, string[]>();
      for (const c of currencies) {
        let e: number;
        try {
          e = currencyExponent(c);
        } catch {
          continue;
        }
        byExponent.set(e, [...(byExponent.get(e) ?? []), c]);
      }
      for (const [e, list] of [...byExponent].sort(([a], [b]) => a - b)) {
        const scaled = amount * 10 ** e;
        const minor = Math.round(scaled);
        if (Math.abs(scaled - minor) > 1e-6 || !Number.isSafeInteger(minor)) continue;
        params[`amt${e}`] = minor;
        list.sort().forEach((c, k) => {
          params[`amc${e}_${k}`] = c;
        });
        amountConditions.push(
          `(abs(i.amount_minor) = @amt${e} AND i.currency IN (${list.map((_, k) => `@amc${e}_${k}`).join(', ')}))`,
        );
      }
    }
    where.push(amountConditions.length ? `(${text} OR ${amountConditions.join(' OR ')})` : text);
  }
  const page = keysetPage(db, {
    from: 'invoices i',
    id: 'i.id',
    where,
    params,
    sort: SORTS[sortColumn],
    direction,
    pageSize: query.pageSize,
    fingerprint: listFingerprint([
      'invoices',
      teamId,
      sortColumn,
      direction,
      q ?? '',
      statuses,
      customers,
      query.start,
      query.end,
    ]),
    cursor: query.cursor,
  });
  const rows = page.ids.length
    ? (db
        .prepare(`SELECT * FROM invoices WHERE team_id = ? AND id IN (${placeholders(page.ids.length)})`)
        .all(teamId, ...page.ids) as InvoiceRow[])
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ordered = page.ids.map((x) => byId.get(x)).filter((r): r is InvoiceRow => r !== undefined);
  return {
    data: hydrate(db, teamId, ordered, now),
    meta: { cursor: page.cursor, hasPreviousPage: page.hasPreviousPage, hasNextPage: page.hasNextPage },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Summary and payment score.

const ISSUED = INVOICE_STATUSES.filter((s) => s !== 'draft' && s !== 'canceled');

export function invoiceSummary(db: Db, teamId: string, statuses?: readonly InvoiceStatus[]) {
  const counted = statuses?.length ? [...new Set(statuses)] : ISSUED;
  const rows = db
    .prepare(
      `SELECT currency,
         sum(CASE WHEN status IN (${placeholders(counted.length)}) THEN amount_minor ELSE 0 END) AS total,
         sum(CASE WHEN status IN (${placeholders(counted.length)}) THEN 1 ELSE 0 END) AS n,
         sum(CASE WHEN status = 'paid' THEN amount_minor ELSE 0 END) AS paid,
         sum(CASE WHEN status IN ('unpaid', 'overdue') THEN amount_minor ELSE 0 END) AS outstanding,
         sum(CASE WHEN status = 'overdue' THEN amount_minor ELSE 0 END) AS overdue
       FROM invoices WHERE team_id = ? GROUP BY currency ORDER BY currency`,
    )
    .all(...counted, ...counted, teamId) as {
    currency: string;
    total: number;
    n: number;
    paid: number;
    outstanding: number;
    overdue: number;
  }[];
  return {
    data: rows
      .filter((r) => r.n > 0)
      .map((r) => ({
        currency: r.currency,
        totalAmount: toMajor(r.total, r.currency),
        invoiceCount: r.n,
        paid: toMajor(r.paid, r.currency),
        outstanding: toMajor(r.outstanding, r.currency),
        overdue: toMajor(r.overdue, r.currency),
      })),
  };
}

export const PAYMENT_SCORE_WINDOW_DAYS = 365;

/**
 * The on-time payment score (docs/decisions/0075-payment-score.md): of the invoices paid in the last 365 days plus
 * those overdue now, the share paid by their due date (in the invoice's time zone), 0–100.
 */
export function paymentStatus(db: Db, teamId: string, now = new Date()) {
  const since = new Date(now.getTime() - PAYMENT_SCORE_WINDOW_DAYS * 86_400_000).toISOString();
  const paid = db
    .prepare(
      `SELECT due_date, paid_at, timezone FROM invoices
       WHERE team_id = ? AND status IN ('paid', 'refunded') AND paid_at IS NOT NULL AND paid_at >= ?`,
    )
    .all(teamId, since) as { due_date: string; paid_at: string; timezone: string | null }[];
  let onTime = 0;
  let late = 0;
  for (const p of paid) {
    if (dayIn(new Date(p.paid_at), p.timezone ?? 'UTC') <= p.due_date) onTime++;
    else late++;
  }
  const overdue = db
    .prepare(`SELECT count(*) FROM invoices WHERE team_id = ? AND status = 'overdue'`)
    .pluck()
    .get(teamId) as number;
  const total = onTime + late + overdue;
  const score = total === 0 ? null : Math.round((100 * onTime) / total);
  const paymentStatus = score === null ? 'none' : score >= 80 ? 'good' : score >= 50 ? 'average' : 'bad';
  return { score, paymentStatus, paidOnTime: onTime, paidLate: late, overdue, windowDays: PAYMENT_SCORE_WINDOW_DAYS } as const;
}
