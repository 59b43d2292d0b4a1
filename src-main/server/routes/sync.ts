import type { FastifyInstance } from 'fastify';
import { syncRoutes } from '../../../src-shared/contract/sync';
import { SYNC_ORDER } from '../../../src-shared/domain/sync/fields';
import type { Db } from '../../store/db';
import { entityReadScope } from '../../store/entities';
import { syncFeed, syncRecordsById } from '../../store/sync/feed';
import { actingUserId } from '../../store/users/users';
import type { Credential } from '../auth/credentials';
import { forbidden } from '../errors';
import { registerRoute } from '../route';

/**
 * The change feed other replicas pull from (extension; docs/decisions/0140-sync-engine.md). It carries only what the
 * credential could read through the resources' own routes (docs/decisions/0177): each entity needs its read scope
 * (an invoice invoices.read, a document documents.read, …), and notifications are the team's and the caller's own.
 */
export async function syncRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  const readable = (auth: Credential) =>
    SYNC_ORDER.filter((e) => {
      const scope = entityReadScope(e);
      return scope !== undefined && auth.scopes.has(scope);
    });
  registerRoute(app, syncRoutes.changes, ({ auth, query }) =>
    syncFeed(db, auth.teamId, query.since, query.limit, { entities: readable(auth), userId: actingUserId(db, auth) ?? null }),
  );
  registerRoute(app, syncRoutes.records, ({ auth, query }) => {
    const scope = entityReadScope(query.entity);
    if (!scope || !auth.scopes.has(scope)) {
      throw forbidden(
        `Reading ${query.entity} records needs ${scope ?? 'a read scope'}`,
        `Insufficient permissions. Required scopes: ${scope}. Your scopes: ${auth.granted.join(', ')}`,
      );
    }
    return { data: syncRecordsById(db, auth.teamId, query.entity, query.ids, actingUserId(db, auth) ?? null) };
  });
}
