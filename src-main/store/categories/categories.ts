import type {
  TransactionCategory,
  TransactionCategoryCreate,
  TransactionCategoryPatch,
} from '../../../src-shared/contract/categories';
import { RECEIPT_EXEMPT_GROUPS } from '../../../src-shared/domain/review-state';
import type { Db } from '../db';
import { Conflict, InvalidReference, NotFound } from '../errors';
import { refreshReviewStates } from '../transactions/review';
import type { NewSplit } from '../transactions/splits';
import { updateTransaction, updateTransactions } from '../transactions/update';
import { write } from '../write';
import { ensureCategoriesOnce } from './defaults';

export { ensureCategoriesOnce, ensureDefaultCategories } from './defaults';

/**
 * A team's transaction categories. The default taxonomy and its tax rules are domain knowledge and live in
 * src-shared/domain/categories.ts; this module writes them.
 */

// ---------------------------------------------------------------------------------------------------------------
// The categories API (docs/decisions/0058-transaction-categories.md).

interface CategoryRow {
  id: string;
  slug: string;
  name: string;
  color: string;
  description: string | null;
  tax_rate: number | null;
  tax_type: TransactionCategory['taxType'];
  tax_reporting_code: string | null;
  excluded: number;
  system: number;
  parent_id: string | null;
  created_at: string;
  updated_at: string;
}

function toCategory(r: CategoryRow): TransactionCategory {
  return {
    id: r.id,
    name: r.name,
    slug: r.slug,
    color: r.color,
    description: r.description,
    taxRate: r.tax_rate,
    taxType: r.tax_type,
    taxReportingCode: r.tax_reporting_code,
    excluded: r.excluded === 1,
    system: r.system === 1,
    parentId: r.parent_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function categoryRow(db: Db, teamId: string, id: string): CategoryRow | undefined {
  return db.prepare('SELECT * FROM transaction_categories WHERE team_id = ? AND id = ?').get(teamId, id) as
    | CategoryRow
    | undefined;
}

/** One category as the API shows it (also the change feed's reader). */
export function getCategory(db: Db, teamId: string, id: string): TransactionCategory {
  const row = categoryRow(db, teamId, id);
  if (!row) throw new NotFound('transaction category', id);
  return toCategory(row);
}

/** The team's categories: each group (by name) followed by its categories (by name). */
export function listCategories(db: Db, teamId: string): TransactionCategory[] {
  ensureCategoriesOnce(db, teamId);
  const rows = db
    .prepare(
      `SELECT c.* FROM transaction_categories c LEFT JOIN transaction_categories p ON p.id = c.parent_id
       WHERE c.team_id = ?
       ORDER BY coalesce(p.name, c.name) COLLATE NOCASE, coalesce(p.id, c.id), c.parent_id IS NOT NULL, c.name COLLATE NOCASE, c.id`,
    )
    .all(teamId) as CategoryRow[];
  return rows.map(toCategory);
}

/** "Office Snacks & Café" → "office-snacks-cafe". */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 56)
    .replace(/-+$/, '');
  return slug || 'category';
}

function slugTaken(db: Db, teamId: string, slug: string): boolean {
  return !!db.prepare('SELECT 1 FROM transaction_categories WHERE team_id = ? AND slug = ?').get(teamId, slug);
}

/** A parent a client named: one of the team's categories, itself top-level (two levels at most). */
function checkParent(db: Db, teamId: string, parentId: string, selfId?: string): CategoryRow {
  const parent = categoryRow(db, teamId, parentId);
  if (!parent) throw new InvalidReference('parentId', `Unknown category ${parentId} in parentId`);
  if (parent.id === selfId) throw new InvalidReference('parentId', 'A category cannot be its own parent');
  if (parent.parent_id) {
    throw new InvalidReference(
      'parentId',
      `"${parent.name}" is itself under another category: categories have two levels, a group and its categories`,
    );
  }
  return parent;
}

export function createCategory(db: Db, teamId: string, input: TransactionCategoryCreate): TransactionCategory {
  return write(db, teamId, (w) => {
    ensureCategoriesOnce(db, teamId);
    const parent = input.parentId ? checkParent(db, teamId, input.parentId) : undefined;
    let slug = input.slug;
    if (slug !== undefined) {
      if (slugTaken(db, teamId, slug)) {
        throw new Conflict(`A category with the slug "${slug}" already exists`, 'field: slug (slugs are unique per team)');
      }
    } else {
      const stem = slugOf(input.name);
      slug = stem;
      for (let n = 2; slugTaken(db, teamId, slug); n++) slug = `${stem}-${n}`;
    }
    const id = w.insert('transaction_category', {
      id: input.id,
      slug,
      name: input.name,
      color: input.color ?? parent?.color ?? '#6b7280',
      description: input.description ?? null,
      tax_rate: input.taxRate ?? null,
      tax_type: input.taxType ?? null,
      tax_reporting_code: input.taxReportingCode ?? null,
      excluded: input.excluded ? 1 : 0,
      system: 0,
      parent_id: parent?.id ?? null,
    });
    return getCategory(db, teamId, id);
  });
}

function groupSlugOf(db: Db, teamId: string, row: Pick<CategoryRow, 'slug' | 'parent_id'>): string {
  if (!row.parent_id) return row.slug;
  return (categoryRow(db, teamId, row.parent_id)?.slug ?? row.slug) as string;
}

function hasChildren(db: Db, teamId: string, id: string): number {
  return db
    .prepare('SELECT count(*) FROM transaction_categories WHERE team_id = ? AND parent_id = ?')
    .pluck()
    .get(teamId, id) as number;
}

export function updateCategory(db: Db, teamId: string, id: string, patch: TransactionCategoryPatch): TransactionCategory {
  return write(db, teamId, (w) => {
    const row = categoryRow(db, teamId, id);
    if (!row) throw new NotFound('transaction category', id);
    if (patch.slug !== undefined && patch.slug !== row.slug) {
      throw new InvalidReference(
        'slug',
        `A category's slug never changes ("${row.slug}"): transactions, splits, filters and rules refer to it. Create a new category instead`,
      );
    }
    const moving = patch.parentId !== undefined && patch.parentId !== row.parent_id;
    if (row.system === 1) {
      if (moving)
        throw new Conflict(`"${row.name}" is a system category`, 'field: parentId (system categories stay where they are)');
      if (patch.excluded !== undefined && patch.excluded !== (row.excluded === 1)) {
        throw new Conflict(`"${row.name}" is a system category`, 'field: excluded (fixed for system categories)');
      }
    }
    if (moving && patch.parentId) {
      checkParent(db, teamId, patch.parentId, id);
      const children = hasChildren(db, teamId, id);
      if (children > 0) {
        throw new Conflict(
          `"${row.name}" has ${children} categor${children === 1 ? 'y' : 'ies'} under it`,
          'field: parentId (a group cannot go under another group: move its categories first)',
        );
      }
    }
    const groupBefore = groupSlugOf(db, teamId, row);
    w.update('transaction_category', id, {
      name: patch.name,
      color: patch.color,
      description: patch.description,
      tax_rate: patch.taxRate,
      tax_type: patch.taxType,
      tax_reporting_code: patch.taxReportingCode,
      excluded: patch.excluded === undefined ? undefined : patch.excluded ? 1 : 0,
      parent_id: moving ? patch.parentId : undefined,
    });
    if (moving) {
      const groupAfter = groupSlugOf(db, teamId, categoryRow(db, teamId, id)!);
      // Whether an expense needs a receipt depends on its category's group: re-derive the review states it moved.
      if (RECEIPT_EXEMPT_GROUPS.includes(groupBefore) !== RECEIPT_EXEMPT_GROUPS.includes(groupAfter)) {
        const ids = db
          .prepare('SELECT id FROM transactions WHERE team_id = ? AND category_slug = ?')
          .pluck()
          .all(teamId, row.slug) as string[];
        if (ids.length) refreshReviewStates(db, teamId, ids);
      }
    }
    return getCategory(db, teamId, id);
  });
}

/**
 * Deletes a category; its transactions, and the split parts filed under it, become uncategorized in the same write,
 * through the ledger (so the daily roll-up, review states and provenance follow). Refused for system categories, for
 * groups with categories under them, and when split parts of reconciled transactions use it (their parts are
 * frozen with the statement).
 */
export function deleteCategory(db: Db, teamId: string, id: string): TransactionCategory & { transactionsMoved: number } {
  return write(db, teamId, (w) => {
    const row = categoryRow(db, teamId, id);
    if (!row) throw new NotFound('transaction category', id);
    if (row.system === 1) {
      throw new Conflict(`"${row.name}" is a system category`, 'System categories cannot be deleted');
    }
    const children = hasChildren(db, teamId, id);
    if (children > 0) {
      throw new Conflict(
        `"${row.name}" has ${children} categor${children === 1 ? 'y' : 'ies'} under it`,
        'Delete or move them first',
      );
    }
    const splitTransactions = db
      .prepare(
        `SELECT DISTINCT s.transaction_id AS id, t.reconciled_at AS reconciled FROM transaction_splits s
         JOIN transactions t ON t.id = s.transaction_id WHERE s.team_id = ? AND s.category_slug = ?`,
      )
      .all(teamId, row.slug) as { id: string; reconciled: string | null }[];
    const frozen = splitTransactions.filter((t) => t.reconciled).length;
    if (frozen > 0) {
      throw new Conflict(
        `Split parts of ${frozen} reconciled transaction${frozen === 1 ? '' : 's'} are filed under "${row.name}"`,
        'Unreconcile them or re-file their parts first',
      );
    }
    const whole = db
      .prepare('SELECT id FROM transactions WHERE team_id = ? AND category_slug = ?')
      .pluck()
      .all(teamId, row.slug) as string[];
    const source = { source: 'system' as const };
    if (whole.length) updateTransactions(db, teamId, whole, { categorySlug: null }, source);
    for (const t of splitTransactions) {
      const parts = db
        .prepare(
          `SELECT amount_minor AS amountMinor, category_slug AS categorySlug, tax_rate AS taxRate, tax_type AS taxType, note
           FROM transaction_splits WHERE team_id = ? AND transaction_id = ? ORDER BY position`,
        )
        .all(teamId, t.id) as NewSplit[];
      updateTransaction(
        db,
        teamId,
        t.id,
        { splits: parts.map((p) => (p.categorySlug === row.slug ? { ...p, categorySlug: null } : p)) },
        source,
      );
    }
    const deleted = getCategory(db, teamId, id);
    w.remove('transaction_category', id);
    return { ...deleted, transactionsMoved: new Set([...whole, ...splitTransactions.map((t) => t.id)]).size };
  });
}
