import { z } from 'zod';
import { multiValue, PageMeta, PageSize } from './common';
import { Day } from './invoices';
import { CursorQuery, idParams } from './list';
import { defineRoute } from './route';

/**
 * Payments of invoices (docs/decisions/0076-invoice-payments.md). The spec's overview names `GET /v1/payments` and
 * `GET /v1/invoice-payments` without shapes; ours:
 * - an invoice payment is a link between an invoice and what paid it: a ledger transaction (suggested by the
 *   matcher, applied automatically above the confidence threshold or confirmed by a person, or dismissed), or a
 *   payment marked by hand (no transaction);
 * - `GET /v1/payments` lists the money received: the applied links only, newest first;
 * - `GET /v1/invoice-payments` lists every link with its state, for the review of suggestions;
 *   `POST /v1/invoice-payments` applies a match (confirms a suggestion, or links a transaction by hand);
 *   `DELETE /v1/invoice-payments/{id}` unmatches an applied link (the invoice and the transaction are restored) or
 *   dismisses a suggestion; the link stays as dismissed so the matcher never proposes the same pair again.
 */

export const PAYMENT_STATES = ['suggested', 'applied', 'dismissed'] as const;

export const InvoicePayment = z
  .object({
    id: z.string(),
    invoiceId: z.string(),
    invoiceNumber: z.string().nullable(),
    transactionId: z.string().nullable().describe('null for a payment marked by hand'),
    state: z.enum(PAYMENT_STATES),
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

export const InvoicePaymentPage = z.object({ data: z.array(InvoicePayment), meta: PageMeta });

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
  transactionId: z.string().min(1).max(200).describe('an incoming transaction of the team, same currency'),
});

export const paymentRoutes = {
  payments: defineRoute({
    method: 'GET',
    path: '/payments',
    tag: 'invoices',
    summary: 'Money received for invoices: applied payments, newest first',
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
    summary: 'Apply a match: the transaction pays the invoice (confirms a suggestion or links by hand)',
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
};
