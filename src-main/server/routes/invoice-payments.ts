import type { FastifyInstance } from 'fastify';
import { paymentRoutes as r } from '../../../src-shared/contract/invoice-payments';
import type { Db } from '../../store/db';
import { unmatchInvoicePayment } from '../../store/invoices/matching';
import { bounceInvoicePayment, recordInvoicePayment } from '../../store/invoices/payment-records';
import { getInvoicePayment, listInvoicePayments, listPayments } from '../../store/invoices/payments';
import { registerRoute } from '../route';

/** `/v1/payments` and `/v1/invoice-payments` (docs/decisions/0076-invoice-payments.md). */
export async function invoicePaymentRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  registerRoute(app, r.payments, ({ auth, query }) => listPayments(db, auth.teamId, query));
  registerRoute(app, r.list, ({ auth, query }) => listInvoicePayments(db, auth.teamId, query));
  registerRoute(app, r.get, ({ auth, params }) => getInvoicePayment(db, auth.teamId, params.id));
  registerRoute(app, r.create, ({ auth, body }) => recordInvoicePayment(db, auth.teamId, body));
  registerRoute(app, r.delete, ({ auth, params }) => unmatchInvoicePayment(db, auth.teamId, params.id));
  registerRoute(app, r.bounce, ({ auth, params, body }) =>
    bounceInvoicePayment(db, auth.teamId, params.id, body.reason ?? 'bounced'),
  );
}
