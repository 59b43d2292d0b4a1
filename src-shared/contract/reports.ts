import { z } from 'zod';
import { Currency, Day, windowed } from './metrics';
import { defineRoute } from './route';

/**
 * Reports: runway (the spec's `GET /reports/runway`, response designed here) and the hosted report family
 * (`/reports/{revenue,profit,burn-rate,expenses,spending}`, in the hosted service's shapes so its clients work
 * unchanged: shared/spec/hosted-service-facts.md "Reports"). Target currency = `currency` or the team's base; internal
 * transfers, excluded transactions and excluded categories are left out; months in UTC, dated by their first day.
 * Formulas: src-shared/domain/{runway,reports}.ts; decisions 0091 and 0094.
 */

const WindowQuery = windowed(
  z.object({
    from: Day.describe('first day (YYYY-MM-DD)'),
    to: Day.describe('last day (YYYY-MM-DD)'),
    currency: Currency.optional().describe("ISO 4217; default the team's base currency"),
  }),
);

const RevenueQuery = windowed(
  z.object({
    from: Day,
    to: Day,
    currency: Currency.optional(),
    revenueType: z.enum(['gross', 'net']).default('net').describe('net (default) removes the tax at each category’s rate'),
  }),
);

export const RunwayAccount = z
  .object({
    id: z.string(),
    name: z.string(),
    type: z.enum(['depository', 'other_asset']),
    currency: z.string(),
    balance: z.number().describe("in the account's currency"),
    converted: z.number().nullable().describe('in the report currency at the as-of rate; null without a rate'),
  })
  .meta({ id: 'RunwayAccount' });

export const Runway = z
  .object({
    from: Day,
    to: Day,
    currency: z.string(),
    asOf: Day.describe('the day the cash is taken (today, UTC) and its rate'),
    months: z.number().nullable().describe('months of cash left at the average burn; null when the runway is infinite'),
    infinite: z.boolean().describe('true when the average burn is zero or negative: the cash does not run out at this rate'),
    runsOutOn: Day.nullable().describe('asOf + months; null when infinite'),
    cash: z.number().describe('sum of the converted balances of the enabled depository and other_asset accounts'),
    averageMonthlyBurn: z.number().describe('(money out − money in) ÷ windowMonths; ≤ 0 means the window made money'),
    averageMonthlyInflow: z.number(),
    averageMonthlyOutflow: z.number(),
    windowMonths: z.number().describe('length of the window in months, partial months by their share of days'),
    medianBurn: z
      .number()
      .describe('hosted figure: median monthly money out (gross burn) of the last three complete months of the window'),
    method: z.object({ name: z.literal('cash-over-average-net-burn'), description: z.string() }),
    accounts: z.array(RunwayAccount),
    missingRates: z.number().int().describe('day buckets and accounts left out for want of an exchange rate'),
  })
  .meta({ id: 'Runway' });
export type Runway = z.infer<typeof Runway>;

const Point = z.object({ date: z.string(), value: z.number(), currency: z.string() });
const ChangeItem = z.object({
  date: z.string().describe('first day of the month'),
  percentage: z.object({ value: z.number(), status: z.enum(['negative', 'positive']) }),
  current: Point,
  previous: Point.describe('the same month a year earlier'),
});

function changeReport<T extends 'revenue' | 'profit'>(type: T, id: string) {
  return z
    .object({
      summary: z.object({ currentTotal: z.number(), prevTotal: z.number(), currency: z.string() }),
      meta: z.object({ type: z.literal(type), currency: z.string() }),
      result: z.array(ChangeItem),
    })
    .meta({ id });
}

export const RevenueReport = changeReport('revenue', 'RevenueReport');
export const ProfitReport = changeReport('profit', 'ProfitReport');
export const BurnRateReport = z.array(Point).meta({ id: 'BurnRateReport' });
export const ExpensesReport = z
  .object({
    summary: z.object({ averageExpense: z.number(), currency: z.string() }),
    meta: z.object({ type: z.literal('expense'), currency: z.string() }),
    result: z.array(
      z.object({
        date: z.string(),
        value: z.number().describe('non-recurring expenses'),
        currency: z.string(),
        recurring: z.number().describe('recurring expenses'),
        total: z.number(),
      }),
    ),
  })
  .meta({ id: 'ExpensesReport' });
export const SpendingReport = z
  .array(
    z.object({
      name: z.string(),
      slug: z.string(),
      amount: z.number().describe('negative: money spent'),
      currency: z.string(),
      color: z.string(),
      percentage: z.number().describe('share of all spending in the window, in percent'),
    }),
  )
  .meta({ id: 'SpendingReport' });

const hosted = (what: string) =>
  `${what} In the hosted service's shape. Internal transfers, excluded transactions and excluded categories are left out.`;

export const reportRoutes = {
  runway: defineRoute({
    method: 'GET',
    path: '/reports/runway',
    tag: 'reports',
    summary: 'Estimate runway: months of cash left at the average burn of the window',
    scopes: ['reports.read'],
    query: WindowQuery,
    responses: { 200: Runway },
  }),
  revenue: defineRoute({
    method: 'GET',
    path: '/reports/revenue',
    tag: 'reports',
    summary: 'Revenue per month, against the same month a year earlier',
    description: hosted('Revenue categories, refunds and chargebacks deducted; net of tax by default.'),
    scopes: ['reports.read'],
    query: RevenueQuery,
    responses: { 200: RevenueReport },
  }),
  profit: defineRoute({
    method: 'GET',
    path: '/reports/profit',
    tag: 'reports',
    summary: 'Profit (revenue − expenses) per month, against the same month a year earlier',
    description: hosted('Revenue as in /reports/revenue, less the money out of every other category.'),
    scopes: ['reports.read'],
    query: RevenueQuery,
    responses: { 200: ProfitReport },
  }),
  burnRate: defineRoute({
    method: 'GET',
    path: '/reports/burn-rate',
    tag: 'reports',
    summary: 'Burn rate per month (money out of expense categories)',
    description: hosted('Burn rate = Σ |expenses| of the month.'),
    scopes: ['reports.read'],
    query: WindowQuery,
    responses: { 200: BurnRateReport },
  }),
  expenses: defineRoute({
    method: 'GET',
    path: '/reports/expenses',
    tag: 'reports',
    summary: 'Expenses per month, split into recurring and the rest',
    description: hosted('Recurring = transactions marked recurring.'),
    scopes: ['reports.read'],
    query: WindowQuery,
    responses: { 200: ExpensesReport },
  }),
  spending: defineRoute({
    method: 'GET',
    path: '/reports/spending',
    tag: 'reports',
    summary: 'Spending by category over the window, largest first',
    description: hosted('Money out per expense category with its share.'),
    scopes: ['reports.read'],
    query: WindowQuery,
    responses: { 200: SpendingReport },
  }),
} as const;
