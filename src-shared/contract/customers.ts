import { z } from 'zod';
import { CUSTOMER_TABS, type CustomerTab } from '../domain/customer-engagement';
import { E_INVOICE_FORMATS } from '../domain/einvoice/model';
import { isCountryCode } from '../validation/countries';
import { isLanguageTag } from '../validation/language-tags';
import { checkPeppolId } from '../validation/peppol-schemes';
import { multiValue, PageSize } from './common';
import { CursorQuery, idParams, pageOf, type SortOrder, sortParam } from './list';
import { defineRoute } from './route';
import { TagRef } from './tags';

/**
 * Customers, as the v1 contract names them plus the hosted service's names for the fields the spec leaves "not
 * shown" (docs/decisions/0020-customers-fields.md). Writes are strict objects: an unknown key (externalId,
 * metadata, a typo) is 422 naming it.
 */

const emptyToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

/** Optional, nullable free text: trimmed; "" and whitespace become null (cleared). */
function text(max: number) {
  return z.preprocess(emptyToNull, z.string().trim().max(max, `must be at most ${max} characters`).nullable()).optional();
}

export const Email = z
  .preprocess(emptyToNull, z.email('must be a valid email address').max(254, 'must be at most 254 characters').nullable())
  .optional();

/** A BCP 47 language tag Intl knows, in its canonical spelling ("de-de" → "de-DE"). */
const InvoiceLocale = z
  .string()
  .trim()
  .max(35)
  .refine(isLanguageTag, 'must be a language tag such as de-DE or en-GB')
  .transform((v) => Intl.getCanonicalLocales(v)[0] ?? v);

export const CountryCode = z
  .string()
  .trim()
  .toUpperCase()
  .refine(isCountryCode, 'must be an ISO 3166-1 alpha-2 country code, e.g. DE');

export const PeppolId = z.preprocess(
  emptyToNull,
  z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      const check = checkPeppolId(value);
      if (!check.ok) ctx.addIssue({ code: 'custom', message: check.reason });
    })
    .nullable(),
);

export const Phone = z.preprocess(
  emptyToNull,
  z
    .string()
    .trim()
    .max(50, 'must be at most 50 characters')
    .regex(
      /^(?=[^0-9]*[0-9])\+?[0-9 ()./-]+(\s*(ext\.?|x)\s*[0-9]{1,6})?$/i,
      'must be a phone number: digits, spaces, + ( ) . / - and an optional extension',
    )
    .nullable(),
);

const Website = z.preprocess(
  emptyToNull,
  z
    .string()
    .trim()
    .max(2048, 'must be at most 2048 characters')
    .regex(/^(https?:\/\/)?[^\s/$.?#][^\s]*\.[^\s]+$/i, 'must be a web address such as example.com or https://example.com/')
    .nullable(),
);

export const VatNumber = z.preprocess(
  emptyToNull,
  z
    .string()
    .trim()
    .max(40, 'must be at most 40 characters')
    .regex(/^[A-Za-z0-9][A-Za-z0-9 .-]*$/, 'must contain only letters, digits, spaces, dots and hyphens')
    .nullable(),
);

/** A tag reference: the id of one of the team's tags. `name` may be sent back as read; the stored name wins. */
export const TagInput = z.strictObject({ id: z.string().min(1).max(200), name: z.string().max(100).optional() });

const Tags = z.array(TagInput).max(100, 'at most 100 tags');

const Name = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');

const Url = z.preprocess(
  emptyToNull,
  z
    .string()
    .trim()
    .max(2048, 'must be at most 2048 characters')
    .regex(/^https?:\/\/[^\s/$.?#][^\s]*$/i, 'must be an http(s) address such as https://example.com/')
    .nullable(),
);

const TimeZone = z.preprocess(
  emptyToNull,
  z
    .string()
    .trim()
    .max(64)
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone such as Europe/Berlin')
    .nullable(),
);

/** Employee count as the hosted service keeps it: a number or a range such as "11-50" (stored as text). */
const EmployeeCount = z.preprocess(
  (v) => (typeof v === 'number' ? String(v) : emptyToNull(v)),
  z
    .string()
    .trim()
    .max(50)
    .regex(/^[0-9][0-9,. ]*(\+|\s*-\s*[0-9][0-9,. ]*)?$/, 'must be a number or a range such as 11-50')
    .nullable(),
);

const FoundedYear = z
  .number()
  .int('must be a whole year')
  .min(1000, 'must be a year such as 1998')
  .max(new Date().getUTCFullYear() + 1, 'must not be in the future')
  .nullable();

/**
 * Enrichment fields of the hosted customer read. The hosted service fills them from a data provider; here a client
 * may set the descriptive ones, and `enrichmentStatus`/`enrichedAt` stay null (nothing enriches offline).
 * docs/decisions/0024-customers-enrichment-fields.md.
 */
const enrichmentFields = {
  description: text(2000),
  industry: text(100),
  companyType: text(100),
  employeeCount: EmployeeCount.optional(),
  foundedYear: FoundedYear.optional(),
  estimatedRevenue: text(100),
  fundingStage: text(100),
  totalFunding: text(100),
  headquartersLocation: text(200),
  timezone: TimeZone.optional(),
  linkedinUrl: Url.optional(),
  twitterUrl: Url.optional(),
  instagramUrl: Url.optional(),
  facebookUrl: Url.optional(),
  logoUrl: Url.optional(),
  ceoName: text(200),
  financeContact: text(200),
  financeContactEmail: Email,
  primaryLanguage: text(50),
  fiscalYearEnd: text(20),
};

const fields = {
  email: Email,
  billingEmail: Email,
  phone: Phone.optional(),
  website: Website.optional(),
  contact: text(200),
  /** Country name; when countryCode is set the name is derived from it and this input is ignored. */
  country: text(100),
  countryCode: z.preprocess(emptyToNull, CountryCode.nullable()).optional(),
  addressLine1: text(200),
  addressLine2: text(200),
  city: text(100),
  state: text(100),
  zip: text(20),
  vatNumber: VatNumber.optional(),
  peppolId: PeppolId.optional(),
  eInvoiceFormat: z
    .enum(E_INVOICE_FORMATS)
    .nullable()
    .optional()
    .describe("extension: the e-invoice format this customer receives with its invoices; null: the team's default"),
  buyerReference: text(100).describe('extension: BT-10 of its e-invoices, e.g. the Leitweg-ID of a German public buyer'),
  invoiceLocale: z
    .preprocess(emptyToNull, InvoiceLocale.nullable())
    .optional()
    .describe(
      "extension: the language (BCP 47, e.g. de-DE) of this customer's invoices and emails, with its date format; null: the team's",
    ),
  note: text(10_000),
  tags: Tags.optional(),
  ...enrichmentFields,
};

/** POST body: `name` required; `id` optionally names an existing customer of the team to update (upsert). */
export const CustomerCreate = z.strictObject({
  id: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'update this customer of the team when it exists; else create it with this id when no record holds it (8 to 100 letters, digits, - or _)',
    ),
  name: Name,
  ...fields,
});
export type CustomerCreate = z.infer<typeof CustomerCreate>;

/** PATCH body: only supplied fields change; null clears a nullable field; `tags` replaces the set. */
export const CustomerPatch = z.strictObject({ name: Name.optional(), ...fields });
export type CustomerPatch = z.infer<typeof CustomerPatch>;

export { CUSTOMER_TABS, type CustomerTab };

export const CUSTOMER_SORT_COLUMNS = [
  'created_at',
  'name',
  'email',
  'country',
  'invoices',
  'projects',
  'total_revenue',
  'outstanding',
  'last_invoice',
] as const;
export type CustomerSortColumn = (typeof CUSTOMER_SORT_COLUMNS)[number];

const CurrencyTotals = z.object({
  currency: z.string(),
  invoiced: z.number().describe('sum of issued invoices (status other than draft and canceled)'),
  paid: z.number().describe('sum of paid invoices'),
  outstanding: z.number().describe('sum of unpaid and overdue invoices'),
  overdue: z.number().describe('sum of overdue invoices'),
  invoiceCount: z.number().int().describe('issued invoices in this currency'),
});

export const CustomerFinance = z
  .object({
    currency: z
      .string()
      .nullable()
      .describe("the customer's invoice currency: that of its latest issued invoice; null when it has none"),
    invoiced: z.number(),
    paid: z.number(),
    outstanding: z.number(),
    overdue: z.number(),
    invoiceCount: z.number().int().describe('issued invoices, all currencies'),
    paidCount: z.number().int(),
    unpaidCount: z.number().int().describe('unpaid or overdue'),
    overdueCount: z.number().int(),
    draftCount: z.number().int(),
    lastInvoiceDate: z.string().nullable().describe('issue date of the latest issued invoice'),
    byCurrency: z.array(CurrencyTotals).describe('the same sums for every currency the customer was invoiced in'),
  })
  .meta({ id: 'CustomerFinance' });

export const CustomerActivity = z
  .object({
    createdAt: z.string(),
    updatedAt: z.string(),
    lastInvoiceDate: z.string().nullable(),
    lastPaymentAt: z.string().nullable().describe('when the latest paid invoice was paid'),
    lastActivityAt: z.string().describe('the latest of updatedAt, lastInvoiceDate and lastPaymentAt'),
  })
  .meta({ id: 'CustomerActivity' });

export const CustomerEngagement = z
  .object({
    tabs: z.array(z.enum(CUSTOMER_TABS)).describe('every list tab the customer appears in (always includes all)'),
    stage: z.enum(['new', 'first-time', 'repeat']).describe('by issued invoice count: 0, 1, 2 or more'),
    paymentStatus: z.enum(['none', 'paid', 'unpaid', 'other']),
    recent: z.boolean(),
  })
  .meta({ id: 'CustomerEngagement' });

export const Customer = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    billingEmail: z.string().nullable(),
    phone: z.string().nullable(),
    website: z.string().nullable(),
    contact: z.string().nullable().describe('contact person'),
    country: z.string().nullable().describe('country name'),
    countryCode: z.string().nullable(),
    addressLine1: z.string().nullable(),
    addressLine2: z.string().nullable(),
    city: z.string().nullable(),
    state: z.string().nullable(),
    zip: z.string().nullable(),
    vatNumber: z.string().nullable(),
    peppolId: z.string().nullable(),
    eInvoiceFormat: z.enum(E_INVOICE_FORMATS).nullable(),
    buyerReference: z.string().nullable(),
    invoiceLocale: z.string().nullable().describe("extension: the language of this customer's invoices; null: the team's"),
    note: z.string().nullable(),
    tags: z.array(TagRef),
    description: z.string().nullable(),
    industry: z.string().nullable(),
    companyType: z.string().nullable(),
    employeeCount: z.string().nullable().describe('a number or a range such as "11-50"'),
    foundedYear: z.number().int().nullable(),
    estimatedRevenue: z.string().nullable(),
    fundingStage: z.string().nullable(),
    totalFunding: z.string().nullable(),
    headquartersLocation: z.string().nullable(),
    timezone: z.string().nullable().describe('IANA time zone'),
    linkedinUrl: z.string().nullable(),
    twitterUrl: z.string().nullable(),
    instagramUrl: z.string().nullable(),
    facebookUrl: z.string().nullable(),
    logoUrl: z.string().nullable(),
    ceoName: z.string().nullable(),
    financeContact: z.string().nullable(),
    financeContactEmail: z.string().nullable(),
    primaryLanguage: z.string().nullable(),
    fiscalYearEnd: z.string().nullable(),
    enrichmentStatus: z
      .enum(['pending', 'processing', 'completed', 'failed'])
      .nullable()
      .describe('always null here: nothing enriches customers offline'),
    enrichedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    // The hosted service's flat summary fields, kept for its clients.
    invoiceCount: z.number().int(),
    projectCount: z.number().int(),
    totalRevenue: z.number().describe('paid, in invoiceCurrency'),
    outstandingAmount: z.number().describe('unpaid and overdue, in invoiceCurrency'),
    lastInvoiceDate: z.string().nullable(),
    invoiceCurrency: z.string().nullable(),
    finance: CustomerFinance,
    activity: CustomerActivity,
    engagement: CustomerEngagement,
  })
  .meta({ id: 'Customer' });
export type Customer = z.infer<typeof Customer>;

export type CustomerSort = SortOrder<CustomerSortColumn>;

export const CustomerListQuery = z.object({
  q: z.string().max(200, 'must be at most 200 characters').optional().describe('full-text search, prefix matching'),
  sort: sortParam(CUSTOMER_SORT_COLUMNS, 'created_at desc'),
  cursor: CursorQuery,
  pageSize: PageSize,
  tags: multiValue(z.string().min(1).max(200)).describe('tag ids (repeated key); customers with any of them'),
  countries: multiValue(CountryCode).describe('ISO 3166-1 alpha-2 codes (repeated key)'),
  tab: z.enum(CUSTOMER_TABS).default('all'),
});
export type CustomerListQuery = z.infer<typeof CustomerListQuery>;

export const CustomerPage = pageOf(Customer);

export const CustomerIdParams = idParams();

export const customerRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/customers',
    tag: 'customers',
    summary: 'List, search and filter customers (keyset cursor, no total count)',
    scopes: ['customers.read'],
    query: CustomerListQuery,
    responses: { 200: CustomerPage },
  }),
  create: defineRoute({
    method: 'POST',
    path: '/customers',
    tag: 'customers',
    summary: 'Create a customer, or update the matching one (same id, else same email): always 201 with the record',
    scopes: ['customers.write'],
    idempotent: true,
    body: CustomerCreate,
    responses: { 201: Customer },
  }),
  get: defineRoute({
    method: 'GET',
    path: '/customers/:id',
    tag: 'customers',
    summary: 'Retrieve a customer',
    scopes: ['customers.read'],
    params: CustomerIdParams,
    responses: { 200: Customer },
  }),
  update: defineRoute({
    method: 'PATCH',
    path: '/customers/:id',
    tag: 'customers',
    summary: 'Change the supplied fields (null clears; tags replaces the set)',
    scopes: ['customers.write'],
    idempotent: true,
    params: CustomerIdParams,
    body: CustomerPatch,
    responses: { 200: Customer },
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/customers/:id',
    tag: 'customers',
    summary: 'Delete a customer (its invoices remain); returns the deleted customer',
    scopes: ['customers.write'],
    params: CustomerIdParams,
    responses: { 200: Customer },
  }),
};
