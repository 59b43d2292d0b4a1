import type { FastifyInstance } from 'fastify';
import { exchangeRateRoutes } from '../../../src-shared/contract/exchange-rates';
import { todayUtc } from '../../store/bank-accounts/bank-accounts';
import type { Db } from '../../store/db';
import { ratesOfDay, singleRate } from '../../store/exchange-rates/rates';
import { notFound } from '../errors';
import { registerRoute } from '../route';

/** Exchange rates from the local rate table (docs/decisions/0056-exchange-rates.md). Not cached: the table is shared. */
export async function exchangeRateRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  registerRoute(app, exchangeRateRoutes.rates, ({ query }) => ({ data: ratesOfDay(db, query.date ?? todayUtc()) }));
  registerRoute(app, exchangeRateRoutes.rate, ({ query }) => {
    const day = query.date ?? todayUtc();
    const rate = singleRate(db, query.base, query.target, day);
    if ('missing' in rate) {
      throw notFound(
        `No exchange rate for ${rate.missing} on or before ${day}`,
        'Rates come from `finops rates import`; a missing rate is never taken as 1',
      );
    }
    return { data: rate };
  });
}
