import type { FastifyInstance } from 'fastify';
import type { Db } from '../../store/db';
import type { ServerCredentialSources } from '../../sync/credentials';
import { bankAccountRoutesPlugin } from './bank-accounts';
import { cashReportRoutesPlugin } from './cash-reports';
import { transactionCategoryRoutesPlugin } from './categories';
import { exchangeRateRoutesPlugin } from './exchange-rates';
import { institutionRoutesPlugin } from './institutions';
import { notificationRoutesPlugin } from './notifications';

/**
 * The ledger's resources beside transactions (issue "Ledger"), one plugin each: bank accounts (with balance and
 * statement), balances and cash flow, institutions with provider health and the bank-connection flows, exchange
 * rates, transaction categories, notifications.
 */
export async function ledgerRoutesPlugin(
  app: FastifyInstance,
  opts: { db: Db; sync?: false | ServerCredentialSources },
): Promise<void> {
  await app.register(bankAccountRoutesPlugin, opts);
  await app.register(cashReportRoutesPlugin, opts);
  await app.register(institutionRoutesPlugin, opts);
  await app.register(exchangeRateRoutesPlugin, opts);
  await app.register(transactionCategoryRoutesPlugin, opts);
  await app.register(notificationRoutesPlugin, opts);
}
