import type { Invoice, InvoiceCreate, InvoicePatch, InvoiceTemplate, TemplateInput } from '../../../src-shared/contract/invoices';
import { dayOf } from '../../../src-shared/domain/day-input';
import { addDays, dayIn } from '../../../src-shared/domain/invoice-dates';
import {
  actionFor,
  type InvoiceAction,
  type LifecycleContext,
  lifecyclePath,
  nextStatuses,
} from '../../../src-shared/domain/invoice-lifecycle';
import { dueMinor, refundableMinor } from '../../../src-shared/domain/invoice-settlement';
import type { InvoiceStatus } from '../../../src-shared/domain/invoice-status';
import { invoiceDateFormat } from '../../../src-shared/domain/invoice-vat';
import { toMajor } from '../../../src-shared/money';
import type { Db } from '../db';
import { Conflict, InvalidReference } from '../errors';
import { newId } from '../ids';
import { minorOf } from '../money-input';
import { type Writer, write } from '../write';
import { type CategoryRate, convertLines, storedTemplate, toStoredLines, totalsOf } from './content';
import { queueDelivery } from './deliveries';
import { editorWrite, readBlocks } from './editor-fields';
import { applyMove, checkedMove, lifecycleContext, releaseTrackerEntries } from './lifecycle';
import { recordManualPayment, releaseInvoicePayments, settlementOf, undoAppliedPayments } from './payment-links';
import {
  type CustomerRef,
  customersById,
  getInvoice,
  type InvoiceRow,
  invoiceDeliveryType,
  invoiceTemplate,
  invoiceTimeZone,
  requireInvoiceRow,
  storedLines,
} from './read';
import { recipientOf } from './send';
import {
  assertNumberFree,
  getInvoiceSettings,
  mergeTemplate,
  NO_NUMBER,
  numbersInvoicesHere,
  takeInvoiceNumber,
} from './settings';
import { restoreMatchedTransaction } from './transaction-link';

/**
 * Invoices of a team written: create (with numbering and totals), update through the checked lifecycle, delete.
 * Rules: docs/decisions/0070…0079. Totals are computed from the line items in exact minor units (./content.ts) on
 * every write that touches them. Sending is ./send.ts.
 */

/** The team's categories' tax rates by slug, for lines that name their category. */
function categoryRates(db: Db, teamId: string): CategoryRate {
  const statement = db.prepare('SELECT tax_rate FROM transaction_categories WHERE team_id = ? AND slug = ?');
  return (slug) => {
    const row = statement.get(teamId, slug) as { tax_rate: number | null } | undefined;
    return row ? row.tax_rate : undefined;
  };
}

/**
 * The customer's invoice language over the team's (docs/decisions/0120): an invoice for a customer who reads German
 * is written in German with German dates, unless the request names its own locale or date format.
 */
function inCustomerLanguage(db: Db, teamId: string, template: InvoiceTemplate, customerId: string, input?: TemplateInput) {
  if (input?.locale) return template;
  const locale = db
    .prepare('SELECT invoice_locale FROM customers WHERE team_id = ? AND id = ?')
    .pluck()
    .get(teamId, customerId) as string | null | undefined;
  if (!locale) return template;
  return { ...template, locale, dateFormat: input?.dateFormat ?? invoiceDateFormat(locale) };
}

function customerOf(db: Db, teamId: string, id: string): CustomerRef {
  const c = customersById(db, teamId, [id]).get(id);
  if (!c) throw new InvalidReference('customerId', `customerId: the team has no customer ${id}`);
  return c;
}

/**
 * The date of supply or service period as stored (docs/decisions/0078): a last day needs a first one, and comes
 * after it; a period of one day is that day.
 */
function supplyPeriod(start: string | null, end: string | null): { supply_date: string | null; supply_end_date: string | null } {
  if (end !== null && start === null) {
    throw new InvalidReference('supplyEndDate', 'supplyEndDate closes a service period: send supplyDate as its first day');
  }
  if (start !== null && end !== null && end < start) {
    throw new InvalidReference('supplyEndDate', 'supplyEndDate must not be before supplyDate');
  }
  return { supply_date: start, supply_end_date: end === start ? null : end };
}

export interface CreateOptions {
  now?: Date;
  /** Marks the invoice as drafted from this tracker project. */
  trackerProjectId?: string;
  /** Idempotency key of the send a create_and_send queues (default: one per invoice). */
  sendKey?: string;
  /** Asked before a create_and_send issues or a scheduled create schedules it (inside the write); throws to refuse. */
  beforeIssue?: IssueGuard;
}

/** The checks before issuing (src-main/invoices/issue-check.ts), passed in by the routes a person's request takes. */
export type IssueGuard = (row: InvoiceRow) => void;

export function createInvoice(db: Db, teamId: string, input: InvoiceCreate, options: CreateOptions = {}): Invoice {
  const now = options.now ?? new Date();
  const id = write(db, teamId, (w) => {
    const settings = getInvoiceSettings(db, teamId);
    const editor = editorWrite(input, {}, { create: true });
    let template = mergeTemplate(settings.template, editor.template);
    if (input.currency) template = { ...template, currency: input.currency };
    if (input.timezone) template = { ...template, timezone: input.timezone };
    const currency = template.currency;
    const tz = template.timezone;
    const customer = input.customerId ? customerOf(db, teamId, input.customerId) : undefined;
    if (customer) template = inCustomerLanguage(db, teamId, template, customer.id, input.template);
    const issueDate = input.issueDate ? dayOf(input.issueDate, tz) : dayIn(now, tz);
    const dueDate = input.dueDate ? dayOf(input.dueDate, tz) : addDays(issueDate, template.paymentTermsDays);
    if (dueDate < issueDate) throw new InvalidReference('dueDate', 'dueDate must not be before issueDate');
    const supply = supplyPeriod(input.supplyDate ?? null, input.supplyEndDate ?? null);
    const lines = toStoredLines(input.lineItems ?? [], currency, categoryRates(db, teamId));
    const discount = input.discount !== undefined ? minorOf(input.discount, currency, 'discount', 'named') : 0;
    if (discount > 0) template = { ...template, includeDiscount: true };
    const totals = totalsOf(lines, template, discount);
    let invoiceNumber: string;
    if (input.invoiceNumber) {
      assertNumberFree(db, teamId, input.invoiceNumber);
      invoiceNumber = input.invoiceNumber;
    } else {
      // A team that syncs leaves numbering to its remote: the invoice takes the remote's number when first pushed.
      invoiceNumber = numbersInvoicesHere(db, teamId) ? takeInvoiceNumber(db, teamId) : NO_NUMBER;
    }
    if (input.deliveryType === 'scheduled') {
      if (!input.scheduledAt) throw new InvalidReference('scheduledAt', 'scheduledAt is required when deliveryType is scheduled');
      if (Date.parse(input.scheduledAt) <= now.getTime()) {
        throw new InvalidReference('scheduledAt', 'scheduledAt must be in the future');
      }
    } else if (input.scheduledAt) {
      throw new InvalidReference('scheduledAt', 'scheduledAt goes with deliveryType scheduled');
    }
    const invoiceId = input.id ?? newId();
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
      ...supply,
      line_items: JSON.stringify(lines),
      template: storedTemplate(template, input.deliveryType),
      note: (editor.note !== undefined ? editor.note : input.note) ?? null,
      internal_note: input.internalNote ?? null,
      rich_text: editor.richText,
      timezone: tz,
      tracker_project_id: options.trackerProjectId ?? null,
    });
    const row = requireInvoiceRow(db, teamId, invoiceId);
    if (input.deliveryType !== 'create') options.beforeIssue?.(row);
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
  'supplyDate',
  'supplyEndDate',
  'fromDetails',
  'paymentDetails',
  'topBlock',
  'bottomBlock',
  'logoUrl',
] as const;

export interface UpdateOptions {
  /**
   * Reach `status` through as many moves of the lifecycle as it takes, each checked (a sync replica's state: an
   * invoice issued and paid on one side is issued, then paid, on the other; docs/decisions/0143). A canceled invoice
   * the other side issued or paid meanwhile is restored to a draft first: a cancel made offline does not undo what
   * went out or came in elsewhere. Otherwise a status is one move away or refused.
   */
  throughLifecycle?: boolean;
  /**
   * The invoice is brought to the content the sync remote holds (docs/decisions/0143): not a person's edit of an
   * issued invoice but this copy following the shared one, so the lifecycle's edit checks do not apply.
   */
  followRemote?: boolean;
  /** Asked before the invoice is issued or scheduled by this update (inside the write); throws to refuse. */
  beforeIssue?: IssueGuard;
}

/**
 * PATCH/PUT: only supplied fields change. Content (customer, number, lines, amounts, issue date, template) may change
 * while the invoice is not issued; terms (due date, time zone, notes) until it is settled; `status` moves through the
 * lifecycle. Totals are recomputed whenever lines, rates, discount or currency change.
 */
export function updateInvoice(
  db: Db,
  teamId: string,
  id: string,
  patch: InvoicePatch,
  now = new Date(),
  options: UpdateOptions = {},
): Invoice {
  write(db, teamId, (w) => {
    let r = requireInvoiceRow(db, teamId, id);
    const contentChange = CONTENT_FIELDS.some((f) => patch[f] !== undefined);
    const termsChange =
      patch.dueDate !== undefined || patch.timezone !== undefined || patch.note !== undefined || patch.noteDetails !== undefined;
    const notesOnly = patch.internalNote !== undefined;
    const wantsStatus = patch.status !== undefined && patch.status !== r.status;

    // A status move the same request asks for (e.g. content plus "issue") comes after the content change, except
    // when it makes the invoice editable again (unschedule).
    if (contentChange || termsChange) {
      const action: InvoiceAction = contentChange ? 'edit' : 'edit_terms';
      const editableAfterMove = wantsStatus && patch.status === 'draft' && r.status === 'scheduled';
      if (!editableAfterMove && !options.followRemote) checkedMove(r, action, now);
    }
    if (wantsStatus && patch.status === 'draft' && r.status === 'scheduled') {
      applyMove(w, r, 'unschedule', { now });
      r = requireInvoiceRow(db, teamId, id);
    }

    if (contentChange || termsChange || notesOnly) {
      const values: Record<string, string | number | null> = {};
      let template = invoiceTemplate(r);
      let lines = storedLines(r);
      let discount = r.discount_minor;
      const editor = editorWrite(patch, readBlocks(r.rich_text), { create: false });
      template = mergeTemplate(template, editor.template);
      const currency = patch.currency ?? patch.template?.currency ?? r.currency;
      template = { ...template, currency };
      if (patch.timezone) template = { ...template, timezone: patch.timezone };
      if (patch.lineItems) lines = toStoredLines(patch.lineItems, currency, categoryRates(db, teamId));
      else if (currency !== r.currency) lines = convertLines(lines, r.currency, currency);
      if (patch.discount !== undefined) discount = minorOf(patch.discount, currency, 'discount', 'named');
      else if (currency !== r.currency) discount = minorOf(toMajor(discount, r.currency), currency, 'discount', 'named');
      if (discount > 0) template = { ...template, includeDiscount: true };
      if (patch.customerId !== undefined) {
        if (patch.customerId === null) values.customer_id = null;
        else {
          const c = customerOf(db, teamId, patch.customerId);
          values.customer_id = c.id;
          if (c.id !== r.customer_id) template = inCustomerLanguage(db, teamId, template, c.id, patch.template);
          if (patch.customerName === undefined) values.customer_name = c.name;
        }
      }
      if (patch.customerName !== undefined) values.customer_name = patch.customerName;
      if (patch.invoiceNumber !== undefined && patch.invoiceNumber !== r.invoice_number) {
        assertNumberFree(db, teamId, patch.invoiceNumber, id);
        values.invoice_number = patch.invoiceNumber;
      }
      const issueDate = patch.issueDate ? dayOf(patch.issueDate, template.timezone) : r.issue_date;
      const dueDate = patch.dueDate ? dayOf(patch.dueDate, template.timezone) : r.due_date;
      if (dueDate < issueDate) throw new InvalidReference('dueDate', 'dueDate must not be before issueDate');
      values.issue_date = issueDate;
      values.due_date = dueDate;
      Object.assign(
        values,
        supplyPeriod(
          patch.supplyDate !== undefined ? patch.supplyDate : r.supply_date,
          patch.supplyEndDate !== undefined ? patch.supplyEndDate : r.supply_end_date,
        ),
      );
      values.currency = currency;
      values.timezone = template.timezone;
      values.line_items = JSON.stringify(lines);
      values.template = storedTemplate(template, invoiceDeliveryType(r));
      if (editor.note !== undefined) values.note = editor.note;
      else if (patch.note !== undefined) values.note = patch.note;
      if (patch.internalNote !== undefined) values.internal_note = patch.internalNote;
      values.rich_text = editor.richText;
      Object.assign(values, totalsOf(lines, template, discount));
      w.update('invoice', id, values);
      r = requireInvoiceRow(db, teamId, id);
    }

    if (wantsStatus && r.status !== patch.status) {
      const target = patch.status!;
      const ctx = lifecycleContext(r, now);
      const steps = options.throughLifecycle ? syncPath(r.status, target, ctx) : [target];
      if (!steps || (!options.throughLifecycle && !actionFor(r.status, target, ctx))) {
        const allowed = nextStatuses(r.status, ctx);
        throw new Conflict(
          `The invoice is ${r.status}: it cannot become ${target}. Allowed next states: ${allowed.length ? allowed.join(', ') : 'none (the invoice is settled)'}`,
        );
      }
      for (const step of steps) r = moveTo(w, requireInvoiceRow(db, teamId, id), step, patch, now, options.beforeIssue);
    } else if (patch.paidAt !== undefined && r.status === 'paid') {
      w.update('invoice', id, { paid_at: new Date(patch.paidAt).toISOString() });
    }
  });
  return getInvoice(db, teamId, id, now);
}

/** The statuses a sync walks through to `target` (UpdateOptions.throughLifecycle). */
function syncPath(from: InvoiceStatus, target: InvoiceStatus, ctx: LifecycleContext): InvoiceStatus[] | undefined {
  const path = lifecyclePath(from, target, ctx);
  if (path || from !== 'canceled') return path;
  const rest = lifecyclePath('draft', target, ctx);
  return rest ? ['draft', ...rest] : undefined;
}

/** One move of the lifecycle to `target` (asked by PATCH/PUT `status`), with what goes with it. */
function moveTo(
  w: Writer,
  row: InvoiceRow,
  target: InvoiceStatus,
  patch: InvoicePatch,
  now: Date,
  beforeIssue?: IssueGuard,
): InvoiceRow {
  const { db, teamId } = w;
  const id = row.id;
  let r = row;
  if (r.status === 'canceled' && target === 'draft') {
    // A sync's restore (syncPath): what the cancel released stays released; the invoice goes out again from a draft.
    w.update('invoice', id, { status: 'draft', canceled_at: null });
    return requireInvoiceRow(db, teamId, id);
  }
  const action = actionFor(r.status, target, lifecycleContext(r, now))!;
  if (action === 'schedule') {
    if (!patch.scheduledAt) throw new InvalidReference('scheduledAt', 'scheduledAt is required to schedule an invoice');
    if (Date.parse(patch.scheduledAt) <= now.getTime()) {
      throw new InvalidReference('scheduledAt', 'scheduledAt must be in the future');
    }
  }
  if (action === 'issue' || action === 'schedule') beforeIssue?.(r);
  if (action === 'issue' && !r.sent_at) w.update('invoice', id, { sent_at: w.now });
  if (action === 'issue') r = requireInvoiceRow(db, teamId, id);
  // Marked paid (or refunded) by hand: what was still due (or what can be refunded) is recorded as a payment
  // (a refund) on the day given; reopened by hand: the applied payments are undone.
  const settlement = settlementOf(db, teamId, r);
  if (action === 'reopen') undoAppliedPayments(w, id, restoreMatchedTransaction(db, teamId));
  applyMove(w, r, action, { now, paidAt: patch.paidAt, scheduledAt: patch.scheduledAt });
  const paidOn = dayIn(new Date(patch.paidAt ?? w.now), invoiceTimeZone(r));
  if (action === 'pay') {
    recordManualPayment(w, r, { kind: 'payment', amountMinor: dueMinor(settlement), paidOn });
  }
  if (action === 'refund') {
    recordManualPayment(w, r, {
      kind: 'refund',
      amountMinor: refundableMinor(settlement),
      paidOn: dayIn(now, invoiceTimeZone(r)),
    });
  }
  return requireInvoiceRow(db, teamId, id);
}

/** DELETE: only a draft or a canceled invoice; its tracker entries become unbilled. Returns the deleted invoice. */
export function deleteInvoice(db: Db, teamId: string, id: string, now = new Date()): Invoice {
  const before = getInvoice(db, teamId, id, now);
  write(db, teamId, (w) => {
    checkedMove(requireInvoiceRow(db, teamId, id), 'delete', now);
    releaseTrackerEntries(w, id);
    releaseInvoicePayments(w, id, { removeAll: true });
    w.remove('invoice', id);
  });
  return before;
}
