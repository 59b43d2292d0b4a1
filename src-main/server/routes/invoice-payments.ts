import type { FastifyInstance } from 'fastify';
import { paymentRoutes as r } from '../../../src-shared/contract/invoice-payments';
import type { Db } from '../../store/db';
import { paymentCandidateViews, unmatchInvoicePayment } from '../../store/invoices/matching';
import { bounceInvoicePayment, recordInvoicePayment } from '../../store/invoices/payment-records';
import { getInvoicePayment, listInvoicePayments, listPayments } from '../../store/invoices/payments';
import type { ServerCredentialSources } from '../../sync/credentials';
import { registerRoute } from '../route';
import { registerPaymentProviderRoutes } from './payment-provider';

/**
 * `/v1/payments` and `/v1/invoice-payments` (docs/decisions/0076-invoice-payments.md, 0147), and the payment-provider
 * routes relayed to the team's sync remote with the credential the server's sync settings find.
 */
export async function invoicePaymentRoutesPlugin(
  app: FastifyInstance,
  opts: { db: Db; sync?: false | ServerCredentialSources },
): Promise<void> {
  const { db } = opts;
  registerPaymentProviderRoutes(app, db, opts.sync || {});
  registerRoute(app, r.payments, ({ auth, query }) => listPayments(db, auth.teamId, query));
  registerRoute(app, r.list, ({ auth, query }) => listInvoicePayments(db, auth.teamId, query));
  registerRoute(app, r.candidates, ({ auth, query }) => ({ data: paymentCandidateViews(db, auth.teamId, query) }));
  registerRoute(app, r.get, ({ auth, params }) => getInvoicePayment(db, auth.teamId, params.id));
  registerRoute(app, r.create, ({ auth, body }) => recordInvoicePayment(db, auth.teamId, body));
  registerRoute(app, r.delete, ({ auth, params }) => unmatchInvoicePayment(db, auth.teamId, params.id));
  registerRoute(app, r.bounce, ({ auth, params, body }) =>
    bounceInvoicePayment(db, auth.teamId, params.id, body.reason ?? 'bounced'),
  );
}
