import type { FastifyInstance } from 'fastify';
import { reportRoutes } from '../../../src-shared/contract/reports';
import type { Db } from '../../store/db';
import {
  burnRateReport,
  expensesReport,
  profitReport,
  revenueReport,
  runwayReport,
  spendingReport,
} from '../../store/reports/reports';
import { registerRoute } from '../route';

/**
 * Reports: runway (the spec's) and the hosted family (revenue, profit, burn rate, expenses, spending). Contract:
 * src-shared/contract/reports.ts. Read from the daily roll-up: a window of a million-transaction ledger costs a few
 * milliseconds, so no response cache (runway also depends on the day).
 */
export async function reportRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  registerRoute(app, reportRoutes.runway, ({ auth, query }) => runwayReport(db, auth.teamId, query));
  registerRoute(app, reportRoutes.revenue, ({ auth, query }) => revenueReport(db, auth.teamId, query));
  registerRoute(app, reportRoutes.profit, ({ auth, query }) => profitReport(db, auth.teamId, query));
  registerRoute(app, reportRoutes.burnRate, ({ auth, query }) => burnRateReport(db, auth.teamId, query));
  registerRoute(app, reportRoutes.expenses, ({ auth, query }) => expensesReport(db, auth.teamId, query));
  registerRoute(app, reportRoutes.spending, ({ auth, query }) => spendingReport(db, auth.teamId, query));
}
