import type { FastifyInstance } from 'fastify';
import { metricRoutes } from '../../../src-shared/contract/metrics';
import { augursModel } from '../../metrics/augurs';
import type { Db } from '../../store/db';
import { computeForecast, latestForecast } from '../../store/metrics/forecasts';
import {
  compareStressTests,
  deleteStressTest,
  getStressTest,
  listStressTests,
  renameStressTest,
  runAndSaveStressTest,
} from '../../store/metrics/stress-tests';
import { notFound } from '../errors';
import { registerRoute } from '../route';

/**
 * Metrics: forecasts (POST computes and stores, GET reads the latest stored result with the same inputs) and stress
 * tests (POST runs and saves, GET reads one; list and compare are extensions for the renderer). Contract:
 * src-shared/contract/metrics.ts; the math: src-shared/domain/{forecast*,stress}.ts.
 */
export async function metricRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  const options = { model: augursModel };
  const missing = (what: string) =>
    notFound(
      `No ${what} forecast has been computed with these inputs`,
      'POST the same from, to, horizonMonths and currency to compute one',
    );

  registerRoute(app, metricRoutes.forecastCashFlow, ({ auth, body }) =>
    computeForecast(db, auth.teamId, 'cash_flow', body, options),
  );
  registerRoute(app, metricRoutes.forecastRevenue, ({ auth, body }) =>
    computeForecast(db, auth.teamId, 'revenue', body, options),
  );
  registerRoute(app, metricRoutes.readCashFlow, ({ auth, query }) => {
    const found = latestForecast(db, auth.teamId, 'cash_flow', query);
    if (!found) throw missing('cash-flow');
    return found;
  });
  registerRoute(app, metricRoutes.readRevenue, ({ auth, query }) => {
    const found = latestForecast(db, auth.teamId, 'revenue', query);
    if (!found) throw missing('revenue');
    return found;
  });
  registerRoute(app, metricRoutes.stressTest, ({ auth, body }) => runAndSaveStressTest(db, auth.teamId, body, options));
  registerRoute(app, metricRoutes.getStressTest, ({ auth, params }) => getStressTest(db, auth.teamId, params.id));
  registerRoute(app, metricRoutes.renameStressTest, ({ auth, params, body }) =>
    renameStressTest(db, auth.teamId, params.id, body.name),
  );
  registerRoute(app, metricRoutes.deleteStressTest, ({ auth, params }) => deleteStressTest(db, auth.teamId, params.id));
  registerRoute(app, metricRoutes.listStressTests, ({ auth, query }) => listStressTests(db, auth.teamId, query));
  registerRoute(app, metricRoutes.compareStressTests, ({ auth, query }) => compareStressTests(db, auth.teamId, query.ids));
}
