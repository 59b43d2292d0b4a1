import type { FastifyInstance } from 'fastify';
import { connectionRoutes, institutionRoutes } from '../../../src-shared/contract/institutions';
import type { RouteContract } from '../../../src-shared/contract/route';
import type { Db } from '../../store/db';
import { providerHealth, searchInstitutions } from '../../store/institutions/institutions';
import type { ServerCredentialSources } from '../../sync/credentials';
import { keyOf, relayer, stringsOf } from '../relayed';
import { registerRoute } from '../route';

/**
 * Institutions, provider health and the bank-connection flows (docs/decisions/0055-institutions-and-connections.md,
 * 0144-bank-connection-relay.md). The flows need a bank-data provider's credentials, which only a remote instance
 * holds: each validated call is sent on to the team's sync remote and answered as it answered. Without a remote (or
 * one that cannot be reached) the answer is 409 with the reason.
 */
const NOT_CONNECTED = 'Bank connections run on a remote instance, not on this local server';
const NO_REMOTE =
  'This server works offline and holds no credentials of bank-data providers (plaid, gocardless, enablebanking, ' +
  'teller, pluggy), and the team has no sync remote to reach one through. Connect the team to its remote instance ' +
  '(the Sync screen, or `finops sync`); these calls then go there, and the sync engine brings the accounts and ' +
  'their transactions here.';

export async function institutionRoutesPlugin(
  app: FastifyInstance,
  opts: { db: Db; sync?: false | ServerCredentialSources },
): Promise<void> {
  const { relayed, answer } = relayer(opts.db, opts.sync || {}, NOT_CONNECTED, NO_REMOTE);
  // The bundled list never changes while the server runs.
  const forever = { cacheUntil: () => Number.POSITIVE_INFINITY };
  registerRoute(app, institutionRoutes.list, ({ query }) => ({ data: searchInstitutions(query) }), forever);
  registerRoute(app, institutionRoutes.health, () => ({ data: providerHealth() }));
  for (const route of Object.values(connectionRoutes) as RouteContract[]) {
    registerRoute(app, route, async ({ auth, body, query, request, reply }) =>
      answer(
        reply,
        await relayed(auth.teamId, {
          method: route.method as 'GET' | 'POST',
          path: route.path,
          ...(route.method === 'GET' ? { query: stringsOf(query as Record<string, unknown>) } : { body }),
          idempotencyKey: keyOf(request.headers),
        }),
      ),
    );
  }
}
