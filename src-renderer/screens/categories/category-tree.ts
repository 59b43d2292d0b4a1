/**
 * The category tree as the Categories screen shows and edits it (docs/decisions/0058-transaction-categories.md): two
 * levels, each group followed by its categories; what a category may move under; what may be deleted; and the form's
 * draft read back as the API's create or patch body.
 */
import type {
  TAX_TYPES,
  TransactionCategory,
  TransactionCategoryCreate,
  TransactionCategoryPatch,
} from '../../../src-shared/contract/categories';
import { parseDecimal } from '../../lib/parse-number';

export interface TreeRow {
  category: TransactionCategory;
  /** 0 for a group (top level), 1 for a category under one. */
  depth: 0 | 1;
  /** How many categories a group holds. */
  children: number;
}

/** Groups by name, each followed by its categories by name; a category whose parent is gone shows at the top. */
export function treeRows(categories: readonly TransactionCategory[]): TreeRow[] {
  const byName = (a: TransactionCategory, b: TransactionCategory) => a.name.localeCompare(b.name);
  const ids = new Set(categories.map((c) => c.id));
  const top = categories.filter((c) => !c.parentId || !ids.has(c.parentId)).sort(byName);
  const rows: TreeRow[] = [];
  for (const group of top) {
    const children = categories.filter((c) => c.parentId === group.id).sort(byName);
    rows.push({ category: group, depth: 0, children: children.length });
    for (const child of children) rows.push({ category: child, depth: 1, children: 0 });
  }
  return rows;
}

/**
 * The groups a category may move under: top-level categories other than itself. A group that holds categories
 * stays a group (two levels), and a system category does not move: for those, none.
 */
export function parentChoices(categories: readonly TransactionCategory[], editing?: TransactionCategory): TransactionCategory[] {
  if (editing?.system) return [];
  if (editing && categories.some((c) => c.parentId === editing.id)) return [];
  return categories.filter((c) => !c.parentId && c.id !== editing?.id).sort((a, b) => a.name.localeCompare(b.name));
}

/** Why a category cannot be deleted, or null when it can. */
export function deleteBlocker(
  category: TransactionCategory,
  categories: readonly TransactionCategory[],
): 'system' | 'hasChildren' | null {
  if (category.system) return 'system';
  if (categories.some((c) => c.parentId === category.id)) return 'hasChildren';
  return null;
}

export interface CategoryDraft {
  name: string;
  color: string;
  parentId: string;
  taxRate: string;
  taxType: '' | (typeof TAX_TYPES)[number];
  taxReportingCode: string;
  description: string;
  excluded: boolean;
}

export function draftOf(c?: TransactionCategory, parentId = ''): CategoryDraft {
  return {
    name: c?.name ?? '',
    color: c?.color ?? '',
    parentId: c ? (c.parentId ?? '') : parentId,
    taxRate: c?.taxRate === null || c?.taxRate === undefined ? '' : String(c.taxRate),
    taxType: c?.taxType ?? '',
    taxReportingCode: c?.taxReportingCode ?? '',
    description: c?.description ?? '',
    excluded: c?.excluded ?? false,
  };
}

export type CategoryErrors = Partial<Record<'name' | 'taxRate', 'required' | 'taxRate'>>;

type Parse = (s: string) => number | null;
type Checked<B> = { body: B; errors?: undefined } | { body?: undefined; errors: CategoryErrors };

/** The draft as the body that creates the category, or what is wrong with it. */
export function createBody(draft: CategoryDraft, parse: Parse = (s) => parseDecimal(s)): Checked<TransactionCategoryCreate> {
  const errors: CategoryErrors = {};
  if (!draft.name.trim()) errors.name = 'required';
  const rate = draft.taxRate.trim() ? parse(draft.taxRate) : null;
  if (draft.taxRate.trim() && (rate === null || rate < 0 || rate > 100)) errors.taxRate = 'taxRate';
  if (Object.keys(errors).length) return { errors };
  return {
    body: {
      name: draft.name.trim(),
      ...(draft.color ? { color: draft.color } : {}),
      parentId: draft.parentId || null,
      taxRate: rate,
      taxType: draft.taxType || null,
      taxReportingCode: draft.taxReportingCode.trim() || null,
      description: draft.description.trim() || null,
      excluded: draft.excluded,
    },
  };
}

/**
 * The draft as a patch of what changed in the category, or what is wrong with it. Only changes are sent, so the
 * fixed fields of a system category (parent, excluded) never are.
 */
export function patchBody(
  draft: CategoryDraft,
  category: TransactionCategory,
  parse: Parse = (s) => parseDecimal(s),
): Checked<TransactionCategoryPatch> {
  const after = createBody(draft, parse);
  if (!after.body) return after;
  const before: Record<string, unknown> = createBody(draftOf(category), parse).body ?? {};
  const patch: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(after.body)) if (before[k] !== v) patch[k] = v;
  return { body: patch as TransactionCategoryPatch };
}
