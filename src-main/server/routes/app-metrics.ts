import type { FastifyInstance } from 'fastify';
import { appMetricRoutes } from '../../../src-shared/contract/app-metrics';
import { augursModel } from '../../metrics/augurs';
import type { Db } from '../../store/db';
import { buildStressTest } from '../../store/metrics/stress-tests';
import { registerRoute } from '../route';

/** `POST /app/metrics/stress-test/preview`: a stress test computed and answered, not saved (contract/app-metrics.ts). */
export async function appMetricRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  registerRoute(app, appMetricRoutes.previewStressTest, ({ auth, body }) =>
    buildStressTest(opts.db, auth.teamId, body, { model: augursModel }),
  );
}
