import { z } from 'zod';
import { ClientId } from './common';
import { idParams } from './list';
import { defineRoute } from './route';

/**
 * Transaction categories (docs/decisions/0058-transaction-categories.md): the spec's fields (id, name, slug, color
 * hex, taxRate, taxType, description, parentId, excluded, system) plus the hosted taxReportingCode and timestamps.
 * Every team starts from the default taxonomy (src-shared/domain/categories.ts). Two levels: a parent group and its
 * categories. A slug is a category's key in transactions, splits, filters and rules: set once, never changed.
 * System categories cannot be deleted, moved or have `excluded` changed. Deleting a category moves its
 * transactions (and split parts) to uncategorized in the same database transaction; a group with categories under
 * it cannot be deleted.
 */
export const TAX_TYPES = ['vat', 'gst', 'sales_tax', 'income_tax', 'none'] as const;

export const TransactionCategory = z
  .object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    color: z.string().describe('#rrggbb'),
    description: z.string().nullable(),
    taxRate: z.number().nullable().describe('percent'),
    taxType: z.enum(TAX_TYPES).nullable(),
    taxReportingCode: z.string().nullable(),
    excluded: z.boolean().describe('left out of reports'),
    system: z.boolean().describe('managed by the app: cannot be deleted'),
    parentId: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'TransactionCategory' });
export type TransactionCategory = z.infer<typeof TransactionCategory>;

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const Name = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');
const Slug = z
  .string()
  .trim()
  .max(64, 'must be at most 64 characters')
  .regex(SLUG_PATTERN, 'must be lowercase letters and digits separated by single hyphens, e.g. office-snacks');
export const Color = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, 'must be a hex colour #rrggbb')
  .transform((v) => v.toLowerCase());
const TaxRate = z.number().min(0, 'must be at least 0').max(100, 'must be at most 100');
const Text = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);

export const TransactionCategoryCreate = z.strictObject({
  id: ClientId.optional(),
  name: Name,
  slug: Slug.optional().describe('default: made from the name (made unique with -2, -3…)'),
  color: Color.optional().describe("default: a tint of the parent's colour, or grey"),
  description: Text(500).nullable().optional(),
  taxRate: TaxRate.nullable().optional(),
  taxType: z.enum(TAX_TYPES).nullable().optional(),
  taxReportingCode: Text(50).nullable().optional(),
  excluded: z.boolean().optional(),
  parentId: z.string().min(1).max(200).nullable().optional().describe('a top-level category (two levels at most)'),
});
export type TransactionCategoryCreate = z.infer<typeof TransactionCategoryCreate>;

export const TransactionCategoryPatch = z.strictObject({
  name: Name.optional(),
  slug: Slug.optional().describe('accepted only unchanged: a slug never changes'),
  color: Color.optional(),
  description: Text(500).nullable().optional(),
  taxRate: TaxRate.nullable().optional(),
  taxType: z.enum(TAX_TYPES).nullable().optional(),
  taxReportingCode: Text(50).nullable().optional(),
  excluded: z.boolean().optional(),
  parentId: z.string().min(1).max(200).nullable().optional(),
});
export type TransactionCategoryPatch = z.infer<typeof TransactionCategoryPatch>;

export const DeletedTransactionCategory = TransactionCategory.extend({
  transactionsMoved: z.number().int().describe('extension: transactions (whole or by a split part) moved to uncategorized'),
}).meta({ id: 'DeletedTransactionCategory' });

export const CategoryIdParams = idParams();

export const categoryRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/transaction-categories',
    tag: 'transaction-categories',
    summary: "List the team's categories: each group, then its categories",
    scopes: ['transactions.read'],
    responses: { 200: z.object({ data: z.array(TransactionCategory) }) },
  }),
  get: defineRoute({
    method: 'GET',
    path: '/transaction-categories/:id',
    tag: 'transaction-categories',
    summary: 'Retrieve a category',
    scopes: ['transactions.read'],
    params: CategoryIdParams,
    responses: { 200: TransactionCategory },
  }),
  create: defineRoute({
    method: 'POST',
    path: '/transaction-categories',
    tag: 'transaction-categories',
    summary: 'Create a category (409 when the slug is taken)',
    scopes: ['transactions.write'],
    idempotent: true,
    body: TransactionCategoryCreate,
    responses: { 201: TransactionCategory },
  }),
  update: defineRoute({
    method: 'PATCH',
    path: '/transaction-categories/:id',
    tag: 'transaction-categories',
    summary: 'Change the supplied fields (the slug never changes)',
    scopes: ['transactions.write'],
    idempotent: true,
    params: CategoryIdParams,
    body: TransactionCategoryPatch,
    responses: { 200: TransactionCategory },
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/transaction-categories/:id',
    tag: 'transaction-categories',
    summary: 'Delete a category; its transactions and split parts become uncategorized (409 for system categories)',
    scopes: ['transactions.write'],
    params: CategoryIdParams,
    responses: { 200: DeletedTransactionCategory },
  }),
};
