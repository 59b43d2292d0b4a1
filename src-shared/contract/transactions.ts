import { z } from 'zod';
import { REVIEW_STATES } from '../domain/review-state';
import { FREQUENCIES, TRANSACTION_METHODS, TRANSACTION_STATUSES } from '../domain/transactions';
import { isCurrencyCode } from '../money';
import { ClientId, DayInput, multiValue } from './common';
import { BooleanQuery, CursorQuery, idParams, pageOf, type SortOrder, sortParam } from './list';
import { defineRoute } from './route';

/**
 * Transactions: the spec's list item (exactly its fields) and detailed record (every field of its table, plus the
 * extensions this server adds for review: description, method, reviewState, splits, field sources…), manual create
 * (one, and bulk up to 100), update (one, and bulk by ids, all or nothing), delete (manual ones; bank lines are set to
 * excluded instead). Hosted names and behaviours: shared/spec/hosted-service-facts.md. Decisions:
 * docs/decisions/0050–0053.
 */

const Day = z.iso.date('must be a date such as 2026-03-31');
const Money = z.number().finite('must be a number');
const Currency = z.string().trim().toUpperCase().refine(isCurrencyCode, 'must be an ISO 4217 currency code such as EUR');

// ---------------------------------------------------------------------------------------------------------------
// Reads.

export const TransactionListItem = z
  .object({
    id: z.string(),
    accountId: z.string().describe('the bank account the transaction belongs to'),
    description: z.string().nullable(),
    method: z.string().nullable(),
    amount: z.number().describe('major units; negative = money out'),
    name: z.string(),
    date: z.string().describe('booking day, YYYY-MM-DD'),
    currency: z.string(),
    status: z.enum(['pending', 'posted']).describe('pending, else posted (the stored status is in the detailed record)'),
    counterparty_name: z.string().nullable(),
    category: z.string().nullable().describe('category slug'),
    balance: z.number().nullable().describe("the account's running balance after this transaction"),
  })
  .meta({ id: 'TransactionListItem' });
export type TransactionListItem = z.infer<typeof TransactionListItem>;

export const CategoryRef = z
  .object({
    id: z.string(),
    name: z.string(),
    color: z.string(),
    taxRate: z.number().nullable(),
    taxType: z.string().nullable(),
    slug: z.string(),
  })
  .meta({ id: 'TransactionCategoryRef' });

export const TransactionSplit = z
  .object({
    id: z.string(),
    amount: z.number(),
    category: z.string().nullable().describe('category slug'),
    taxRate: z.number().nullable(),
    taxType: z.string().nullable(),
    taxAmount: z.number().nullable(),
    note: z.string().nullable(),
    ownTaxRate: z.number().nullable().describe("extension: the part's own tax rate; null where its category's applies"),
    ownTaxType: z.string().nullable().describe("extension: the part's own tax type; null where its category's applies"),
  })
  .meta({ id: 'TransactionSplit' });

export const FieldSource = z
  .object({
    source: z.enum(['user', 'import', 'rule', 'workflow', 'sync', 'system']),
    sourceId: z.string().nullable().describe('the rule, import batch or user that set it'),
    setAt: z.string(),
  })
  .meta({ id: 'FieldSource' });

export const Transaction = z
  .object({
    id: z.string(),
    internalId: z.string(),
    name: z.string(),
    amount: z.number(),
    balance: z.number().nullable(),
    baseAmount: z.number().nullable().describe("amount in the team's base currency at the rate of the transaction's date"),
    baseCurrency: z.string().nullable(),
    taxAmount: z.number().nullable(),
    taxRate: z.number().nullable(),
    taxType: z.string().nullable(),
    currency: z.string(),
    counterpartyName: z.string().nullable(),
    merchantName: z.string().nullable(),
    date: z.string().describe('ISO 8601 date-time (the booking day at 00:00 UTC)'),
    category: CategoryRef.nullable(),
    status: z.string(),
    internal: z.boolean().nullable(),
    recurring: z.boolean().nullable(),
    manual: z.boolean().nullable(),
    frequency: z.string().nullable(),
    isFulfilled: z.boolean(),
    note: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    metadataCompleted: z.boolean(),
    notified: z.boolean().nullable(),
    account: z.object({
      id: z.string(),
      name: z.string(),
      currency: z.string(),
      connection: z.object({ id: z.string(), name: z.string(), logoUrl: z.string().nullable() }),
    }),
    tags: z.array(z.object({ id: z.string(), name: z.string().nullable() })).nullable(),
    attachments: z
      .array(
        z.object({
          id: z.string(),
          path: z.array(z.string()),
          size: z.number(),
          type: z.string(),
          filename: z.string().nullable(),
        }),
      )
      .nullable(),
    // Extensions (not in the spec's table): what the review screens need.
    description: z.string().nullable(),
    method: z.string(),
    bankAccountId: z.string(),
    assignedId: z.string().nullable(),
    reviewState: z.enum(REVIEW_STATES),
    reviewedAt: z.string().nullable(),
    reconciledAt: z.string().nullable(),
    taxOverridden: z.boolean().describe('tax fields set on the transaction itself rather than taken from the category'),
    ownTaxRate: z.number().nullable().describe("the transaction's own tax rate; null where its category's applies"),
    ownTaxType: z.string().nullable().describe("the transaction's own tax type; null where its category's applies"),
    splits: z.array(TransactionSplit),
    fieldSources: z.record(z.string(), FieldSource).describe('per field: who set it last (user, import, rule…)'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Transaction' });
export type Transaction = z.infer<typeof Transaction>;

// ---------------------------------------------------------------------------------------------------------------
// The list.

export const TRANSACTION_SORT_COLUMNS = [
  'date',
  'amount',
  'name',
  'status',
  'attachment',
  'assigned',
  'bank_account',
  'category',
  'tags',
  'counterparty',
] as const;
export type TransactionSortColumn = (typeof TRANSACTION_SORT_COLUMNS)[number];
export type TransactionSort = SortOrder<TransactionSortColumn>;

/** `include`/`exclude` as the hosted service sends them, also `present`/`absent` and true/false. */
const PresenceQuery = z
  .enum(['include', 'exclude', 'present', 'absent', 'true', 'false'])
  .transform((v) => v === 'include' || v === 'present' || v === 'true')
  .optional();

/** `[min, max]` as a repeated key; either may be empty: `amountRange=10&amountRange=` is "at least 10". */
const AmountRange = z
  .preprocess((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]), z.array(z.string()).min(1).max(2).optional())
  .transform((v, ctx) => {
    if (!v) return undefined;
    const [min = '', max = ''] = v;
    const parse = (s: string) => (s.trim() === '' ? undefined : Number(s));
    const out = { min: parse(min), max: parse(max) };
    if ((out.min !== undefined && !Number.isFinite(out.min)) || (out.max !== undefined && !Number.isFinite(out.max))) {
      ctx.addIssue({ code: 'custom', message: 'amountRange takes two numbers: amountRange=MIN&amountRange=MAX' });
      return z.NEVER;
    }
    return out;
  })
  .describe('[min, max] in major units as a repeated key; compares the amount including its sign');

/** The hosted `amount=[gte|lte, value]` filter. */
const AmountBound = z
  .preprocess((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]), z.array(z.string()).length(2).optional())
  .transform((v, ctx) => {
    if (!v) return undefined;
    const [op, value] = v as [string, string];
    const n = Number(value);
    if ((op !== 'gte' && op !== 'lte') || !Number.isFinite(n)) {
      ctx.addIssue({ code: 'custom', message: 'amount takes [gte|lte, value]: amount=gte&amount=100' });
      return z.NEVER;
    }
    return { op, value: n } as { op: 'gte' | 'lte'; value: number };
  });

export const TransactionListQuery = z.object({
  q: z
    .string()
    .max(200)
    .optional()
    .describe('full-text search over name, description, counterparty, note; a number also matches the amount'),
  start: Day.optional().describe('first booking day (inclusive)'),
  end: Day.optional().describe('last booking day (inclusive)'),
  categories: multiValue(z.string().min(1).max(100)).describe(
    'category slugs; a parent expands to its children; `uncategorized`',
  ),
  tags: multiValue(z.string().min(1).max(200)).describe('tag ids: transactions with any of them'),
  accounts: multiValue(z.string().min(1).max(200)).describe('bank account ids'),
  assignees: multiValue(z.string().min(1).max(200)),
  statuses: multiValue(z.enum(TRANSACTION_STATUSES)).describe('stored statuses; without it excluded and archived are hidden'),
  reviewStates: multiValue(z.enum(REVIEW_STATES)),
  amountRange: AmountRange,
  amount: AmountBound,
  absAmountRange: AmountRange.describe(
    'extension: [min, max] of the amount without its sign, in major units, as a repeated key ("at least 30" finds both directions)',
  ),
  importBatch: z.string().min(1).max(200).optional().describe('extension: the lines an import batch created or linked'),
  type: z.enum(['income', 'expense']).optional(),
  attachments: PresenceQuery.describe('include|exclude (also present|absent): with or without attachments'),
  manual: PresenceQuery.describe('include|exclude (also true|false): only manual, or only bank lines'),
  recurring: BooleanQuery,
  fulfilled: BooleanQuery,
  exported: BooleanQuery,
  internal: BooleanQuery,
  sort: sortParam(TRANSACTION_SORT_COLUMNS, 'date desc'),
  cursor: CursorQuery,
  pageSize: z.coerce.number().int().min(1).max(1000).default(50).describe('1 to 1000, default 50'),
});
export type TransactionListQuery = z.infer<typeof TransactionListQuery>;
export type TransactionFilters = Omit<TransactionListQuery, 'sort' | 'cursor' | 'pageSize'>;

export const TransactionPage = pageOf(TransactionListItem, { topLevelCursor: true });

export const ReviewCounts = z
  .object({
    to_review: z.number().int(),
    needs_receipt: z.number().int(),
    ready: z.number().int(),
    exported: z.number().int(),
    excluded: z.number().int(),
  })
  .meta({ id: 'ReviewCounts' });

// ---------------------------------------------------------------------------------------------------------------
// Writes.

const text = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);
const TagRefs = z.array(z.strictObject({ id: z.string().min(1).max(200), name: z.string().max(100).optional() })).max(50);

export const SplitInput = z.strictObject({
  amount: Money,
  categorySlug: z.string().min(1).max(100).nullable().optional(),
  taxRate: z.number().min(0).max(100).nullable().optional(),
  taxType: z.enum(['vat', 'gst', 'sales_tax', 'income_tax', 'none']).nullable().optional(),
  note: text(2000).nullable().optional(),
});
export type SplitInput = z.infer<typeof SplitInput>;

const Splits = z.array(SplitInput).min(2, 'a split has at least two parts').max(50);

export const TransactionCreate = z.strictObject({
  id: ClientId.optional(),
  name: text(500).min(1, 'must not be empty'),
  amount: Money.describe('major units; negative = money out'),
  currency: Currency.describe("must be the bank account's currency"),
  date: DayInput,
  bankAccountId: z.string().min(1).max(200),
  assignedId: z.string().min(1).max(200).nullable().optional(),
  categorySlug: z.string().min(1).max(100).nullable().optional(),
  note: text(10_000).nullable().optional(),
  internal: z.boolean().optional(),
  description: text(2000).nullable().optional(),
  counterpartyName: text(500).nullable().optional(),
  method: z.enum(TRANSACTION_METHODS).optional(),
  status: z.enum(['posted', 'pending']).optional(),
  tags: TagRefs.optional(),
  splits: Splits.optional(),
  manual: z
    .boolean()
    .optional()
    .describe('extension: false records a bank line (a sync replica sending a row it imported); default true'),
});
export type TransactionCreate = z.infer<typeof TransactionCreate>;

export const TransactionBulkCreate = z.array(TransactionCreate).min(1).max(100, 'at most 100 transactions per request');

export const TransactionPatch = z.strictObject({
  categorySlug: z.string().min(1).max(100).nullable().optional().describe('changing it drops the tax override'),
  tags: TagRefs.optional().describe('replaces the set'),
  note: text(10_000).nullable().optional(),
  status: z.enum(TRANSACTION_STATUSES).optional(),
  internal: z.boolean().optional(),
  recurring: z.boolean().optional(),
  frequency: z.enum(FREQUENCIES).nullable().optional(),
  taxRate: z.number().min(0).max(100).nullable().optional().describe('overrides the category; null returns to it'),
  taxType: z.enum(['vat', 'gst', 'sales_tax', 'income_tax', 'none']).nullable().optional(),
  assignedId: z.string().min(1).max(200).nullable().optional(),
  fulfilled: z.boolean().optional().describe('true marks it completed (done), false returns a completed one to posted'),
  reviewed: z.boolean().optional(),
  splits: Splits.nullable().optional().describe('parts summing exactly to the amount; null removes the split'),
  // Manual transactions only: a bank line's own facts come from the bank.
  name: text(500).min(1).optional(),
  amount: Money.optional(),
  date: Day.optional(),
  description: text(2000).nullable().optional(),
  counterpartyName: text(500).nullable().optional(),
});
export type TransactionPatch = z.infer<typeof TransactionPatch>;

export const TransactionBulkPatch = z.strictObject({
  ids: z.array(z.string().min(1).max(200)).min(1).max(1000),
  categorySlug: z.string().min(1).max(100).nullable().optional(),
  status: z.enum(TRANSACTION_STATUSES).optional(),
  frequency: z.enum(FREQUENCIES).nullable().optional(),
  internal: z.boolean().optional(),
  note: text(10_000).nullable().optional(),
  assignedId: z.string().min(1).max(200).nullable().optional(),
  recurring: z.boolean().optional(),
  reviewed: z.boolean().optional(),
  tagId: z.string().min(1).max(200).optional().describe('adds this tag to every transaction'),
});
export type TransactionBulkPatch = z.infer<typeof TransactionBulkPatch>;

export const TransactionBulkDelete = z.array(z.string().min(1).max(200)).min(1).max(1000);

export const DeleteOutcome = z
  .object({
    id: z.string(),
    outcome: z.enum(['deleted', 'excluded']).describe('manual transactions are deleted; bank lines are set to status excluded'),
    transaction: Transaction,
  })
  .meta({ id: 'TransactionDeleteOutcome' });

export const TransactionIdParams = idParams();

export const transactionRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/transactions',
    tag: 'transactions',
    summary: 'List, search and filter transactions (keyset cursor, no total count)',
    scopes: ['transactions.read'],
    query: TransactionListQuery,
    responses: { 200: TransactionPage },
  }),
  reviewCounts: defineRoute({
    method: 'GET',
    path: '/transactions/review-counts',
    tag: 'transactions',
    summary: 'Extension: how many transactions are in each review state, under the same filters as the list',
    scopes: ['transactions.read'],
    query: TransactionListQuery.omit({ sort: true, cursor: true, pageSize: true, reviewStates: true }),
    responses: { 200: z.object({ data: ReviewCounts }) },
  }),
  get: defineRoute({
    method: 'GET',
    path: '/transactions/:id',
    tag: 'transactions',
    summary: 'Retrieve a transaction (the detailed record)',
    scopes: ['transactions.read'],
    params: TransactionIdParams,
    responses: { 200: Transaction },
  }),
  create: defineRoute({
    method: 'POST',
    path: '/transactions',
    tag: 'transactions',
    summary: 'Create a manual transaction',
    scopes: ['transactions.write'],
    idempotent: true,
    body: TransactionCreate,
    responses: { 200: Transaction },
  }),
  bulkCreate: defineRoute({
    method: 'POST',
    path: '/transactions/bulk',
    tag: 'transactions',
    summary: 'Create up to 100 manual transactions in one transaction (all or nothing)',
    scopes: ['transactions.write'],
    idempotent: true,
    body: TransactionBulkCreate,
    responses: { 200: z.object({ data: z.array(Transaction) }) },
  }),
  bulkUpdate: defineRoute({
    method: 'PATCH',
    path: '/transactions/bulk',
    tag: 'transactions',
    summary: 'Update many transactions by id (all or nothing: one unknown id changes nothing)',
    scopes: ['transactions.write'],
    idempotent: true,
    body: TransactionBulkPatch,
    responses: { 200: z.object({ data: z.array(Transaction) }) },
  }),
  bulkDelete: defineRoute({
    method: 'DELETE',
    path: '/transactions/bulk',
    tag: 'transactions',
    summary: 'Delete manual transactions and exclude bank lines, by id (all or nothing)',
    scopes: ['transactions.write'],
    body: TransactionBulkDelete,
    responses: { 200: z.object({ data: z.array(DeleteOutcome) }) },
  }),
  update: defineRoute({
    method: 'PATCH',
    path: '/transactions/:id',
    tag: 'transactions',
    summary: 'Change the supplied fields (bank lines: review fields only; manual ones also name, amount, date)',
    scopes: ['transactions.write'],
    idempotent: true,
    params: TransactionIdParams,
    body: TransactionPatch,
    responses: { 200: Transaction },
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/transactions/:id',
    tag: 'transactions',
    summary: 'Delete a manual transaction; a bank line is set to status excluded instead (the answer says which)',
    scopes: ['transactions.write'],
    params: TransactionIdParams,
    responses: { 200: DeleteOutcome },
  }),
};
