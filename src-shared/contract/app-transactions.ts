import { z } from 'zod';
import { REVIEW_STATES } from '../domain/review-state';
import { defineRoute } from './route';
import { TransactionListQuery } from './transactions';

/**
 * The rows of the transaction review screen (internal app API under /app). The v1 list items are the spec's lean
 * fields; review needs a little more of the detailed record — review state, category name and colour, tags,
 * attachments, note, splits — without the whole of it (field sources, metadata, the account's connection), so that
 * a 100,000-row review stays light. Same filters, sort and cursor as `GET /v1/transactions`; pages up to 1000.
 */
export const ReviewRow = z
  .object({
    id: z.string(),
    date: z.string().describe('booking day, YYYY-MM-DD'),
    name: z.string(),
    description: z.string().nullable(),
    counterpartyName: z.string().nullable(),
    amount: z.number().describe('major units; negative = money out'),
    currency: z.string(),
    status: z.string().describe('the stored status'),
    reviewState: z.enum(REVIEW_STATES),
    reviewed: z.boolean(),
    category: z.object({ slug: z.string(), name: z.string(), color: z.string() }).nullable(),
    tags: z.array(z.object({ id: z.string(), name: z.string().nullable() })),
    accountId: z.string(),
    accountName: z.string(),
    attachments: z.number().int(),
    note: z.string().nullable(),
    splits: z.number().int().describe('how many parts it is split into (0: not split)'),
    manual: z.boolean(),
    internal: z.boolean(),
    reconciled: z.boolean(),
  })
  .meta({ id: 'AppReviewRow' });
export type ReviewRow = z.infer<typeof ReviewRow>;

export const ReviewRowQuery = TransactionListQuery;

/** The list's filters without paging: what the totals and the export cover (the review-state tab included). */
export const FilteredSetQuery = TransactionListQuery.omit({ cursor: true, pageSize: true });

export const TransactionExportQuery = FilteredSetQuery.extend({
  decimal: z
    .enum(['point', 'comma'])
    .default('point')
    .describe(
      'the decimal mark of the reader’s spreadsheet: `comma` writes 12,60 in `;`-separated fields (as German or French spreadsheets read CSV)',
    ),
  lang: z
    .enum(['en', 'de', 'fr'])
    .optional()
    .describe('column names in this language; without it the machine names (date, name, …)'),
});

export const TransactionTotals = z
  .object({
    data: z.array(
      z.object({
        currency: z.string(),
        count: z.number().int(),
        moneyIn: z.number().describe('major units: the sum of the amounts above zero'),
        moneyOut: z.number().describe('major units: the sum of the amounts below zero (negative)'),
        net: z.number().describe('major units: in + out'),
      }),
    ),
  })
  .meta({ id: 'AppTransactionTotals' });
export type TransactionTotals = z.infer<typeof TransactionTotals>;

export const appTransactionRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/transactions',
    mount: '/app',
    tag: 'transactions',
    summary: 'Review rows: the list with review state, category, tags, attachments, note and splits',
    description: 'Internal app API (under /app, not part of the public v1 contract).',
    scopes: ['transactions.read'],
    query: ReviewRowQuery,
    responses: {
      200: z.object({
        data: z.array(ReviewRow),
        meta: z.object({ cursor: z.string().nullable(), hasPreviousPage: z.boolean(), hasNextPage: z.boolean() }),
      }),
    },
  }),
  totals: defineRoute({
    method: 'GET',
    path: '/transactions/totals',
    mount: '/app',
    tag: 'transactions',
    summary: 'The filtered set summed per currency: count, money in, money out, net',
    description: 'Internal app API (under /app, not part of the public v1 contract).',
    scopes: ['transactions.read'],
    query: FilteredSetQuery.omit({ sort: true }),
    responses: { 200: TransactionTotals },
  }),
  export: defineRoute({
    method: 'GET',
    path: '/transactions/export',
    mount: '/app',
    tag: 'transactions',
    summary: 'The filtered set as a CSV file (text/csv, UTF-8), in the list’s order',
    description:
      'Internal app API (under /app, not part of the public v1 contract). One line per transaction: date, name, counterparty, description, amount (every digit of its currency), currency, VAT rate (%), VAT amount, account, category, tags, status, review state, note, id. At most 100,000 lines (422 beyond: narrow the filters).',
    scopes: ['transactions.read'],
    query: TransactionExportQuery,
    responses: { 200: z.any().describe('text/csv') },
  }),
};
