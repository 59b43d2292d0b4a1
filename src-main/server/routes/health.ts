import type { FastifyInstance } from 'fastify';
import { healthRoutes } from '../../../src-shared/contract/health';
import { type Db, schemaVersion } from '../../store/db';
import { registerRoute } from '../route';
import { SERVER_VERSION } from '../version';

export async function healthRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  registerRoute(app, healthRoutes.get, () => ({
    status: 'ok' as const,
    version: SERVER_VERSION,
    schemaVersion: schemaVersion(opts.db),
    time: new Date().toISOString(),
  }));
}
