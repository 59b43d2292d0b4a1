import type { FastifyInstance } from 'fastify';
import { healthRoutes } from '../../../src-shared/contract/health';
import { type Db, schemaVersion } from '../../store/db';
import { SERVER_VERSION } from '../../version';
import { registerRoute } from '../route';

export async function healthRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  // Migrations run before the server starts and a newer schema is refused, so the version is fixed for its life.
  const version = schemaVersion(opts.db);
  registerRoute(app, healthRoutes.get, () => ({
    status: 'ok' as const,
    version: SERVER_VERSION,
    schemaVersion: version,
    time: new Date().toISOString(),
  }));
}
