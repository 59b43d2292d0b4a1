import { z } from 'zod';
import { PageSize } from './common';
import { CursorQuery, idParams, pageOf } from './list';
import { defineRoute } from './route';

/**
 * Extension: statement reconciliation (docs/decisions/0066-reconciliation.md). A statement's closing balance and
 * date against the account's cleared transactions; matched ones are marked reconciled (edits to their statement
 * fields are then refused until unreconciled); a difference comes with candidate lines. Scopes transactions.*.
 */
const EXTENSION = 'Extension (not in the hosted v1 API). ';

export const ReconciliationInput = z.strictObject({
  bankAccountId: z.string().min(1).max(200),
  statementDate: z.iso.date('must be a date such as 2026-03-31').describe('the closing day of the statement'),
  closingBalance: z.number().finite().describe("the statement's closing balance in major units"),
});

export const ReconciliationCandidate = z.object({
  transactionId: z.string(),
  date: z.string(),
  amount: z.number(),
  name: z.string(),
  status: z.string(),
  reason: z.string(),
});

export const ReconciliationPreview = z
  .object({
    bankAccountId: z.string(),
    currency: z.string(),
    statementDate: z.string(),
    statementBalance: z.number(),
    clearedBalance: z.number(),
    difference: z.number().describe('statement − cleared'),
    reconciledBefore: z.number().int(),
    toMark: z.number().int(),
    balanced: z.boolean(),
    candidates: z.array(ReconciliationCandidate).describe('lines that could explain a difference'),
    message: z.string(),
  })
  .meta({ id: 'ReconciliationPreview' });

export const Reconciliation = z
  .object({
    id: z.string(),
    bankAccountId: z.string(),
    statementDate: z.string(),
    statementBalance: z.number(),
    currency: z.string(),
    transactionCount: z.number().int().describe('transactions this reconciliation marked'),
    status: z.enum(['reconciled', 'undone']),
    undoneAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Reconciliation' });

const tag = 'reconciliation';

export const reconciliationRoutes = {
  preview: defineRoute({
    method: 'POST',
    path: '/reconciliations/preview',
    tag,
    summary: 'Compare a statement with the account: cleared balance, difference, candidate lines (nothing is marked)',
    description: EXTENSION,
    scopes: ['transactions.read'],
    body: ReconciliationInput,
    responses: { 200: ReconciliationPreview },
  }),
  create: defineRoute({
    method: 'POST',
    path: '/reconciliations',
    tag,
    summary: "Reconcile: when the statement agrees, mark the account's cleared transactions up to its date reconciled",
    description: `${EXTENSION}A difference is 409 (nothing marked); preview for the lines that could explain it.`,
    scopes: ['transactions.write'],
    body: ReconciliationInput,
    responses: { 201: z.object({ reconciliation: Reconciliation, preview: ReconciliationPreview }) },
  }),
  list: defineRoute({
    method: 'GET',
    path: '/reconciliations',
    tag,
    summary: 'Reconciliations, newest first',
    description: EXTENSION,
    scopes: ['transactions.read'],
    query: z.object({
      bankAccountId: z.string().min(1).max(200).optional(),
      cursor: CursorQuery,
      pageSize: PageSize,
    }),
    responses: { 200: pageOf(Reconciliation) },
  }),
  get: defineRoute({
    method: 'GET',
    path: '/reconciliations/:id',
    tag,
    summary: 'Read a reconciliation',
    description: EXTENSION,
    scopes: ['transactions.read'],
    params: idParams(),
    responses: { 200: Reconciliation },
  }),
  undo: defineRoute({
    method: 'POST',
    path: '/reconciliations/:id/undo',
    tag,
    summary: "Unreconcile: clear the marks of the account's latest reconciliation",
    description: EXTENSION,
    scopes: ['transactions.write'],
    params: idParams(),
    responses: { 200: Reconciliation },
  }),
};
