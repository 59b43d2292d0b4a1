import type { FastifyInstance } from 'fastify';
import { reconciliationRoutes } from '../../../src-shared/contract/reconciliation';
import type { Db } from '../../store/db';
import { minorOf } from '../../store/money-input';
import {
  getReconciliation,
  listReconciliations,
  previewReconciliation,
  reconcile,
  statementCurrency,
  unreconcile,
} from '../../store/reconciliation/reconciliation';
import { registerRoute } from '../route';

/** Statement reconciliation (extension under /v1, docs/decisions/0066). */
function input(db: Db, teamId: string, body: { bankAccountId: string; statementDate: string; closingBalance: number }) {
  const currency = statementCurrency(db, teamId, body.bankAccountId);
  return {
    bankAccountId: body.bankAccountId,
    statementDate: body.statementDate,
    statementBalanceMinor: minorOf(body.closingBalance, currency, 'closingBalance'),
  };
}

export async function reconciliationRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  registerRoute(app, reconciliationRoutes.preview, ({ auth, body }) =>
    previewReconciliation(db, auth.teamId, input(db, auth.teamId, body)),
  );
  registerRoute(app, reconciliationRoutes.create, ({ auth, body }) => reconcile(db, auth.teamId, input(db, auth.teamId, body)));
  registerRoute(app, reconciliationRoutes.list, ({ auth, query }) => listReconciliations(db, auth.teamId, query));
  registerRoute(app, reconciliationRoutes.get, ({ auth, params }) => getReconciliation(db, auth.teamId, params.id));
  registerRoute(app, reconciliationRoutes.undo, ({ auth, params }) => unreconcile(db, auth.teamId, params.id));
}
