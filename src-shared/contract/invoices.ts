import { z } from 'zod';
import { editorDocProblem, editorText } from '../domain/editor-text';
import { E_INVOICE_FORMATS, ISSUED_VAT_CATEGORIES } from '../domain/einvoice/model';
import { isCalendarDay, isTimeZone } from '../domain/invoice-dates';
import { INVOICE_STATUSES } from '../domain/invoice-status';
import { isCurrencyCode } from '../money';
import { isLanguageTag } from '../validation/language-tags';
import { ClientId, DayInput, multiValue, PageSize } from './common';
import { RuleFailure } from './errors';
import { CursorQuery, idParams, pageOf, sortParam } from './list';
import { defineRoute } from './route';

/**
 * Invoices (`/v1/invoices`, scopes invoices.*), with the hosted service's names (hosted-service-facts "Invoices";
 * docs/decisions/0070…0079). Money is in major units on the wire (12.5 = 12.50 EUR) and exact minor units inside.
 * Statuses move only through the checked lifecycle (src-shared/domain/invoice-lifecycle.ts): setting `status`
 * directly (the hosted PUT) is checked like every other move, and a refused move is 409 naming the current state and
 * the allowed next states.
 */

const emptyToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

function text(max: number) {
  return z.preprocess(emptyToNull, z.string().trim().max(max, `must be at most ${max} characters`).nullable()).optional();
}

export const Day = z.string().refine(isCalendarDay, 'must be a calendar date YYYY-MM-DD');
export const TimeZone = z.string().refine(isTimeZone, 'must be an IANA time zone such as Europe/Berlin');
export const Currency = z.string().trim().toUpperCase().refine(isCurrencyCode, 'must be an ISO 4217 currency code such as EUR');
const Locale = z.string().max(35).refine(isLanguageTag, 'must be a BCP 47 locale such as de-DE');
const Rate = z.number().min(0, 'must be from 0 to 100').max(100, 'must be from 0 to 100');
const Email = z.preprocess(emptyToNull, z.email('must be a valid email address').max(254).nullable()).optional();
const Instant = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time, e.g. 2025-05-01T09:00:00Z' });

/**
 * A rich-text document of the hosted service's invoice editor (TipTap JSON, src-shared/domain/editor-text.ts):
 * kept as sent; its plain text is what the invoice prints.
 */
export const EditorDoc = z
  .looseObject({
    type: z.literal('doc'),
    content: z.array(z.unknown()).optional(),
  })
  .superRefine((v, ctx) => {
    const problem = editorDocProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({
    id: 'EditorDoc',
    description:
      'rich text as the hosted invoice editor writes it: {type: "doc", content: [{type: "paragraph", content: [{type: "text", text: "…"}]}]}',
  });
export type EditorDoc = z.infer<typeof EditorDoc>;

/** Plain text, or the hosted editor's document (its plain text is printed). */
function richText(max: number) {
  return z
    .preprocess(emptyToNull, z.union([z.string().trim().max(max, `must be at most ${max} characters`), EditorDoc]).nullable())
    .optional()
    .superRefine((v, ctx) => {
      if (v && typeof v !== 'string' && editorText(v).length > max) {
        ctx.addIssue({ code: 'custom', message: `its text must be at most ${max} characters` });
      }
    });
}

/** A rate the hosted service may send as null: null is "not given". */
const OptionalRate = z.preprocess(
  (v) => (v === null ? undefined : v),
  z.number().min(0, 'must be from 0 to 100').max(100, 'must be from 0 to 100').optional(),
);

export const DATE_FORMATS = ['dd/MM/yyyy', 'MM/dd/yyyy', 'yyyy-MM-dd', 'dd.MM.yyyy', 'dd-MM-yyyy'] as const;
export const DELIVERY_TYPES = ['create', 'create_and_send', 'scheduled'] as const;
export const InvoiceStatusSchema = z.enum(INVOICE_STATUSES);

/**
 * The invoice's template: presentation and defaults (hosted names). Unknown keys (the hosted service's label
 * texts, logo and so on) are kept as sent.
 */
export const TemplateInput = z.looseObject({
  currency: Currency.optional(),
  locale: Locale.optional(),
  dateFormat: z.enum(DATE_FORMATS).optional(),
  timezone: TimeZone.optional(),
  paymentTermsDays: z.number().int().min(0).max(365).optional(),
  includeVat: z.boolean().optional(),
  includeTax: z.boolean().optional(),
  includeDiscount: z.boolean().optional(),
  vatRate: OptionalRate,
  taxRate: OptionalRate,
  size: z.enum(['a4', 'letter']).optional(),
  title: text(100),
  fromDetails: richText(2000).describe(
    "the team's name and address as printed (default: the team name); text or the hosted editor's document (its text is kept)",
  ),
  customerDetails: richText(2000).describe(
    "the customer's address block as printed (default: from the customer record); text or an editor document",
  ),
  paymentDetails: richText(2000).describe(
    'bank details or payment instructions printed under the totals; text or an editor document',
  ),
  noteDetails: richText(10_000).describe(
    "the hosted service's default note of new invoices: printed as the note when the invoice gives none; text or an editor document",
  ),
  vatLabel: text(50),
  taxLabel: text(50),
  vatExemptionReason: text(500).describe(
    'why no VAT is charged, printed where a line has no VAT or the invoice charges none (e.g. "Reverse charge: the ' +
      'recipient is liable for VAT, Art. 196 EU VAT directive", "Kein Ausweis von Umsatzsteuer, da Kleinunternehmer ' +
      'gemäß § 19 UStG"); a team sets it once in its invoice settings',
  ),
  vatCategory: z
    .enum(ISSUED_VAT_CATEGORIES)
    .nullable()
    .optional()
    .describe(
      'extension, for e-invoices: the EN 16931 VAT category of the lines without VAT — Z zero rated, E exempt, AE reverse ' +
        'charge, K intra-community supply, G export (default: E with an exemption reason, else Z); lines with VAT are S',
    ),
  vatExemptionReasonCode: text(30).describe('extension, for e-invoices: the VATEX code of the exemption, e.g. VATEX-EU-132'),
  buyerReference: text(100).describe("extension, for e-invoices: this invoice's buyer reference (BT-10), over the customer's"),
});
export type TemplateInput = z.infer<typeof TemplateInput>;

export const InvoiceTemplate = z
  .looseObject({
    currency: z.string(),
    locale: z.string(),
    dateFormat: z.string(),
    timezone: z.string(),
    paymentTermsDays: z.number().int(),
    includeVat: z.boolean(),
    includeTax: z.boolean(),
    includeDiscount: z.boolean(),
    vatRate: z.number(),
    taxRate: z.number(),
    size: z.enum(['a4', 'letter']),
    title: z.string().nullable(),
    fromDetails: z.string().nullable(),
    customerDetails: z.string().nullable(),
    paymentDetails: z.string().nullable(),
    vatLabel: z.string().nullable(),
    taxLabel: z.string().nullable(),
    vatExemptionReason: z.string().nullable(),
  })
  .meta({ id: 'InvoiceTemplate' });
export type InvoiceTemplate = z.infer<typeof InvoiceTemplate>;

export const LineItemInput = z.strictObject({
  name: z
    .union([z.string().trim().min(1, 'must not be empty').max(500, 'must be at most 500 characters'), EditorDoc])
    .superRefine((v, ctx) => {
      if (typeof v === 'string') return;
      const t = editorText(v);
      if (!t) ctx.addIssue({ code: 'custom', message: 'must not be empty: the document has no text' });
      else if (t.length > 500) ctx.addIssue({ code: 'custom', message: 'its text must be at most 500 characters' });
    })
    .describe("the item's description: text, or the hosted editor's document (kept; its text is the line's name)"),
  quantity: z.number().min(0).max(1_000_000_000).default(1).describe('at most 4 decimals'),
  unit: text(50),
  price: z
    .number()
    .describe(
      'unit price in major units of the invoice currency (negative for a credit line), with up to two decimals more than the currency has (EN 16931 BT-146: 1.6349 EUR); the line amount is rounded to the currency',
    ),
  vat: Rate.nullable()
    .optional()
    .describe("this line's VAT rate in percent; omitted or null: its category's rate, else the invoice's vatRate"),
  taxRate: Rate.nullable().optional().describe("this line's tax rate in percent; omitted or null: the invoice's taxRate"),
  tax: Rate.nullable().optional().describe("the hosted service's older name of taxRate"),
  productId: z.string().max(200).optional().describe("the hosted service's saved-product reference; accepted and not kept"),
  category: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .nullable()
    .optional()
    .describe(
      "extension: the slug of the team's transaction category this line's revenue belongs to; its tax rate is the line's VAT rate when `vat` is not given",
    ),
});
export type LineItemInput = z.infer<typeof LineItemInput>;

export const LineItem = z
  .object({
    name: z.string(),
    quantity: z.number(),
    unit: z.string().nullable(),
    price: z.number(),
    vat: z.number().nullable().describe('own VAT rate (%), null when the invoice rate applies'),
    taxRate: z.number().nullable().describe('own tax rate (%), null when the invoice rate applies'),
    tax: z.number().nullable().describe('same as taxRate (hosted name)'),
    category: z.string().nullable().describe("extension: the line's revenue category (slug)"),
    amount: z.number().describe('quantity × price, rounded to the currency (net of VAT and tax)'),
    nameContent: EditorDoc.nullable().describe(
      "extension: the hosted editor's document the name was given as (null: plain text)",
    ),
  })
  .meta({ id: 'InvoiceLineItem' });

const LineItems = z.array(LineItemInput).max(500, 'at most 500 line items');

const writable = {
  customerId: z.string().min(1).max(200).nullable().optional().describe("one of the team's customers"),
  customerName: text(200).describe('the recipient name when there is no customer record (default: the customer name)'),
  invoiceNumber: z
    .string()
    .trim()
    .min(1)
    .max(50)
    .optional()
    .describe('unique per team; default the next number of the team sequence (INV-0001 style); 409 when taken'),
  issueDate: DayInput.optional().describe(
    'default today in the invoice time zone; a date-time with an offset is taken on its day in the invoice time zone',
  ),
  dueDate: DayInput.optional().describe('default issueDate + template.paymentTermsDays; a date-time as issueDate'),
  supplyDate: z
    .preprocess(emptyToNull, Day.nullable())
    .optional()
    .describe('the date of supply, or the first day of the service period; null: the issue date is the supply date'),
  supplyEndDate: z
    .preprocess(emptyToNull, Day.nullable())
    .optional()
    .describe('the last day of the service period (with supplyDate as its first); null: supplyDate is one day'),
  currency: Currency.optional().describe('same as template.currency; default the team settings, else the base currency'),
  timezone: TimeZone.optional().describe('same as template.timezone: due dates are days in this zone; default UTC'),
  template: TemplateInput.optional(),
  lineItems: LineItems.optional(),
  discount: z
    .preprocess((v) => (v === null ? undefined : v), z.number().min(0).optional())
    .describe('an amount in major units taken off the total (after tax); null (the hosted editor) is none given'),
  note: text(10_000).describe('printed on the invoice'),
  internalNote: text(10_000).describe('never printed'),
  // The hosted editor's blocks (docs/decisions/0163): kept as sent, their text printed.
  fromDetails: richText(2000).describe("the hosted editor's sender block: its text becomes template.fromDetails"),
  paymentDetails: richText(2000).describe("the hosted editor's payment block: its text becomes template.paymentDetails"),
  noteDetails: richText(10_000).describe("the hosted editor's note: its text becomes the note (with note too, both must agree)"),
  topBlock: richText(10_000).describe("the hosted editor's block above the lines: kept, not printed"),
  bottomBlock: richText(10_000).describe("the hosted editor's block below the totals: kept, not printed"),
  logoUrl: z
    .preprocess(emptyToNull, z.string().trim().max(2048).nullable())
    .optional()
    .describe('the hosted name of template.logoUrl'),
  vat: z.number().nullable().optional().describe("the hosted editor's computed VAT: accepted and ignored (computed here)"),
  tax: z.number().nullable().optional().describe("the hosted editor's computed tax: accepted and ignored (computed here)"),
  amount: z.number().nullable().optional().describe("the hosted editor's computed total: accepted and ignored (computed here)"),
};

export const InvoiceCreate = z.strictObject({
  id: ClientId.optional(),
  ...writable,
  deliveryType: z
    .enum(DELIVERY_TYPES)
    .default('create')
    .describe('create: a draft; create_and_send: issue and queue the email; scheduled: issue and send at scheduledAt'),
  scheduledAt: Instant.optional().describe('when deliveryType is scheduled: the time to issue and send it'),
  recipient: Email.describe("send to this address instead of the customer's billing email"),
});
export type InvoiceCreate = z.infer<typeof InvoiceCreate>;

/** PATCH (and the hosted PUT): only supplied fields change. `status` moves through the checked lifecycle. */
export const InvoicePatch = z.strictObject({
  ...writable,
  status: InvoiceStatusSchema.optional().describe('a move of the lifecycle; a refused move is 409 naming the allowed states'),
  paidAt: Instant.optional().describe('with status paid: when it was paid (default now)'),
  scheduledAt: Instant.optional().describe('with status scheduled: when to issue and send it'),
});
export type InvoicePatch = z.infer<typeof InvoicePatch>;

export const DELIVERY_STATES = ['queued', 'awaiting_sync', 'sending', 'sent', 'failed', 'canceled'] as const;

export const InvoiceDelivery = z
  .object({
    id: z.string(),
    kind: z.enum(['invoice', 'reminder']),
    state: z
      .enum(DELIVERY_STATES)
      .describe('awaiting_sync: no SMTP server is configured; it goes out via the remote instance when sync runs'),
    recipient: z.string().nullable(),
    attempts: z.number().int(),
    lastError: z.string().nullable(),
    createdAt: z.string(),
    sentAt: z.string().nullable(),
    reminderLevel: z.number().int().nullable().describe("extension: a reminder's dunning level (1 = first); null: none"),
    fee: z.number().nullable().describe('extension: the reminder fee it states, in the invoice currency'),
  })
  .meta({ id: 'InvoiceDelivery' });
export type InvoiceDelivery = z.infer<typeof InvoiceDelivery>;

export const InvoicePaymentRef = z
  .object({
    id: z.string(),
    kind: z.enum(['payment', 'refund']),
    transactionId: z.string().nullable(),
    amount: z.number(),
    currency: z.string(),
    date: z.string(),
    matchedBy: z.enum(['auto', 'user', 'manual']),
    confidence: z.number().nullable(),
  })
  .meta({ id: 'InvoicePaymentRef' });

export const Invoice = z
  .object({
    id: z.string(),
    invoiceNumber: z
      .string()
      .nullable()
      .describe(
        'null: not numbered yet — a team that syncs with a remote leaves numbering to it, and the invoice takes the number the remote gives it when first synced',
      ),
    status: InvoiceStatusSchema,
    nextStatuses: z.array(InvoiceStatusSchema).describe('the states the lifecycle allows next'),
    customerId: z.string().nullable(),
    customerName: z.string().nullable(),
    customer: z
      .object({ id: z.string(), name: z.string(), email: z.string().nullable(), billingEmail: z.string().nullable() })
      .nullable()
      .describe('null when the invoice has no customer or the customer was deleted'),
    currency: z.string(),
    amount: z.number().describe('total due: subtotal + vat + tax − discount'),
    subtotal: z.number(),
    vat: z.number(),
    tax: z.number(),
    discount: z.number(),
    issueDate: z.string(),
    dueDate: z.string(),
    supplyDate: z.string().nullable().describe('the date of supply or first day of the service period; null: the issue date'),
    supplyEndDate: z.string().nullable().describe('the last day of the service period; null: a single supply date'),
    timezone: z.string(),
    scheduledAt: z.string().nullable(),
    sentAt: z.string().nullable(),
    paidAt: z.string().nullable(),
    canceledAt: z.string().nullable(),
    refundedAt: z.string().nullable(),
    reminderSentAt: z.string().nullable(),
    lineItems: z.array(LineItem),
    template: InvoiceTemplate,
    note: z.string().nullable(),
    internalNote: z.string().nullable(),
    fromDetails: EditorDoc.nullable().describe("extension: the hosted editor's sender block as sent (null: none)"),
    paymentDetails: EditorDoc.nullable().describe("extension: the hosted editor's payment block as sent"),
    noteDetails: EditorDoc.nullable().describe("extension: the hosted editor's note as sent"),
    topBlock: EditorDoc.nullable().describe("extension: the hosted editor's block above the lines as sent"),
    bottomBlock: EditorDoc.nullable().describe("extension: the hosted editor's block below the totals as sent"),
    trackerProjectId: z.string().nullable().describe('the tracker project this invoice was drafted from'),
    delivery: InvoiceDelivery.nullable().describe('the latest email of this invoice (invoice or reminder)'),
    payment: InvoicePaymentRef.nullable().describe('the latest applied payment (not refund), if any'),
    payments: z.array(InvoicePaymentRef).describe('applied payments and refunds, oldest first'),
    paidAmount: z.number().describe('sum of the applied payments'),
    refundedAmount: z.number().describe('sum of the applied refunds'),
    amountDue: z.number().describe('what is still due: amount − paidAmount while unpaid or overdue, else 0'),
    pdfUrl: z.string().describe('GET this path for the PDF'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Invoice' });
export type Invoice = z.infer<typeof Invoice>;

export const INVOICE_SORT_COLUMNS = [
  'created_at',
  'invoice_date',
  'issue_date',
  'due_date',
  'invoice_number',
  'amount',
  'status',
  'customer',
] as const;
export type InvoiceSortColumn = (typeof INVOICE_SORT_COLUMNS)[number];

export const InvoiceListQuery = z.object({
  q: z
    .string()
    .max(200, 'must be at most 200 characters')
    .optional()
    .describe('text in the number, customer or note; a number (12.5 or 12,50) also matches the amount'),
  statuses: multiValue(InvoiceStatusSchema).describe('repeated key; any of them'),
  customers: multiValue(z.string().min(1).max(200)).describe('customer ids (repeated key)'),
  start: Day.optional().describe('issued on or after this day'),
  end: Day.optional().describe('issued on or before this day'),
  sort: sortParam(INVOICE_SORT_COLUMNS, 'created_at desc'),
  cursor: CursorQuery,
  pageSize: PageSize,
});
export type InvoiceListQuery = z.infer<typeof InvoiceListQuery>;

export const InvoicePage = pageOf(Invoice);

export const SendBody = z
  .strictObject({
    to: Email.describe("default: the customer's billing email, else its email"),
    idempotencyKey: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .describe('the same key never queues a second email for this invoice (default: a new email each call)'),
    subject: text(300).describe("extension: the email's subject (default: the invoice's, in its language)"),
    message: text(20_000).describe("extension: the email's text (default: the invoice's, in its language)"),
  })
  .default({});

export const EmailDraftQuery = z.object({
  kind: z.enum(['invoice', 'reminder']).default('invoice'),
});
export const EmailDraft = z
  .object({
    kind: z.enum(['invoice', 'reminder']),
    to: z.string().nullable().describe("the customer's billing email, else its email"),
    subject: z.string(),
    message: z.string(),
    locale: z.string().describe('the language it is written in: the invoice’s'),
    reminderLevel: z.number().int().nullable().describe('a reminder: the dunning level it would be (1 = first); null: none set'),
    fee: z.number().describe('a reminder: the fee its level states, in the invoice currency'),
  })
  .meta({ id: 'InvoiceEmailDraft' });
export type EmailDraft = z.infer<typeof EmailDraft>;

export const IssueCheck = z
  .object({
    ok: z.boolean().describe('true: nothing is missing; the invoice can be issued'),
    failures: z
      .array(RuleFailure)
      .describe('what the invoice must state and does not (Art. 226 VAT directive, § 14 UStG), then its e-invoice rules'),
  })
  .meta({ id: 'InvoiceIssueCheck' });

export const InvoiceSummaryQuery = z.object({
  statuses: multiValue(InvoiceStatusSchema).describe('default: every issued status (all but draft and canceled)'),
});
export const InvoiceSummary = z.object({
  data: z.array(
    z.object({
      currency: z.string(),
      totalAmount: z.number().describe('sum of the amounts of the invoices counted'),
      invoiceCount: z.number().int(),
      paid: z.number(),
      outstanding: z.number().describe('unpaid and overdue'),
      overdue: z.number(),
    }),
  ),
});

export const PaymentStatus = z.object({
  score: z.number().int().min(0).max(100).nullable().describe('share of invoices settled on time, 0–100; null without data'),
  paymentStatus: z.enum(['good', 'average', 'bad', 'none']).describe('good ≥ 80, average ≥ 50, bad below, none without data'),
  paidOnTime: z.number().int(),
  paidLate: z.number().int(),
  overdue: z.number().int().describe('open invoices past their due date (count as late)'),
  windowDays: z.number().int(),
});

/** One reminder level of a team's dunning (docs/decisions/0122-dunning-levels.md). */
export const DunningLevel = z.strictObject({
  daysAfterDue: z.number().int().min(0).max(365).describe('the level is due this many days after the due date'),
  fee: z.number().min(0).max(10_000).describe('the reminder fee it states, in major units of the invoice currency'),
});
export type DunningLevel = z.infer<typeof DunningLevel>;

export const Dunning = z
  .object({
    levels: z
      .array(DunningLevel)
      .max(5, 'at most 5 levels')
      .refine((l) => l.every((x, i) => i === 0 || x.daysAfterDue > l[i - 1]!.daysAfterDue), {
        message: 'each level must come later than the one before',
      })
      .describe('the reminders, the first first; none: reminders carry no level or fee'),
    automatic: z
      .boolean()
      .describe("true: the server queues each level's reminder on its day (the customer's e-mail); false: a person sends them"),
  })
  .meta({ id: 'InvoiceDunning' });
export type Dunning = z.infer<typeof Dunning>;

export const InvoiceSettings = z.object({
  numberPrefix: z.string(),
  numberWidth: z.number().int(),
  nextNumber: z.number().int().describe('the number the next invoice without an explicit invoiceNumber gets'),
  template: InvoiceTemplate,
  dunning: Dunning.describe('extension: reminder levels with their fees and schedule'),
});
export const InvoiceSettingsPatch = z.strictObject({
  numberPrefix: z
    .string()
    .max(20)
    .regex(/^[^\s]*$/, 'must not contain spaces')
    .optional(),
  numberWidth: z.number().int().min(1).max(12).optional(),
  nextNumber: z.number().int().min(1).max(1_000_000_000).optional(),
  template: TemplateInput.optional(),
  dunning: Dunning.optional().describe('extension: replaces the reminder levels and their schedule'),
});

export const TrackerInvoiceBody = z.strictObject({
  projectId: z.string().min(1).max(200).describe("one of the team's tracker projects (billable, with a rate)"),
  entryIds: z.array(z.string().min(1).max(200)).min(1).max(5000).optional().describe('default: every unbilled entry'),
  from: Day.optional().describe('only entries on or after this day'),
  to: Day.optional().describe('only entries on or before this day'),
  issueDate: Day.optional(),
  dueDate: Day.optional(),
  invoiceNumber: writable.invoiceNumber,
  template: TemplateInput.optional(),
  note: text(10_000),
});

export const InvoiceIdParams = idParams();

export const EInvoiceQuery = z.object({
  format: z.enum(E_INVOICE_FORMATS).optional().describe("default: the customer's e-invoice format, else the team's"),
  document: z
    .enum(['invoice', 'credit-note'])
    .default('invoice')
    .describe('credit-note: the credit note of a refunded invoice (type 381, the invoice as its preceding reference)'),
});

export const EInvoiceCheck = z
  .object({
    format: z.enum(E_INVOICE_FORMATS).nullable().describe('the format checked; null when none is chosen'),
    ok: z.boolean().describe('true: the e-invoice can be issued'),
    failures: z.array(RuleFailure).describe('every business rule it fails (empty when ok)'),
    message: z.string().nullable().describe('why no check was possible (no format chosen, not refunded)'),
  })
  .meta({ id: 'EInvoiceCheck' });

export const invoiceRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/invoices',
    tag: 'invoices',
    summary: 'List and filter invoices (keyset cursor, no total count)',
    scopes: ['invoices.read'],
    query: InvoiceListQuery,
    responses: { 200: InvoicePage },
  }),
  create: defineRoute({
    method: 'POST',
    path: '/invoices',
    tag: 'invoices',
    summary: 'Create an invoice: a draft, or issued and queued for sending, or scheduled (201)',
    scopes: ['invoices.write'],
    idempotent: true,
    body: InvoiceCreate,
    responses: { 201: Invoice },
  }),
  summary: defineRoute({
    method: 'GET',
    path: '/invoices/summary',
    tag: 'invoices',
    summary: 'Invoice totals by currency',
    scopes: ['invoices.read'],
    query: InvoiceSummaryQuery,
    responses: { 200: InvoiceSummary },
  }),
  paymentStatus: defineRoute({
    method: 'GET',
    path: '/invoices/payment-status',
    tag: 'invoices',
    summary: 'On-time payment score of the last 12 months (0–100)',
    scopes: ['invoices.read'],
    responses: { 200: PaymentStatus },
  }),
  settings: defineRoute({
    method: 'GET',
    path: '/invoices/settings',
    tag: 'invoices',
    summary: 'Extension: numbering and the defaults of new invoices (team details, payment details, locale…)',
    scopes: ['invoices.read'],
    responses: { 200: InvoiceSettings },
  }),
  updateSettings: defineRoute({
    method: 'PATCH',
    path: '/invoices/settings',
    tag: 'invoices',
    summary: 'Extension: change the numbering or the defaults of new invoices',
    scopes: ['invoices.write'],
    body: InvoiceSettingsPatch,
    responses: { 200: InvoiceSettings },
  }),
  get: defineRoute({
    method: 'GET',
    path: '/invoices/:id',
    tag: 'invoices',
    summary: 'Retrieve an invoice',
    scopes: ['invoices.read'],
    params: InvoiceIdParams,
    responses: { 200: Invoice },
  }),
  update: defineRoute({
    method: 'PATCH',
    path: '/invoices/:id',
    tag: 'invoices',
    summary: 'Change supplied fields; status moves are checked (409 names the allowed next states)',
    scopes: ['invoices.write'],
    idempotent: true,
    params: InvoiceIdParams,
    body: InvoicePatch,
    responses: { 200: Invoice },
  }),
  put: defineRoute({
    method: 'PUT',
    path: '/invoices/:id',
    tag: 'invoices',
    summary: "The hosted service's update: same body and rules as PATCH (only supplied fields change)",
    scopes: ['invoices.write'],
    idempotent: true,
    params: InvoiceIdParams,
    body: InvoicePatch,
    responses: { 200: Invoice },
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/invoices/:id',
    tag: 'invoices',
    summary: 'Delete a draft or canceled invoice (others: 409); returns the deleted invoice',
    scopes: ['invoices.write'],
    params: InvoiceIdParams,
    responses: { 200: Invoice },
  }),
  send: defineRoute({
    method: 'POST',
    path: '/invoices/:id/send',
    tag: 'invoices',
    summary: 'Issue a draft or scheduled invoice and queue its email (or send an issued open one again)',
    description:
      'The email is queued durably and goes out through the team SMTP server; without one it waits as awaiting_sync for the remote instance (sync).',
    scopes: ['invoices.write'],
    idempotent: true,
    params: InvoiceIdParams,
    body: SendBody,
    responses: { 200: Invoice },
  }),
  deliveries: defineRoute({
    method: 'GET',
    path: '/invoices/:id/deliveries',
    tag: 'invoices',
    summary: "Extension: the invoice's emails (the invoice and its reminders), oldest first, with their state",
    description:
      'A sync replica reads here the state of an email it relayed through this server (docs/decisions/0143-invoice-sync.md).',
    scopes: ['invoices.read'],
    params: InvoiceIdParams,
    responses: { 200: z.object({ data: z.array(InvoiceDelivery) }) },
  }),
  emailDraft: defineRoute({
    method: 'GET',
    path: '/invoices/:id/email',
    tag: 'invoices',
    summary: "Extension: the subject and text the invoice's email (or its next reminder) goes with unless others are given",
    scopes: ['invoices.read'],
    params: InvoiceIdParams,
    query: EmailDraftQuery,
    responses: { 200: EmailDraft },
  }),
  issueCheck: defineRoute({
    method: 'GET',
    path: '/invoices/:id/issue-check',
    tag: 'invoices',
    summary: 'Extension: what the invoice must state before it is issued and does not (the send refuses it with the same list)',
    description:
      'Art. 226 of the EU VAT directive and § 14 (4) UStG: both parties’ names and addresses, the seller’s VAT number, the customer’s under reverse charge, the reason where no VAT is charged; where to pay; then the rules of the customer’s e-invoice format.',
    scopes: ['invoices.read'],
    params: InvoiceIdParams,
    responses: { 200: IssueCheck },
  }),
  remind: defineRoute({
    method: 'POST',
    path: '/invoices/:id/remind',
    tag: 'invoices',
    summary: 'Extension: queue a payment reminder for an unpaid or overdue invoice',
    scopes: ['invoices.write'],
    idempotent: true,
    params: InvoiceIdParams,
    body: SendBody,
    responses: { 200: Invoice },
  }),
  pdf: defineRoute({
    method: 'GET',
    path: '/invoices/:id/pdf',
    tag: 'invoices',
    summary: 'The invoice as a PDF (application/pdf)',
    scopes: ['invoices.read'],
    params: InvoiceIdParams,
    responses: { 200: z.any().describe('application/pdf') },
  }),
  eInvoice: defineRoute({
    method: 'GET',
    path: '/invoices/:id/e-invoice',
    tag: 'invoices',
    summary: 'Extension: the invoice as an e-invoice (XRechnung, Peppol BIS 3.0 XML or a ZUGFeRD/Factur-X PDF)',
    description:
      'Checked first against EN 16931 and its format (XRechnung, Peppol); a failing invoice is 422 with `rules` listing each rule and field.',
    scopes: ['invoices.read'],
    params: InvoiceIdParams,
    query: EInvoiceQuery,
    responses: { 200: z.any().describe('application/xml or application/pdf') },
  }),
  eInvoiceCheck: defineRoute({
    method: 'GET',
    path: '/invoices/:id/e-invoice/check',
    tag: 'invoices',
    summary: 'Extension: the business rules the e-invoice of this invoice fails, without producing it',
    scopes: ['invoices.read'],
    params: InvoiceIdParams,
    query: EInvoiceQuery,
    responses: { 200: EInvoiceCheck },
  }),
  fromTracker: defineRoute({
    method: 'POST',
    path: '/invoices/from-tracker',
    tag: 'invoices',
    summary: "Extension: draft an invoice from a tracker project's unbilled entries (they become billed)",
    description:
      "One line item: the entries' total hours (rounded half up to 0.01 h) at the project's hourly rate, in its currency, for its customer. The entries are billed on this invoice; canceling or deleting the draft frees them.",
    scopes: ['invoices.write', 'tracker-entries.write'],
    idempotent: true,
    body: TrackerInvoiceBody,
    responses: { 201: Invoice },
  }),
};
