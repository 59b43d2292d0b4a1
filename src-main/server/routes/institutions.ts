import type { FastifyInstance } from 'fastify';
import { connectionRoutes, institutionRoutes } from '../../../src-shared/contract/institutions';
import type { RouteContract } from '../../../src-shared/contract/route';
import type { Db } from '../../store/db';
import { providerHealth, searchInstitutions } from '../../store/institutions/institutions';
import { conflict } from '../errors';
import { registerRoute } from '../route';

/**
 * Institutions, provider health and the bank-connection flows (docs/decisions/0055-institutions-and-connections.md).
 * The flows validate their request like any route (a malformed one is 422) and then answer 409: they need a
 * bank-data provider's credentials, which only a remote instance holds.
 */
export async function institutionRoutesPlugin(app: FastifyInstance, _opts: { db: Db }): Promise<void> {
  // The bundled list never changes while the server runs.
  const forever = { cacheUntil: () => Number.POSITIVE_INFINITY };
  registerRoute(app, institutionRoutes.list, ({ query }) => ({ data: searchInstitutions(query) }), forever);
  registerRoute(app, institutionRoutes.health, () => ({ data: providerHealth() }));
  for (const route of Object.values(connectionRoutes) as RouteContract[]) {
    registerRoute(app, route, () => {
      throw conflict(
        'Bank connections run on a remote instance, not on this local server',
        'This server works offline and holds no credentials of bank-data providers (plaid, gocardless, enablebanking, ' +
          'teller, pluggy). Connect the bank on the remote instance this team syncs with; the sync engine brings the ' +
          'accounts and their transactions here.',
      );
    });
  }
}
