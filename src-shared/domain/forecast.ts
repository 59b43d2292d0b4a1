import { type ExpectedCollections, type Occurrence, projectRecurring, type RecurringSplit } from './forecast-parts';
import {
  coverage,
  type Forecast,
  type ModelFit,
  maseScale,
  meanAbsoluteError,
  SEASON,
  seasonalNaive,
  statisticalForecast,
  Z80,
  Z95,
} from './forecast-stats';
import { addMonths, firstDayOf, lastDayOf } from './series';

/**
 * Cash-flow and revenue forecasts, pure. Decision: docs/decisions/0092-forecast-method.md.
 *
 * Training months: the calendar months wholly inside the window [from, to] (a partial first or last month would
 * read as a drop). Forecast months: the `horizon` months after the last training month.
 *
 * A flow (money in, or money out) is forecast as:
 *   flow(m) = recurring(m) + max(model(m), invoices(m))
 * - recurring(m): the active recurring series projected by their cadence (forecast-parts.ts); their history is taken
 *   out of the series the model sees, so nothing is counted twice;
 * - model(m): the statistical forecast of the rest (forecast-stats.ts: MSTL + AutoETS combined with Theta), clamped at
 *   0 (a flow is never negative);
 * - invoices(m): open invoices expected in that month (money in only). The model already expects the usual
 *   collections, so known receivables raise a month only where they exceed what the model expects.
 * Interval bounds move with the point (the same recurring and invoice amounts are added) and are clamped at 0.
 *
 * Cash flow: net(m) = in(m) − out(m); its interval half-widths are √(w_in² + w_out²) at each level (in and out
 * treated as independent). cash(m) = startingCash + Σ_{k≤m} net(k) (point only).
 * Revenue: one flow (net revenue: revenue categories minus contra-revenue, tax removed at each category's rate).
 *
 * Backtest (the method's own error, reported with every result): the same procedure trained on all but the last 12
 * training months (recurring series as known at that point; invoices are not replayed: past open-invoice states are
 * not kept), forecasting those 12 months; MASE of the method and of seasonal naive over them, both scaled by the
 * in-sample seasonal-naive error of the shortened history; relative = method ÷ seasonal naive; the share of months
 * inside the 80 % and 95 % intervals. Needs at least 24 training months (12 to train a seasonal naive, 12 to test).
 */

export const BACKTEST_MONTHS = 12;

export interface FlowHistory {
  /** Per training month, positive amounts. */
  values: number[];
}

export interface ForecastPoint {
  month: string;
  point: number;
  lower80: number;
  upper80: number;
  lower95: number;
  upper95: number;
}

export interface FlowForecast {
  points: ForecastPoint[];
  /** The parts of each point: model, recurring, invoices (what invoices added above the model). */
  parts: { model: number; recurring: number; invoices: number }[];
  members: string[];
  seasonal: boolean;
}

export interface Backtest {
  months: string[];
  mase: number;
  seasonalNaiveMase: number;
  relative: number;
  coverage80: number;
  coverage95: number;
}

function clamp0(x: number): number {
  return x < 0 ? 0 : x;
}

/** One flow: recurring projected, the rest modelled, invoices as a floor. `direction` picks the recurring side. */
export function forecastFlow(
  values: readonly number[],
  recurringHistory: readonly number[],
  recurringFuture: readonly number[],
  invoices: readonly number[] | null,
  months: readonly string[],
  model: ModelFit | null,
): FlowForecast {
  const h = months.length;
  const rest = values.map((v, i) => v - (recurringHistory[i] ?? 0));
  const stat = statisticalForecast(rest, h, model);
  const f = stat.forecast;
  const points: ForecastPoint[] = [];
  const parts: FlowForecast['parts'] = [];
  for (let i = 0; i < h; i++) {
    const modelPoint = clamp0(f.point[i]!);
    const inv = invoices?.[i] ?? 0;
    const lift = inv > modelPoint ? inv - modelPoint : 0;
    const add = (recurringFuture[i] ?? 0) + lift;
    points.push({
      month: months[i]!,
      point: modelPoint + add,
      lower80: clamp0(f.lower80[i]!) + add,
      upper80: clamp0(f.upper80[i]!) + add,
      lower95: clamp0(f.lower95[i]!) + add,
      upper95: clamp0(f.upper95[i]!) + add,
    });
    parts.push({ model: modelPoint, recurring: recurringFuture[i] ?? 0, invoices: lift });
  }
  return { points, parts, members: stat.members, seasonal: stat.seasonal };
}

/** net = in − out with half-widths combined in quadrature (see the header). */
export function netOf(inflow: readonly ForecastPoint[], outflow: readonly ForecastPoint[]): ForecastPoint[] {
  return inflow.map((a, i) => {
    const b = outflow[i]!;
    const point = a.point - b.point;
    const w = (lo: number, hi: number, lo2: number, hi2: number) => Math.hypot((hi - lo) / 2, (hi2 - lo2) / 2);
    const w80 = w(a.lower80, a.upper80, b.lower80, b.upper80);
    const w95 = w(a.lower95, a.upper95, b.lower95, b.upper95);
    // Centre of each interval (asymmetric after clamping): centre_in − centre_out.
    const c80 = (a.lower80 + a.upper80) / 2 - (b.lower80 + b.upper80) / 2;
    const c95 = (a.lower95 + a.upper95) / 2 - (b.lower95 + b.upper95) / 2;
    return { month: a.month, point, lower80: c80 - w80, upper80: c80 + w80, lower95: c95 - w95, upper95: c95 + w95 };
  });
}

export interface ForecastInputs {
  kind: 'cash_flow' | 'revenue';
  /** Training months and their flows (revenue: `inflow` only; outflow all zero). */
  months: string[];
  inflow: number[];
  outflow: number[];
  horizon: number;
  recurring: readonly Occurrence[];
  /** Expected collections per forecast month (computed by the caller with forecast-parts expectedCollections). */
  collections: ExpectedCollections | null;
  startingCashMinor: number | null;
  model: ModelFit | null;
  /** Skip the backtest (a stress test's baseline needs the path, not the method's error). Default true. */
  backtest?: boolean;
}

export interface ForecastResult {
  months: string[];
  inflow: FlowForecast | null;
  outflow: FlowForecast | null;
  /** The forecast series itself: net cash flow, or revenue. */
  points: ForecastPoint[];
  cash: number[] | null;
  recurring: RecurringSplit;
  members: string[];
  seasonal: boolean;
  backtest: Backtest | null;
}

export function forecastMonths(lastTrainingMonth: string, horizon: number): string[] {
  return Array.from({ length: horizon }, (_, i) => addMonths(lastTrainingMonth, i + 1));
}

function run(
  inputs: Pick<ForecastInputs, 'kind' | 'months' | 'inflow' | 'outflow' | 'recurring' | 'model'>,
  fMonths: string[],
  collections: ExpectedCollections | null,
): Omit<ForecastResult, 'backtest' | 'cash'> {
  const asOf = lastDayOf(inputs.months[inputs.months.length - 1]!);
  const recurring = projectRecurring(inputs.recurring, inputs.months, fMonths, asOf);
  const inflow = forecastFlow(
    inputs.inflow,
    recurring.historyIn.map((v, i) => (inputs.kind === 'revenue' ? v - recurring.historyOut[i]! : v)),
    recurring.futureIn.map((v, i) => (inputs.kind === 'revenue' ? v - recurring.futureOut[i]! : v)),
    collections?.perMonth ?? null,
    fMonths,
    inputs.model,
  );
  if (inputs.kind === 'revenue') {
    return {
      months: fMonths,
      inflow,
      outflow: null,
      points: inflow.points,
      recurring,
      members: inflow.members,
      seasonal: inflow.seasonal,
    };
  }
  const outflow = forecastFlow(inputs.outflow, recurring.historyOut, recurring.futureOut, null, fMonths, inputs.model);
  return {
    months: fMonths,
    inflow,
    outflow,
    points: netOf(inflow.points, outflow.points),
    recurring,
    members: [...new Set([...inflow.members, ...outflow.members])],
    seasonal: inflow.seasonal || outflow.seasonal,
  };
}

export function backtest(
  inputs: Pick<ForecastInputs, 'kind' | 'months' | 'inflow' | 'outflow' | 'recurring' | 'model'>,
): Backtest | null {
  const n = inputs.months.length;
  if (n < 2 * BACKTEST_MONTHS) return null;
  const cut = n - BACKTEST_MONTHS;
  const trainMonths = inputs.months.slice(0, cut);
  const testMonths = inputs.months.slice(cut);
  const asOf = lastDayOf(trainMonths[cut - 1]!);
  const result = run(
    {
      ...inputs,
      months: trainMonths,
      inflow: inputs.inflow.slice(0, cut),
      outflow: inputs.outflow.slice(0, cut),
      recurring: inputs.recurring.filter((o) => o.day <= asOf),
    },
    testMonths,
    null,
  );
  const target = (i: number) => (inputs.kind === 'revenue' ? inputs.inflow[i]! : inputs.inflow[i]! - inputs.outflow[i]!);
  const train = Array.from({ length: cut }, (_, i) => target(i));
  const actual = Array.from({ length: BACKTEST_MONTHS }, (_, i) => target(cut + i));
  const scale = maseScale(train, SEASON);
  const method = meanAbsoluteError(
    actual,
    result.points.map((p) => p.point),
  );
  const naive = meanAbsoluteError(actual, seasonalNaive(train, BACKTEST_MONTHS, SEASON));
  const safe = scale > 0 ? scale : 1;
  return {
    months: testMonths,
    mase: method / safe,
    seasonalNaiveMase: naive / safe,
    relative: naive > 0 ? method / naive : method === 0 ? 1 : Number.POSITIVE_INFINITY,
    coverage80: coverage(
      actual,
      result.points.map((p) => p.lower80),
      result.points.map((p) => p.upper80),
    ),
    coverage95: coverage(
      actual,
      result.points.map((p) => p.lower95),
      result.points.map((p) => p.upper95),
    ),
  };
}

export function forecast(inputs: ForecastInputs): ForecastResult {
  if (inputs.months.length === 0) throw new RangeError('no complete month in the window');
  const fMonths = forecastMonths(inputs.months[inputs.months.length - 1]!, inputs.horizon);
  const result = run(inputs, fMonths, inputs.collections);
  let cash: number[] | null = null;
  if (inputs.kind === 'cash_flow' && inputs.startingCashMinor !== null) {
    let c = inputs.startingCashMinor;
    cash = result.points.map((p) => {
      c += p.point;
      return c;
    });
  }
  return { ...result, cash, backtest: inputs.backtest === false ? null : backtest(inputs) };
}

/** The first day of the forecast (for expected collections). */
export function firstForecastDay(lastTrainingMonth: string): string {
  return firstDayOf(addMonths(lastTrainingMonth, 1));
}

export type { Forecast };
export { Z80, Z95 };
