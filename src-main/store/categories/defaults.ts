import { defaultCategories } from '../../../src-shared/domain/categories';
import type { Db } from '../db';
import { NotFound } from '../errors';
import { newId } from '../ids';
import { write } from '../write';

/**
 * The default taxonomy written into a team (the taxonomy itself, with its tax rules, is domain knowledge:
 * src-shared/domain/categories.ts). Kept apart from the categories API so the ledger can make sure a team has
 * categories without depending on that API's module.
 */

/**
 * Inserts the default categories the team does not have yet (matched by slug) and records a change for each.
 * Returns slug → id for the whole taxonomy. `now` and `makeId` let callers (the demo seeder) control timestamps.
 */
export function ensureDefaultCategories(
  db: Db,
  teamId: string,
  options: { countryCode?: string | null; now?: string; makeId?: () => string } = {},
): Map<string, string> {
  const makeId = options.makeId ?? newId;
  return write(db, teamId, (w) => {
    const ids = new Map<string, string>();
    for (const row of db.prepare('SELECT slug, id FROM transaction_categories WHERE team_id = ?').all(teamId) as {
      slug: string;
      id: string;
    }[]) {
      ids.set(row.slug, row.id);
    }
    const missing = defaultCategories(options.countryCode).filter((cat) => !ids.has(cat.slug));
    if (!missing.length) return ids;
    const at = options.now ?? w.now;
    const insert = w.inserter('transaction_category', [
      'id',
      'created_at',
      'updated_at',
      'slug',
      'name',
      'color',
      'description',
      'tax_rate',
      'tax_type',
      'excluded',
      'system',
      'parent_id',
    ]);
    for (const cat of missing) {
      const id = makeId();
      ids.set(cat.slug, id);
      const parentId = cat.parentSlug ? (ids.get(cat.parentSlug) ?? null) : null;
      insert([
        id,
        at,
        at,
        cat.slug,
        cat.name,
        cat.color,
        cat.description,
        cat.taxRate,
        cat.taxType,
        cat.excluded ? 1 : 0,
        cat.system ? 1 : 0,
        parentId,
      ]);
    }
    return ids;
  });
}

/**
 * A team gets the default taxonomy the first time it needs one — its first bank account, or the first read or write
 * of its categories — so every team that can hold a transaction has categories to file it under. A team that has
 * any category is left as it is (deleted defaults are not brought back).
 */
export function ensureCategoriesOnce(db: Db, teamId: string): void {
  const any = db.prepare('SELECT 1 FROM transaction_categories WHERE team_id = ? LIMIT 1').get(teamId);
  if (any) return;
  const country = db.prepare('SELECT country_code FROM teams WHERE id = ?').pluck().get(teamId) as string | null | undefined;
  if (country === undefined) throw new NotFound('team', teamId);
  ensureDefaultCategories(db, teamId, { countryCode: country });
}
