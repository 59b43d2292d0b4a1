import type { FastifyInstance } from 'fastify';
import { cashReportRoutes } from '../../../src-shared/contract/cash-reports';
import { todayUtc } from '../../store/bank-accounts/bank-accounts';
import type { Db } from '../../store/db';
import { balances, cashFlow } from '../../store/reports/cash-reports';
import { registerRoute } from '../route';

/**
 * `GET /v1/balances` and `GET /v1/cash-flow` (docs/decisions/0054-bank-accounts-and-balances.md). Not cached: they
 * depend on the shared rate table (and balances on today's date), which a team's change counter does not follow.
 */
export async function cashReportRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  registerRoute(app, cashReportRoutes.balances, ({ auth, query }) => ({
    data: balances(db, auth.teamId, { currency: query.currency, day: todayUtc() }),
  }));
  registerRoute(app, cashReportRoutes.cashFlow, ({ auth, query }) => ({ data: cashFlow(db, auth.teamId, query) }));
}
