import { z } from 'zod';
import { ACCOUNT_TYPES, Balance } from './bank-accounts';
import { Day } from './invoices';
import { defineRoute } from './route';
import { Currency } from './tracker';

/**
 * `GET /v1/balances` and `GET /v1/cash-flow`: the spec's overview names both without payloads; ours are in
 * docs/decisions/0054-bank-accounts-and-balances.md. Both convert into one currency (the `currency` asked for, else
 * the team's base currency) at exact rates from the exchange-rate table; a currency without a rate is reported and
 * left out of the figures, never converted at 1.0.
 */

export const BalancesQuery = z.object({
  currency: Currency.optional().describe("target currency; default the team's base currency"),
});

export const AccountBalanceLine = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(ACCOUNT_TYPES),
  currency: z.string(),
  balance: Balance.describe("in the account's currency"),
  converted: Balance.nullable().describe('in the target currency at the rate of the day; null without a rate'),
  rate: z.number().nullable().describe('units of the target currency per unit of the account currency'),
});

export const Balances = z
  .object({
    date: z.string().describe('the day whose rates were used (today, UTC)'),
    currency: z.string().describe('the target currency'),
    total: z.object({
      amount: z.number().describe('sum of the converted balances of the enabled accounts'),
      currency: z.string(),
      complete: z.boolean().describe('false when an account could not be converted (see missingRates)'),
    }),
    accounts: z.array(AccountBalanceLine).describe('enabled accounts, by name'),
    missingRates: z.array(z.string()).describe('currencies without a rate on or before the day: left out of total'),
  })
  .meta({ id: 'Balances' });
export type Balances = z.infer<typeof Balances>;

/** At most 20 years of months in one answer. */
export const MAX_CASH_FLOW_MONTHS = 240;

export const CashFlowQuery = z
  .object({
    from: Day.describe('first day (inclusive)'),
    to: Day.describe('last day (inclusive)'),
    currency: Currency.optional().describe("target currency; default the team's base currency"),
  })
  .refine((q) => q.from <= q.to, { message: 'from must not be after to', path: ['to'] });

const Flow = z.object({
  inflow: z.number().describe('money in, major units (≥ 0)'),
  outflow: z.number().describe('money out, major units (≥ 0)'),
  net: z.number().describe('inflow − outflow'),
});

export const CashFlow = z
  .object({
    from: z.string(),
    to: z.string(),
    currency: z.string(),
    months: z
      .array(Flow.extend({ month: z.string().describe('YYYY-MM (UTC)') }))
      .describe('every month of the window, oldest first; the edge months hold only the days inside the window'),
    total: Flow,
    missingRates: z
      .array(
        z.object({
          currency: z.string(),
          days: z.number().int().describe('days with flows in this currency but no rate on or before them'),
          inflow: z.number().describe('left out, in this currency'),
          outflow: z.number().describe('left out, in this currency'),
        }),
      )
      .describe('flows that could not be converted and are left out of the figures'),
  })
  .meta({ id: 'CashFlow' });
export type CashFlow = z.infer<typeof CashFlow>;

export const cashReportRoutes = {
  balances: defineRoute({
    method: 'GET',
    path: '/balances',
    tag: 'reports',
    summary: 'Extension (payload ours): balance per enabled account and their total in one currency at today’s rate',
    scopes: ['bank-accounts.read'],
    query: BalancesQuery,
    responses: { 200: z.object({ data: Balances }) },
  }),
  cashFlow: defineRoute({
    method: 'GET',
    path: '/cash-flow',
    tag: 'reports',
    summary: 'Extension (payload ours): inflow, outflow and net per month of a window, in one currency',
    description:
      'From the daily roll-up of the ledger: internal transfers, excluded transactions and excluded categories are ' +
      'left out; split parts count by their own category. Each day’s flows are converted at that day’s rate (the ' +
      'nearest earlier one), rounded half away from zero per day and currency.',
    scopes: ['reports.read'],
    query: CashFlowQuery,
    responses: { 200: z.object({ data: CashFlow }) },
  }),
};
