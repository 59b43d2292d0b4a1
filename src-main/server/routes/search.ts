import type { FastifyInstance } from 'fastify';
import type { Scope } from '../../../src-shared/contract/scopes';
import { SEARCH_TYPES, type SearchType, searchRoutes } from '../../../src-shared/contract/search';
import type { Db } from '../../store/db';
import { search } from '../../store/search/search';
import { registerRoute } from '../route';

/** search.read lets a credential search; each type's results also need that type's own read scope. */
const READ_SCOPE: Record<SearchType, Scope> = {
  customer: 'customers.read',
  invoice: 'invoices.read',
  transaction: 'transactions.read',
  tracker_project: 'tracker-projects.read',
  inbox: 'inbox.read',
  vault: 'documents.read',
};

export async function searchRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  registerRoute(app, searchRoutes.search, ({ auth, query }) =>
    search(
      db,
      auth.teamId,
      query,
      SEARCH_TYPES.filter((t) => auth.scopes.has(READ_SCOPE[t])),
    ),
  );
}
