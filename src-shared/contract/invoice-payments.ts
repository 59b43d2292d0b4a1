import { z } from 'zod';
import { multiValue, PageSize } from './common';
import { Day } from './invoices';
import { CursorQuery, idParams, pageOf } from './list';
import { defineRoute } from './route';

/**
 * Payments of invoices (docs/decisions/0076-invoice-payments.md). The spec's overview names `GET /v1/payments` and
 * `GET /v1/invoice-payments` without shapes; ours:
 * - an invoice payment is a link between an invoice and what paid it: a ledger transaction (suggested by the
 *   matcher, applied automatically above the confidence threshold or confirmed by a person, or dismissed), or a
 *   payment marked by hand (no transaction). Several payments may pay one invoice in parts; a refund gives money
 *   back on a paid one; a bounced payment came back and no longer counts (docs/decisions/0147-partial-payments.md);
 * - `GET /v1/payments` lists the money that moved: the applied payments and refunds, newest first;
 * - `GET /v1/invoice-payments` lists every link with its state, for the review of suggestions;
 *   `POST /v1/invoice-payments` applies a match (confirms a suggestion, or links a transaction by hand);
 *   `DELETE /v1/invoice-payments/{id}` unmatches an applied link (the invoice and the transaction are restored) or
 *   dismisses a suggestion; the link stays as dismissed so the matcher never proposes the same pair again.
 */

export const PAYMENT_STATES = ['suggested', 'applied', 'dismissed', 'bounced'] as const;
export const PAYMENT_KINDS = ['payment', 'refund'] as const;

export const InvoicePayment = z
  .object({
    id: z.string(),
    invoiceId: z.string(),
    invoiceNumber: z.string().nullable(),
    transactionId: z.string().nullable().describe('null for a payment marked by hand'),
    kind: z.enum(PAYMENT_KINDS).describe('payment: money in for the invoice; refund: money given back on a paid one'),
    state: z.enum(PAYMENT_STATES).describe('bounced: applied, then the money came back; it no longer counts'),
    failureReason: z.string().nullable().describe('why a bounced payment bounced'),
    amount: z.number().describe('the amount paid, in currency'),
    currency: z.string(),
    date: z.string().describe('the day the money arrived (the transaction date)'),
    confidence: z.number().nullable().describe('the matcher’s score 0–1; null for links made by hand'),
    matchedBy: z
      .enum(['auto', 'user', 'manual'])
      .describe('auto: applied by the matcher; user: confirmed or linked by a person; manual: marked paid without a transaction'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'InvoicePayment' });
export type InvoicePayment = z.infer<typeof InvoicePayment>;

export const InvoicePaymentPage = pageOf(InvoicePayment);

export const PaymentListQuery = z.object({
  from: Day.optional().describe('paid on or after this day'),
  to: Day.optional().describe('paid on or before this day'),
  cursor: CursorQuery,
  pageSize: PageSize,
});

export const InvoicePaymentListQuery = z.object({
  states: multiValue(z.enum(PAYMENT_STATES)).describe('repeated key; default all'),
  invoiceId: z.string().min(1).max(200).optional(),
  transactionId: z.string().min(1).max(200).optional(),
  cursor: CursorQuery,
  pageSize: PageSize,
});

export const InvoicePaymentCreate = z.strictObject({
  invoiceId: z.string().min(1).max(200),
  transactionId: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('a transaction of the team in the invoice currency (money in pays, money out refunds); omit to record by hand'),
  kind: z.enum(PAYMENT_KINDS).optional().describe('default payment'),
  amount: z
    .number()
    .positive()
    .optional()
    .describe('without a transaction: the amount (default all that is still due, or all that can be refunded)'),
  date: Day.optional().describe("without a transaction: the day the money moved (default today in the invoice's time zone)"),
});
export type InvoicePaymentCreate = z.infer<typeof InvoicePaymentCreate>;

export const PaymentCandidateQuery = z
  .object({
    invoiceId: z.string().min(1).max(200).optional().describe('what could pay this open invoice'),
    transactionId: z.string().min(1).max(200).optional().describe('what open invoice this transaction could pay'),
    q: z.string().max(200).optional().describe("with invoiceId: the transactions' text or amount"),
  })
  .refine((v) => Boolean(v.invoiceId) !== Boolean(v.transactionId), {
    message: 'give invoiceId or transactionId (one of them)',
    path: ['invoiceId'],
  });

export const PaymentCandidate = z
  .object({
    invoiceId: z.string(),
    invoiceNumber: z.string().nullable(),
    customerName: z.string().nullable(),
    amountDue: z.number().describe('what is still due on the invoice, in its currency'),
    dueDate: z.string(),
    transactionId: z.string(),
    transactionName: z.string(),
    counterpartyName: z.string().nullable(),
    date: z.string().describe('the booking day of the transaction'),
    amount: z.number().describe('the transaction amount: what it pays'),
    currency: z.string(),
    manual: z.boolean().describe('entered by hand, not a bank line'),
    confidence: z.number().describe('0–1, as the matcher scores it (a part payment at most 0.85)'),
    part: z.boolean().describe('less than what is due: the invoice stays open for the rest'),
  })
  .meta({ id: 'InvoicePaymentCandidate' });
export type PaymentCandidate = z.infer<typeof PaymentCandidate>;

/** The body is optional. */
export const InvoicePaymentBounce = z.preprocess(
  (v) => v ?? {},
  z.strictObject({
    reason: z.string().trim().min(1).max(500).optional().describe('why the money came back (default "bounced")'),
  }),
);

export const paymentRoutes = {
  payments: defineRoute({
    method: 'GET',
    path: '/payments',
    tag: 'invoices',
    summary: 'Money of invoices: applied payments and refunds (kind), newest first',
    scopes: ['invoices.read'],
    query: PaymentListQuery,
    responses: { 200: InvoicePaymentPage },
  }),
  list: defineRoute({
    method: 'GET',
    path: '/invoice-payments',
    tag: 'invoices',
    summary: 'Links of invoices to payments: suggested, applied and dismissed matches',
    scopes: ['invoices.read'],
    query: InvoicePaymentListQuery,
    responses: { 200: InvoicePaymentPage },
  }),
  candidates: defineRoute({
    method: 'GET',
    path: '/invoice-payments/candidates',
    tag: 'invoices',
    summary: 'Extension: what could pay an open invoice (or what open invoice a transaction could pay), best first',
    description:
      'Money in, in the invoice currency, up to what is still due, not paying another invoice: exact amounts scored as the matcher does, part payments (a reference such as "INV-0578 Teilzahlung" counts) at most 0.85. At most 20.',
    scopes: ['invoices.read', 'transactions.read'],
    query: PaymentCandidateQuery,
    responses: { 200: z.object({ data: z.array(PaymentCandidate) }) },
  }),
  get: defineRoute({
    method: 'GET',
    path: '/invoice-payments/:id',
    tag: 'invoices',
    summary: 'Retrieve an invoice payment link',
    scopes: ['invoices.read'],
    params: idParams(),
    responses: { 200: InvoicePayment },
  }),
  create: defineRoute({
    method: 'POST',
    path: '/invoice-payments',
    tag: 'invoices',
    summary:
      'Record a payment or refund of an invoice: apply a transaction (confirms a suggestion or links by hand) or an amount by hand',
    scopes: ['invoices.write', 'transactions.write'],
    idempotent: true,
    body: InvoicePaymentCreate,
    responses: { 201: InvoicePayment },
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/invoice-payments/:id',
    tag: 'invoices',
    summary: 'Unmatch (invoice and transaction restored) or dismiss a suggestion; returns the link, now dismissed',
    scopes: ['invoices.write', 'transactions.write'],
    params: idParams(),
    responses: { 200: InvoicePayment },
  }),
  bounce: defineRoute({
    method: 'POST',
    path: '/invoice-payments/:id/bounce',
    tag: 'invoices',
    summary: 'An applied payment whose money came back: it stops counting and starts the payment_failed workflows',
    scopes: ['invoices.write', 'transactions.write'],
    idempotent: true,
    params: idParams(),
    body: InvoicePaymentBounce,
    responses: { 200: InvoicePayment },
  }),
};
