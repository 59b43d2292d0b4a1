import { z } from 'zod';
import { isCountryCode } from '../validation/countries';
import { checkPeppolId } from '../validation/peppol-schemes';
import { multiValue, PageMeta, PageSize } from './common';
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

const Email = z
  .preprocess(emptyToNull, z.email('must be a valid email address').max(254, 'must be at most 254 characters').nullable())
  .optional();

export const CountryCode = z
  .string()
  .trim()
  .toUpperCase()
  .refine(isCountryCode, 'must be an ISO 3166-1 alpha-2 country code, e.g. DE');

const PeppolId = z.preprocess(
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

const Phone = z.preprocess(
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

const VatNumber = z.preprocess(
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
  note: text(10_000),
  tags: Tags.optional(),
};

/** POST body: `name` required; `id` optionally names an existing customer of the team to update (upsert). */
export const CustomerCreate = z.strictObject({
  id: z.string().min(1).max(200).optional().describe('update this customer of the team when it exists'),
  name: Name,
  ...fields,
});
export type CustomerCreate = z.infer<typeof CustomerCreate>;

/** PATCH body: only supplied fields change; null clears a nullable field; `tags` replaces the set. */
export const CustomerPatch = z.strictObject({ name: Name.optional(), ...fields });
export type CustomerPatch = z.infer<typeof CustomerPatch>;

export const CUSTOMER_TABS = ['all', 'first-time', 'repeat', 'recent', 'unpaid', 'paid'] as const;
export type CustomerTab = (typeof CUSTOMER_TABS)[number];

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
    note: z.string().nullable(),
    tags: z.array(TagRef),
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

/**
 * `sort` in the hosted form, a repeated key: `?sort=name&sort=asc`. One value (`?sort=name`) sorts ascending.
 * Default: created_at desc.
 */
const SortParam = z
  .preprocess((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]), z.array(z.string()).min(1).max(2).optional())
  .transform((v, ctx) => {
    if (!v) return undefined;
    const [column, direction = 'asc'] = v;
    if (!(CUSTOMER_SORT_COLUMNS as readonly string[]).includes(column ?? '')) {
      ctx.addIssue({ code: 'custom', message: `unknown sort column "${column}"; one of ${CUSTOMER_SORT_COLUMNS.join(', ')}` });
      return z.NEVER;
    }
    if (direction !== 'asc' && direction !== 'desc') {
      ctx.addIssue({ code: 'custom', message: `sort direction must be asc or desc, got "${direction}"` });
      return z.NEVER;
    }
    return { column: column as CustomerSortColumn, direction: direction as 'asc' | 'desc' };
  })
  .describe(
    `[column, direction] as a repeated key, e.g. sort=name&sort=asc; columns: ${CUSTOMER_SORT_COLUMNS.join(', ')}; default created_at desc`,
  );

export const CustomerListQuery = z.object({
  q: z.string().max(200, 'must be at most 200 characters').optional().describe('full-text search, prefix matching'),
  sort: SortParam,
  cursor: z.string().max(1000).optional().describe('opaque cursor from the previous page'),
  pageSize: PageSize,
  tags: multiValue(z.string().min(1).max(200)).describe('tag ids (repeated key); customers with any of them'),
  countries: multiValue(CountryCode).describe('ISO 3166-1 alpha-2 codes (repeated key)'),
  tab: z.enum(CUSTOMER_TABS).default('all'),
});
export type CustomerListQuery = z.infer<typeof CustomerListQuery>;

export const CustomerPage = z.object({ data: z.array(Customer), meta: PageMeta });

export const CustomerIdParams = z.object({ id: z.string().min(1).max(200) });

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
