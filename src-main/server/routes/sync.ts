import type { FastifyInstance } from 'fastify';
import { syncRoutes } from '../../../src-shared/contract/sync';
import type { Db } from '../../store/db';
import { syncFeed, syncRecordsById } from '../../store/sync/feed';
import { registerRoute } from '../route';

/** The change feed other replicas pull from (extension; docs/decisions/0140-sync-engine.md). */
export async function syncRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  registerRoute(app, syncRoutes.changes, ({ auth, query }) => syncFeed(db, auth.teamId, query.since, query.limit));
  registerRoute(app, syncRoutes.records, ({ auth, query }) => ({
    data: syncRecordsById(db, auth.teamId, query.entity, query.ids),
  }));
}
