import { z } from 'zod';
import { idParams } from './list';
import { defineRoute } from './route';

/**
 * The payment-provider routes of the hosted service (`/v1/invoice-payments/connect-stripe` and the rest) and the
 * spec's `POST /v1/invoices/{id}/payment-intent` (docs/decisions/0147-partial-payments.md, "Payment provider"). Their
 * shapes are not shown; this server has no provider of its own. With a sync remote, each call is sent on to it with
 * the team's credential and answered with what the remote said (status, body, a redirect's Location), marked by the
 * header `X-Finops-Relayed-To`. Without one — or when the remote cannot be reached or refuses the credential — the
 * status answers `connected: false` with the reason and every other call 409 with it: never a success it did not get.
 * A payment intent the provider refuses (402 from the remote) is a failed payment: the team is told and the workflows
 * that declare `payment_failed` start.
 */

export const RELAYED_HEADER = 'x-finops-relayed-to';

/** What the remote answered is handed on as it came: its shape is the remote's. */
const RemoteAnswer = z.record(z.string(), z.unknown()).describe("the remote's answer, as it came");

export const PaymentProviderStatus = z
  .looseObject({
    provider: z.string(),
    connected: z.boolean(),
    reason: z.string().nullable().describe('why not connected'),
  })
  .describe("this server's answer when it cannot ask a remote; otherwise the remote's answer, as it came")
  .meta({ id: 'PaymentProviderStatus' });

/** Bodies are handed on as they came (the hosted shapes are not shown); an empty body is `{}`. */
const AnyBody = z.preprocess((v) => v ?? {}, z.record(z.string(), z.unknown()));

export const PaymentIntentBody = z.preprocess(
  (v) => v ?? {},
  z.looseObject({ invoiceId: z.string().min(1).max(200).describe('the invoice to be paid') }),
);

/** The provider's return carries its own parameters (an OAuth code and state, or an error); all are handed on. */
const ProviderQuery = z.looseObject({
  code: z.string().max(2000).optional(),
  state: z.string().max(2000).optional(),
  scope: z.string().max(2000).optional(),
  error: z.string().max(2000).optional(),
  error_description: z.string().max(2000).optional(),
});

export const paymentProviderRoutes = {
  connect: defineRoute({
    method: 'GET',
    path: '/invoice-payments/connect-stripe',
    tag: 'invoices',
    summary: "Connect the team's payment provider (relayed to the sync remote; 409 with the reason without one)",
    scopes: ['invoices.write'],
    query: ProviderQuery,
    responses: { 200: RemoteAnswer },
  }),
  connectCallback: defineRoute({
    method: 'GET',
    path: '/invoice-payments/connect-stripe/callback',
    tag: 'invoices',
    summary: "The payment provider's return from connecting (relayed to the sync remote; 409 with the reason without one)",
    scopes: ['invoices.write'],
    query: ProviderQuery,
    responses: { 200: RemoteAnswer },
  }),
  disconnect: defineRoute({
    method: 'POST',
    path: '/invoice-payments/disconnect-stripe',
    tag: 'invoices',
    summary: "Disconnect the team's payment provider (relayed to the sync remote; 409 with the reason without one)",
    scopes: ['invoices.write'],
    body: AnyBody,
    responses: { 200: RemoteAnswer },
  }),
  status: defineRoute({
    method: 'GET',
    path: '/invoice-payments/stripe-status',
    tag: 'invoices',
    summary:
      'Whether the team has a payment provider connected (asked of the sync remote; connected: false with the reason without one)',
    scopes: ['invoices.read'],
    responses: { 200: PaymentProviderStatus },
  }),
  intent: defineRoute({
    method: 'POST',
    path: '/invoice-payments/payment-intent',
    tag: 'invoices',
    summary: 'Create a payment intent for an open invoice (relayed to the sync remote; 409 with the reason without one)',
    scopes: ['invoices.write'],
    idempotent: true,
    body: PaymentIntentBody,
    responses: { 200: RemoteAnswer },
  }),
  invoiceIntent: defineRoute({
    method: 'POST',
    path: '/invoices/:id/payment-intent',
    tag: 'invoices',
    summary: 'Create a payment intent for this open invoice (relayed to the sync remote; 409 with the reason without one)',
    scopes: ['invoices.write'],
    idempotent: true,
    params: idParams(),
    body: AnyBody,
    responses: { 200: RemoteAnswer },
  }),
};
