import type { FastifyInstance } from 'fastify';
import { categoryRoutes } from '../../../src-shared/contract/categories';
import {
  createCategory,
  deleteCategory,
  ensureCategoriesOnce,
  getCategory,
  listCategories,
  updateCategory,
} from '../../store/categories/categories';
import type { Db } from '../../store/db';
import { registerRoute } from '../route';

/** Transaction categories (docs/decisions/0058-transaction-categories.md). */
export async function transactionCategoryRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  const forever = { cacheUntil: () => Number.POSITIVE_INFINITY };
  registerRoute(app, categoryRoutes.list, ({ auth }) => ({ data: listCategories(db, auth.teamId) }), forever);
  registerRoute(
    app,
    categoryRoutes.get,
    ({ auth, params }) => {
      ensureCategoriesOnce(db, auth.teamId);
      return getCategory(db, auth.teamId, params.id);
    },
    forever,
  );
  registerRoute(app, categoryRoutes.create, ({ auth, body }) => createCategory(db, auth.teamId, body));
  registerRoute(app, categoryRoutes.update, ({ auth, params, body }) => updateCategory(db, auth.teamId, params.id, body));
  registerRoute(app, categoryRoutes.delete, ({ auth, params }) => deleteCategory(db, auth.teamId, params.id));
}
