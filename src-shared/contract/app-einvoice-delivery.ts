import { z } from 'zod';
import { E_INVOICE_FORMATS } from '../domain/einvoice/model';
import { defineRoute } from './route';

/**
 * E-invoices handed to a Peppol access point (internal app API under /app; docs/decisions/0162-peppol-access-point.md):
 * the team's access point — what Settings › E-invoices sets — and each invoice's hand-offs, for its e-invoice panel.
 * Reading is open to members who may read invoices; changing the access point is team administration (a signed-in
 * owner, or a credential granted apis.all). The API key is written, never answered back: it lives in the data dir's
 * secret file, not in the database.
 */

const INTERNAL = 'Internal app API (under /app, not part of the public v1 contract).';
const ADMIN = `${INTERNAL} Team administration: a signed-in owner of the team, or a credential granted apis.all.`;

export const ACCESS_POINT_PROVIDERS = ['storecove'] as const;
/** Storecove's API v2, as its OpenAPI document names its server. */
export const STORECOVE_BASE_URL = 'https://api.storecove.com/api/v2';

export const AccessPointView = z
  .object({
    data: z
      .object({
        provider: z.enum(ACCESS_POINT_PROVIDERS),
        baseUrl: z.string(),
        legalEntityId: z.number().int().describe('the legal entity (sender) at the provider the team sends as'),
        apiKeySet: z.boolean().describe('whether the data dir holds an API key for the team'),
        updatedAt: z.string(),
      })
      .nullable()
      .describe('null: no access point, e-invoices go by email only'),
  })
  .meta({ id: 'AppAccessPoint' });
export type AccessPointView = z.infer<typeof AccessPointView>;

export const AccessPointPut = z.strictObject({
  provider: z.enum(ACCESS_POINT_PROVIDERS).default('storecove'),
  baseUrl: z
    .string()
    .trim()
    .max(2048)
    .regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/i, 'must be an http(s) address such as https://api.storecove.com/api/v2')
    .default(STORECOVE_BASE_URL),
  legalEntityId: z.number().int().min(1, 'must be the positive number of the legal entity at the provider'),
  apiKey: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(1000)
    .optional()
    .describe('kept in the data dir secret file; omitted keeps the stored one (required the first time)'),
});
export type AccessPointPut = z.infer<typeof AccessPointPut>;

export const HANDOFF_STATES = ['waiting', 'sending', 'handed_over', 'failed', 'canceled'] as const;

export const InvoiceHandOff = z
  .object({
    id: z.string(),
    state: z
      .enum(HANDOFF_STATES)
      .describe(
        'waiting: for the access point (offline, or to retry); handed_over: the provider took it; failed: refused; canceled: the invoice was canceled while it waited',
      ),
    format: z.enum(E_INVOICE_FORMATS),
    recipient: z.string().describe("the customer's Peppol participant id it is routed to"),
    submissionId: z.string().nullable().describe("the provider's id of the submission, once handed over"),
    attempts: z.number().int(),
    lastError: z.string().nullable().describe("why it waits or failed (the provider's message for a refusal)"),
    createdAt: z.string(),
    handedOverAt: z.string().nullable(),
  })
  .meta({ id: 'AppInvoiceHandOff' });
export type InvoiceHandOff = z.infer<typeof InvoiceHandOff>;

export const InvoiceHandOffs = z.object({ data: z.array(InvoiceHandOff) }).meta({ id: 'AppInvoiceHandOffs' });

const settings = { mount: '/app', tag: 'app: access point' } as const;

export const appEInvoiceDeliveryRoutes = {
  getAccessPoint: defineRoute({
    ...settings,
    method: 'GET',
    path: '/einvoice/access-point',
    summary: 'The team’s Peppol access point (never the API key)',
    description: INTERNAL,
    scopes: ['invoices.read'],
    responses: { 200: AccessPointView },
  }),
  putAccessPoint: defineRoute({
    ...settings,
    method: 'PUT',
    path: '/einvoice/access-point',
    summary: 'Set the access point: invoices sent to customers with a Peppol ID in a UBL format are handed to it',
    description: ADMIN,
    scopes: ['invoices.write'],
    body: AccessPointPut,
    responses: { 200: AccessPointView },
  }),
  removeAccessPoint: defineRoute({
    ...settings,
    method: 'DELETE',
    path: '/einvoice/access-point',
    summary: 'Remove the access point and its key; hand-offs not yet made wait (404 when none was set)',
    description: ADMIN,
    scopes: ['invoices.write'],
    responses: { 200: AccessPointView },
  }),
  handOffs: defineRoute({
    mount: '/app',
    tag: 'invoices',
    method: 'GET',
    path: '/invoices/:id/einvoice-handoffs',
    summary: 'The invoice’s e-invoice hand-offs to the access point, oldest first',
    description: INTERNAL,
    scopes: ['invoices.read'],
    params: z.object({ id: z.string().min(1).max(200) }),
    responses: { 200: InvoiceHandOffs },
  }),
};
