import { z } from 'zod';
import { isCurrencyCode } from '../money';
import { PageSize } from './common';
import { idParams } from './list';
import { defineRoute } from './route';

/**
 * Metrics: cash-flow and revenue forecasts, stress tests (the spec's "Metrics and reports"; response bodies are not
 * shown there and are designed here: docs/metrics.md has examples, docs/decisions/0090–0094 the reasons). Every
 * result keeps its inputs — window, horizon, currency — beside the figures (spec rule 4). Amounts are major units of
 * the result's currency. The three POSTs honour Idempotency-Key.
 */

export const Day = z.iso.date('must be a date such as 2026-03-31');
export const Currency = z.string().trim().toUpperCase().refine(isCurrencyCode, 'must be an ISO 4217 currency code such as EUR');
const Money = z.number().finite('must be a number');
const Month = z.string().describe('calendar month, YYYY-MM');

/** from ≤ to and at most 20 years apart, reported on `to`. */
// biome-ignore lint/suspicious/noExplicitAny: any object schema with from and to
export function windowed<T extends z.ZodObject<any>>(schema: T) {
  const w = (v: unknown) => v as { from: string; to: string };
  return schema
    .refine((v) => w(v).from <= w(v).to, { message: 'must not be before from', path: ['to'] })
    .refine((v) => Number(w(v).to.slice(0, 4)) - Number(w(v).from.slice(0, 4)) <= 20, {
      message: 'the window may span at most 20 years',
      path: ['to'],
    });
}

// ---------------------------------------------------------------------------------------------------------------
// Forecasts.

const ForecastFields = {
  from: Day.describe('first day of the training window'),
  to: Day.describe('last day of the training window'),
  currency: Currency.optional().describe("ISO 4217; default the team's base currency"),
};

export const ForecastBody = windowed(
  z.strictObject({
    ...ForecastFields,
    horizonMonths: z.number().int('must be a whole number').min(1).max(60).describe('1 to 60'),
  }),
);
export type ForecastBody = z.infer<typeof ForecastBody>;

export const ForecastQuery = windowed(
  z.object({
    ...ForecastFields,
    horizonMonths: z.coerce.number().int('must be a whole number').min(1).max(60).describe('1 to 60'),
  }),
);

export const Interval = {
  lower80: z.number().describe('80 % prediction interval, lower bound'),
  upper80: z.number(),
  lower95: z.number().describe('95 % prediction interval, lower bound'),
  upper95: z.number(),
};

export const Backtest = z
  .object({
    from: Month.describe('first held-out month'),
    to: Month.describe('last held-out month'),
    mase: z.number().describe("the method's MASE on the held-out months (scaled by the in-sample seasonal-naive error)"),
    seasonalNaiveMase: z.number().describe("seasonal naive's MASE on the same months"),
    relativeMase: z.number().describe('mase ÷ seasonalNaiveMase; below 1 beats seasonal naive'),
    coverage80: z.number().describe('share of held-out months inside the 80 % interval'),
    coverage95: z.number().describe('share of held-out months inside the 95 % interval'),
  })
  .meta({ id: 'ForecastBacktest' });

export const ForecastMethod = z
  .object({
    name: z.string().describe('e.g. "combination(mstl-autoets, theta) + recurring + invoices"'),
    description: z.string(),
    members: z.array(z.string()).describe('statistical models that ran: mstl-autoets | autoets | theta | mean'),
    seasonal: z.boolean().describe('whether a yearly cycle was allowed (at least 24 training months)'),
    backtest: Backtest.nullable().describe('null when the window has fewer than 24 complete months'),
    backtestNote: z.string().nullable(),
  })
  .meta({ id: 'ForecastMethod' });

export const ForecastMonth = z
  .object({
    month: Month,
    value: z.number().describe('point forecast: net cash flow (in − out) or net revenue'),
    ...Interval,
    inflow: z.number().nullable().describe('cash flow: expected money in'),
    outflow: z.number().nullable().describe('cash flow: expected money out'),
    cash: z.number().nullable().describe('cash flow: expected closing cash (starting cash + net flows so far)'),
    parts: z
      .object({
        model: z.number().describe('statistical model (money in, for cash flow)'),
        recurring: z.number().describe('recurring series projected by cadence (net)'),
        invoices: z.number().describe('open invoices expected above what the model expects'),
      })
      .describe('how the point of money in (cash flow) or revenue is made up'),
  })
  .meta({ id: 'ForecastMonth' });

export const HistoryMonth = z
  .object({
    month: Month,
    value: z.number(),
    inflow: z.number().nullable(),
    outflow: z.number().nullable(),
  })
  .meta({ id: 'ForecastHistoryMonth' });

export const ForecastResult = z
  .object({
    id: z.string(),
    kind: z.enum(['cash_flow', 'revenue']),
    from: Day,
    to: Day,
    horizonMonths: z.number().int(),
    currency: z.string(),
    createdAt: z.string().describe('when it was computed'),
    trainingMonths: z.object({ from: Month.nullable(), to: Month.nullable(), count: z.number().int() }),
    method: ForecastMethod,
    startingCash: z.number().nullable().describe('cash flow: the cash the path starts from (enabled cash accounts)'),
    history: z.array(HistoryMonth),
    forecast: z.array(ForecastMonth),
    recurring: z.array(
      z.object({
        key: z.string(),
        frequency: z.string(),
        amount: z.number().describe('amount of each projected occurrence (negative = money out)'),
        lastDate: Day,
        projected: z.number().int().describe('occurrences inside the horizon'),
      }),
    ),
    invoices: z.object({
      open: z.number().int().describe('open invoices (unpaid, overdue) considered'),
      expectedInHorizon: z.number().describe('their amount expected inside the horizon'),
      beyondHorizon: z.number().describe('their amount expected after it'),
      missingRates: z.number().int().describe('open invoices left out for want of an exchange rate'),
    }),
    warnings: z.array(z.string()),
  })
  .meta({ id: 'ForecastResult' });
export type ForecastResult = z.infer<typeof ForecastResult>;

// ---------------------------------------------------------------------------------------------------------------
// Stress tests.

const Offset = z.number().int('must be a whole number').min(0).max(59);
const Count = z.number().int('must be a whole number').min(1).max(60);
const Pct = z.number().finite();

/** A driver may name its kind in `kind` (ours) or `type`; both are accepted, and must agree when both are sent. */
function kindAlias(v: unknown): unknown {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  const o = v as Record<string, unknown>;
  if (o.type === undefined) return v;
  if (o.kind !== undefined && o.kind !== o.type) return v;
  const { type, ...rest } = o;
  return { ...rest, kind: type };
}

export const RevenueShock = z
  .strictObject({
    kind: z.literal('RevenueShock'),
    pct: Pct.min(-100).max(1000).describe('percentage change of revenue, negative for a drop (−100 to 1000)'),
    months: Count.describe('how many months it lasts (at least 1)'),
    startOffset: Offset.optional().describe('months after the first forecast month it starts (default 0)'),
  })
  .meta({ id: 'RevenueShock' });
export const CollectionDelay = z
  .strictObject({
    kind: z.literal('CollectionDelay'),
    days: z.number().int('must be a whole number').min(0).max(180).describe('0 to 180: customers pay this much later'),
  })
  .meta({ id: 'CollectionDelay' });
export const ExpenseSurge = z
  .strictObject({
    kind: z.literal('ExpenseSurge'),
    pct: Pct.min(0).max(1000).describe('percentage rise of money out (0 to 1000)'),
    months: Count.optional().describe('how long (default: to the end of the horizon)'),
    startMonthOffset: Offset.optional().describe('default 0'),
  })
  .meta({ id: 'ExpenseSurge' });
export const OneTimeExpense = z
  .strictObject({
    kind: z.literal('OneTimeExpense'),
    amount: Money.min(0).max(1e12).describe('major units of the test currency, at least 0'),
    date: Day.describe('must fall inside the horizon'),
  })
  .meta({ id: 'OneTimeExpense' });
export const HiringPlan = z
  .strictObject({
    kind: z.literal('HiringPlan'),
    headcountDelta: z
      .number()
      .int('must be a whole number')
      .min(-10_000)
      .max(10_000)
      .describe('people added (negative: leaving)'),
    monthlyCostPerHead: Money.min(0).max(1e9).describe('fully loaded monthly cost of one person, at least 0'),
    startMonthOffset: Offset.optional().describe('default 0'),
    rampMonths: Count.optional().describe('months to reach the full headcount, linearly (default 1)'),
  })
  .meta({ id: 'HiringPlan' });
export const FxPair = z.strictObject({
  base: Currency.describe('the foreign currency whose value moves'),
  quote: Currency.optional().describe('must be the test currency (the default)'),
  pct: Pct.min(-99.99).max(1000).describe('change of the value of base in quote, in percent (−99.99 to 1000)'),
});
export const FxShock = z
  .strictObject({
    kind: z.literal('FxShock'),
    pairs: z.array(FxPair).min(1).max(20),
    mode: z
      .enum(['flows', 'flows_and_balances'])
      .optional()
      .describe('flows (default): future money in and out; flows_and_balances: also the cash held in base'),
  })
  .meta({ id: 'FxShock' });

export const Driver = z.preprocess(
  kindAlias,
  z.discriminatedUnion('kind', [RevenueShock, CollectionDelay, ExpenseSurge, OneTimeExpense, HiringPlan, FxShock]),
);
export type DriverInput = z.infer<typeof Driver>;

export const StressTestBody = windowed(
  z.strictObject({
    from: Day.describe('first day of the window the baseline is learnt from'),
    to: Day.describe('last day of that window'),
    horizonMonths: z.number().int('must be a whole number').min(1).max(24).describe('1 to 24'),
    name: z.string().trim().min(1).max(200).optional(),
    currency: Currency.optional().describe("default the team's base currency"),
    startingCash: Money.min(-1e12).max(1e12).optional().describe('default: the balances of the enabled cash accounts'),
    drivers: z.array(Driver).max(50).optional().describe('applied in a fixed order: revenue, currency, costs'),
  }),
);
export type StressTestBody = z.infer<typeof StressTestBody>;

export const StressTestRename = z.strictObject({
  name: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
    z.string().trim().max(200, 'must be at most 200 characters').nullable(),
  ),
});

export const PathMonth = z
  .object({ month: Month, inflow: z.number(), outflow: z.number(), net: z.number(), cash: z.number() })
  .meta({ id: 'StressPathMonth' });

export const StressPath = z
  .object({
    months: z.array(PathMonth),
    startingCash: z.number(),
    endingCash: z.number(),
    lowestCash: z.object({ amount: z.number(), month: Month }),
    runwayMonths: z.number().nullable().describe('months until cash reaches zero; null when it lasts the horizon'),
    runsOutIn: Month.nullable().describe('the first month that closes below zero; null when none'),
    deferredBeyondHorizon: z.number().describe('collections a delay pushed past the horizon'),
  })
  .meta({ id: 'StressPath' });

export const StressTest = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    createdAt: z.string(),
    from: Day,
    to: Day,
    horizonMonths: z.number().int(),
    currency: z.string(),
    startingCash: z.number().nullable().describe('as sent; null when it came from the balances'),
    drivers: z.array(z.record(z.string(), z.unknown())).describe('the drivers as sent (with `kind`)'),
    baseline: StressPath,
    stressed: StressPath,
    impacts: z.array(
      z.object({
        index: z.number().int().describe('position of the driver in `drivers`'),
        kind: z.string(),
        inflow: z.number().describe('change of total money in over the horizon, this driver alone'),
        outflow: z.number().describe('change of total money out'),
        endingCash: z.number().describe('change of the closing cash of the last month'),
        lowestCash: z.number().describe('change of the lowest closing cash'),
        cash: z.array(z.object({ month: Month, change: z.number() })).describe('change of each month’s closing cash'),
      }),
    ),
    method: z.object({ baseline: z.string(), order: z.array(z.string()), description: z.string() }),
    warnings: z.array(z.string()),
  })
  .meta({ id: 'StressTest' });
export type StressTest = z.infer<typeof StressTest>;

export const StressTestSummary = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    createdAt: z.string(),
    from: Day,
    to: Day,
    horizonMonths: z.number().int(),
    currency: z.string(),
    drivers: z.number().int().describe('how many drivers'),
    endingCash: z.object({ baseline: z.number(), stressed: z.number() }),
    lowestCash: z.object({ baseline: z.number(), stressed: z.number() }),
    runsOutIn: z.object({ baseline: Month.nullable(), stressed: Month.nullable() }),
  })
  .meta({ id: 'StressTestSummary' });

export const StressTestListQuery = z.object({
  pageSize: PageSize,
  cursor: z.string().max(200).optional().describe('opaque cursor from the previous page'),
});

export const StressCompareQuery = z.object({
  ids: z
    .preprocess(
      (v) => (v === undefined ? undefined : (Array.isArray(v) ? v : [v]).flatMap((s) => String(s).split(','))),
      z.array(z.string().min(1).max(200)).min(2).max(10),
    )
    .describe('2 to 10 stress-test ids, comma-separated or repeated'),
});

export const metricRoutes = {
  forecastCashFlow: defineRoute({
    method: 'POST',
    path: '/metrics/forecast/cash-flow',
    tag: 'metrics',
    summary: 'Compute and store a cash-flow forecast',
    description:
      'Trains on the complete months of from–to and forecasts horizonMonths months of money in, money out, net flow and ' +
      'closing cash, each month with 80 % and 95 % prediction intervals. Recurring series are projected by their cadence ' +
      'and open invoices are expected by due date and the customer’s payment history. The result names the method and ' +
      'its backtest error. Send an Idempotency-Key to retry safely.',
    scopes: ['metrics.write'],
    idempotent: true,
    body: ForecastBody,
    responses: { 201: ForecastResult },
  }),
  readCashFlow: defineRoute({
    method: 'GET',
    path: '/metrics/forecast/cash-flow',
    tag: 'metrics',
    summary: 'Read the latest stored cash-flow forecast with the same inputs (404 when none)',
    scopes: ['metrics.read'],
    query: ForecastQuery,
    responses: { 200: ForecastResult },
  }),
  forecastRevenue: defineRoute({
    method: 'POST',
    path: '/metrics/forecast/revenue',
    tag: 'metrics',
    summary: 'Compute and store a revenue forecast',
    description:
      'Net revenue (revenue categories less refunds and chargebacks, tax removed) per month, with 80 % and 95 % ' +
      'prediction intervals, recurring revenue projected and open invoices as expected collections.',
    scopes: ['metrics.write'],
    idempotent: true,
    body: ForecastBody,
    responses: { 201: ForecastResult },
  }),
  readRevenue: defineRoute({
    method: 'GET',
    path: '/metrics/forecast/revenue',
    tag: 'metrics',
    summary: 'Read the latest stored revenue forecast with the same inputs (404 when none)',
    scopes: ['metrics.read'],
    query: ForecastQuery,
    responses: { 200: ForecastResult },
  }),
  stressTest: defineRoute({
    method: 'POST',
    path: '/metrics/stress-test',
    tag: 'metrics',
    summary: 'Run and save a stress test',
    description:
      'A baseline cash path (the cash-flow forecast of the window) bent by drivers, each an object whose `kind` (or ' +
      '`type`) is RevenueShock, CollectionDelay, ExpenseSurge, OneTimeExpense, HiringPlan or FxShock.',
    scopes: ['metrics.write'],
    idempotent: true,
    body: StressTestBody,
    responses: { 201: StressTest },
  }),
  getStressTest: defineRoute({
    method: 'GET',
    path: '/metrics/stress-test/:id',
    tag: 'metrics',
    summary: 'Retrieve a saved stress test',
    scopes: ['metrics.read'],
    params: idParams(),
    responses: { 200: StressTest },
  }),
  renameStressTest: defineRoute({
    method: 'PATCH',
    path: '/metrics/stress-test/:id',
    tag: 'metrics',
    summary: 'Extension: rename a saved stress test (its figures stay as computed)',
    description: 'Extension of the v1 contract (not in the spec), for the renderer.',
    scopes: ['metrics.write'],
    idempotent: true,
    params: idParams(),
    body: StressTestRename,
    responses: { 200: StressTest },
  }),
  deleteStressTest: defineRoute({
    method: 'DELETE',
    path: '/metrics/stress-test/:id',
    tag: 'metrics',
    summary: 'Extension: delete a saved stress test',
    description: 'Extension of the v1 contract (not in the spec), for the renderer.',
    scopes: ['metrics.write'],
    params: idParams(),
    responses: { 200: StressTest },
  }),
  listStressTests: defineRoute({
    method: 'GET',
    path: '/metrics/stress-tests',
    tag: 'metrics',
    summary: 'Extension: saved stress tests, newest first (for the renderer)',
    description: 'Extension of the v1 contract (not in the spec): a page of saved stress tests in summary form.',
    scopes: ['metrics.read'],
    query: StressTestListQuery,
    responses: {
      200: z.object({
        data: z.array(StressTestSummary),
        meta: z.object({ cursor: z.string().nullable(), hasPreviousPage: z.boolean(), hasNextPage: z.boolean() }),
      }),
    },
  }),
  compareStressTests: defineRoute({
    method: 'GET',
    path: '/metrics/stress-tests/compare',
    tag: 'metrics',
    summary: 'Extension: compare saved stress tests month by month (for the renderer)',
    description:
      'Extension of the v1 contract (not in the spec): the stressed closing cash of each test per month, side by side. ' +
      'Tests in different currencies are listed but flagged (their figures are not comparable).',
    scopes: ['metrics.read'],
    query: StressCompareQuery,
    responses: {
      200: z.object({
        tests: z.array(StressTestSummary),
        months: z.array(
          z.object({
            month: Month,
            cash: z.array(z.number().nullable()),
            baseline: z.array(z.number().nullable()).describe("each test's baseline (unstressed) closing cash"),
          }),
        ),
        sameCurrency: z.boolean(),
      }),
    },
  }),
} as const;
