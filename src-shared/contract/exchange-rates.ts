import { z } from 'zod';
import { Day } from './invoices';
import { defineRoute } from './route';
import { Currency } from './tracker';

/**
 * Exchange rates (docs/decisions/0056-exchange-rates.md): the spec's payloads `{date, usd: {CCY: rate}}` and
 * `{date, rate}`, each wrapped in `{data}` like the other bank-connection payloads, served from the local rate table
 * that `finops rates import` fills. The rate of a day is that day's, else the nearest earlier day's; a currency with
 * no rate on or before the day is absent from `usd` (and listed in `missing`), never 1.0.
 */

export const ExchangeRates = z
  .object({
    date: z.string().describe('the day asked for'),
    usd: z.record(z.string(), z.number()).describe('currency code → units of it per 1 USD on that day (USD is 1)'),
    rateDates: z
      .record(z.string(), z.string())
      .describe('extension: currency code → the day its rate was published (the day asked for or the nearest earlier)'),
    missing: z.array(z.string()).describe('extension: currencies the table knows but with no rate on or before the day'),
  })
  .meta({ id: 'ExchangeRates' });

export const ExchangeRatesQuery = z.object({
  date: Day.optional().describe('default today (UTC)'),
});

export const SingleRate = z
  .object({
    date: z.string().describe('the day asked for'),
    rate: z.number().describe('units of `target` per 1 unit of `base`, rounded to 12 decimals'),
  })
  .meta({ id: 'SingleRate' });

export const SingleRateQuery = z.object({
  base: Currency,
  target: Currency,
  date: Day.optional().describe('default today (UTC)'),
});

export const exchangeRateRoutes = {
  rates: defineRoute({
    method: 'GET',
    path: '/exchange-rates',
    tag: 'bank-accounts',
    summary: 'Exchange rates of a day against USD: {data: {date, usd: {CCY: rate}}}',
    scopes: ['bank-accounts.read'],
    query: ExchangeRatesQuery,
    responses: { 200: z.object({ data: ExchangeRates }) },
  }),
  rate: defineRoute({
    method: 'GET',
    path: '/exchange-rates/rate',
    tag: 'bank-accounts',
    summary: 'One rate, base → target, of a day: {data: {date, rate}}; 404 when either currency has no rate',
    scopes: ['bank-accounts.read'],
    query: SingleRateQuery,
    responses: { 200: z.object({ data: SingleRate }) },
  }),
};
