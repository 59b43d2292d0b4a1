import { z } from 'zod';
import { E_INVOICE_FORMATS } from '../domain/einvoice/model';
import { CountryCode, Email, PeppolId, Phone, VatNumber } from './customers';
import { idParams } from './list';
import { defineRoute } from './route';
import { Currency } from './tracker';

/**
 * Teams as the hosted service shows them (docs/decisions/0085-teams-and-users.md). A credential belongs to exactly
 * one team: the list holds that team only, and any other team's id is 404 (never 403: another team's existence is
 * not disclosed). Changing the team needs teams.write and, for a credential acting for a user, the owner role.
 */
export const Team = z
  .object({
    id: z.string(),
    name: z.string(),
    logoUrl: z.string().nullable(),
    baseCurrency: z.string(),
    countryCode: z.string().nullable(),
    fiscalYearStartMonth: z.number().int().min(1).max(12).describe('1 = January'),
    addressLine1: z.string().nullable().describe("the team's postal address, printed on its invoices and statements"),
    addressLine2: z.string().nullable(),
    zip: z.string().nullable(),
    city: z.string().nullable(),
    state: z.string().nullable(),
    vatNumber: z.string().nullable().describe("the team's VAT identification number, printed on its invoices"),
    taxNumber: z
      .string()
      .nullable()
      .describe(
        "extension: the team's tax number other than its VAT id (BT-32; in Germany the Steuernummer, which a small business without a VAT id, § 19 UStG, states instead)",
      ),
    legalRegistrationId: z
      .string()
      .nullable()
      .describe(
        "extension: the team's legal registration id (BT-30: a commercial register entry such as HRB 12345, an enterprise number); with a tax number it identifies a seller that has no VAT id",
      ),
    peppolId: z
      .string()
      .nullable()
      .describe("extension: the team's Peppol participant id (scheme:identifier), its e-invoices' seller address"),
    email: z.string().nullable().describe("extension: the seller contact's email on the team's e-invoices"),
    phone: z.string().nullable().describe("extension: the seller contact's telephone number (XRechnung requires one)"),
    eInvoiceFormat: z.enum(E_INVOICE_FORMATS).nullable().describe('extension: the e-invoice format of customers that name none'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Team' });
export type Team = z.infer<typeof Team>;

const emptyToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

/** Optional, nullable free text: trimmed; "" and whitespace become null (cleared). */
function text(max: number) {
  return z.preprocess(emptyToNull, z.string().trim().max(max, `must be at most ${max} characters`).nullable()).optional();
}

export const TeamPatch = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').optional(),
  logoUrl: z
    .preprocess(
      emptyToNull,
      z
        .string()
        .trim()
        .max(2048)
        .regex(/^https?:\/\/\S+$/i, 'must be an http(s) address')
        .nullable(),
    )
    .optional(),
  baseCurrency: Currency.optional(),
  countryCode: z.preprocess(emptyToNull, CountryCode.nullable()).optional(),
  fiscalYearStartMonth: z.number().int().min(1, 'must be 1 to 12').max(12, 'must be 1 to 12').optional(),
  addressLine1: text(200),
  addressLine2: text(200),
  zip: text(20),
  city: text(100),
  state: text(100),
  vatNumber: VatNumber.optional(),
  taxNumber: z
    .preprocess(
      emptyToNull,
      z
        .string()
        .trim()
        .max(40, 'must be at most 40 characters')
        .regex(/^[\p{L}\p{N}][\p{L}\p{N} ./-]*$/u, 'must be letters, digits, spaces and . / - (e.g. 21/815/08150)')
        .nullable(),
    )
    .optional(),
  legalRegistrationId: text(100),
  peppolId: PeppolId.optional(),
  email: Email,
  phone: Phone.optional(),
  eInvoiceFormat: z.enum(E_INVOICE_FORMATS).nullable().optional(),
});
export type TeamPatch = z.infer<typeof TeamPatch>;

export const TeamMember = z
  .object({
    id: z.string().describe('the user id'),
    role: z.enum(['owner', 'member']),
    fullName: z.string(),
    email: z.string(),
    joinedAt: z.string(),
  })
  .meta({ id: 'TeamMember' });
export type TeamMember = z.infer<typeof TeamMember>;

const TeamIdParams = idParams();

export const teamRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/teams',
    tag: 'teams',
    summary: "The credential's team (a credential belongs to exactly one)",
    scopes: ['teams.read'],
    responses: { 200: z.object({ data: z.array(Team) }) },
  }),
  get: defineRoute({
    method: 'GET',
    path: '/teams/:id',
    tag: 'teams',
    summary: "Retrieve the credential's team (any other id is 404)",
    scopes: ['teams.read'],
    params: TeamIdParams,
    responses: { 200: Team },
  }),
  update: defineRoute({
    method: 'PATCH',
    path: '/teams/:id',
    tag: 'teams',
    summary: 'Change the supplied fields of the team (owners only; a taken name is 409)',
    scopes: ['teams.write'],
    idempotent: true,
    params: TeamIdParams,
    body: TeamPatch,
    responses: { 200: Team },
  }),
  members: defineRoute({
    method: 'GET',
    path: '/teams/:id/members',
    tag: 'teams',
    summary: 'Members of the team with their roles, owners first',
    scopes: ['teams.read'],
    params: TeamIdParams,
    responses: { 200: z.object({ data: z.array(TeamMember) }) },
  }),
};
