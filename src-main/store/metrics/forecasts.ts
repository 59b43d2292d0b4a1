import type { ForecastResult } from '../../../src-shared/contract/metrics';
import { type ForecastPoint, firstForecastDay, forecast } from '../../../src-shared/domain/forecast';
import { type ExpectedCollections, expectedCollections, type Occurrence } from '../../../src-shared/domain/forecast-parts';
import type { ModelFit } from '../../../src-shared/domain/forecast-stats';
import { isRevenue, netOfTax } from '../../../src-shared/domain/reports';
import {
  addMonths,
  convertOn,
  type DayBucket,
  firstDayOf,
  lastDayOf,
  monthlySeries,
  monthOf,
} from '../../../src-shared/domain/series';
import { toMajor } from '../../../src-shared/money';
import type { Db } from '../db';
import { InvalidReference, NotFound } from '../errors';
import { rateLookup } from '../rate-of-day';
import { write } from '../write';
import {
  baseCurrency,
  cashAccounts,
  categoryMeta,
  dayBuckets,
  invoiceFacts,
  type LedgerSource,
  recurringOccurrences,
} from './ledger-source';

/**
 * Cash-flow and revenue forecasts: gathers the facts (metrics.ts), runs the domain's forecast
 * (src-shared/domain/forecast.ts) and keeps every result with its inputs in `forecasts` (migration 010). A stored
 * result is never recomputed in place: `GET` reads the latest one computed with the same inputs.
 */

export type ForecastKind = 'cash_flow' | 'revenue';

export interface ForecastInputs {
  from: string;
  to: string;
  horizonMonths: number;
  currency?: string | undefined;
}

export interface ForecastOptions {
  /** The library model of the combination; null runs Theta alone (tests of the composition, never the API). */
  model: ModelFit | null;
  /** Today (YYYY-MM-DD, UTC) for the as-of facts; default the clock. */
  today?: string;
  /** Where ledger figures come from (metrics.ts LedgerSource); default the roll-up. */
  source?: LedgerSource;
  /** Run the backtest (default true; a stress test's baseline skips it). */
  backtest?: boolean;
}

/** The calendar months wholly inside [from, to]. */
export function completeMonths(from: string, to: string): { first: string; last: string } | null {
  const first = from === firstDayOf(monthOf(from)) ? monthOf(from) : addMonths(monthOf(from), 1);
  const last = to === lastDayOf(monthOf(to)) ? monthOf(to) : addMonths(monthOf(to), -1);
  return first <= last ? { first, last } : null;
}

/** Each account's balance at the end of `day` (its last transaction's running balance), converted at that day's rate. */
export function cashAt(
  db: Db,
  teamId: string,
  day: string,
  currency: string,
): { cashMinor: number; missing: number; byCurrency: Map<string, number> } {
  const accounts = cashAccounts(db, teamId);
  const rate = rateLookup(db, [...accounts.map((a) => a.currency), currency], day);
  const balanceAt = db.prepare(
    `SELECT balance_minor FROM transactions INDEXED BY transactions_account_walk
     WHERE team_id = ? AND bank_account_id = ? AND date <= ? ORDER BY date DESC, id DESC LIMIT 1`,
  );
  let cashMinor = 0;
  let missing = 0;
  const byCurrency = new Map<string, number>();
  for (const a of accounts) {
    const balance = (balanceAt.pluck().get(teamId, a.id, day) as number | null | undefined) ?? 0;
    const converted = convertOn(balance, a.currency, currency, day, rate);
    if (converted === null) missing++;
    else {
      cashMinor += converted;
      byCurrency.set(a.currency, (byCurrency.get(a.currency) ?? 0) + converted);
    }
  }
  return { cashMinor, missing, byCurrency };
}

const roundMinor = (x: number) => Math.sign(x) * Math.round(Math.abs(x));

/** Computes a forecast without storing it: the body of the API result without id and createdAt. */
export function buildForecast(
  db: Db,
  teamId: string,
  kind: ForecastKind,
  inputs: ForecastInputs,
  options: ForecastOptions,
): Omit<ForecastResult, 'id' | 'createdAt'> {
  const currency = inputs.currency ?? baseCurrency(db, teamId);
  const today = options.today ?? new Date().toISOString().slice(0, 10);
  const span = completeMonths(inputs.from, inputs.to);
  if (!span) throw new InvalidReference('to', 'The window from–to holds no complete calendar month to learn from');
  const window = { from: firstDayOf(span.first), to: lastDayOf(span.last) };
  const warnings: string[] = [];
  if (window.from !== inputs.from || window.to !== inputs.to) {
    warnings.push(
      `Trained on the complete months ${span.first} to ${span.last}; partial months at the window's edges are left out.`,
    );
  }

  const categories = kind === 'revenue' ? categoryMeta(db, teamId) : null;
  let buckets: DayBucket[] = dayBuckets(db, teamId, window, kind === 'revenue' ? 'category' : 'total', options.source);
  if (categories) buckets = netOfTax(buckets, categories);
  const occurrencesRaw = recurringOccurrences(db, teamId, window).filter(
    (o) => !categories || isRevenue(categories.get(o.categorySlug)),
  );
  const facts = invoiceFacts(db, teamId);
  const rate = rateLookup(
    db,
    [
      currency,
      ...new Set(buckets.map((b) => b.currency)),
      ...occurrencesRaw.map((o) => o.currency),
      ...facts.open.map((i) => i.currency),
    ],
    today > window.to ? today : window.to,
  );

  const series = monthlySeries(buckets, window, currency, rate);
  const n = series.months.length;
  const inflow = new Array(n).fill(0);
  const outflow = new Array(n).fill(0);
  for (const [key, s] of series.byKey) {
    if (categories && !isRevenue(categories.get(key))) continue;
    for (let i = 0; i < n; i++) {
      if (categories) inflow[i] += s.inflow[i]! - s.outflow[i]!;
      else {
        inflow[i] += s.inflow[i]!;
        outflow[i] += s.outflow[i]!;
      }
    }
  }
  let missingRates = series.missing.count;
  const occurrences: Occurrence[] = [];
  for (const o of occurrencesRaw) {
    // Revenue is forecast net of tax: recurring revenue too.
    let amount = o.amountMinor;
    if (categories)
      amount = netOfTax(
        [{ day: o.day, currency: o.currency, key: o.categorySlug, inflowMinor: amount, outflowMinor: 0 }],
        categories,
      )[0]!.inflowMinor;
    const converted = convertOn(amount, o.currency, currency, o.day, rate);
    if (converted === null) missingRates++;
    else occurrences.push({ key: o.key, frequency: o.frequency, day: o.day, amountMinor: converted });
  }
  if (missingRates > 0) {
    const ex = series.missing.examples.map((e) => `${e.currency} on ${e.day}`).join(', ');
    warnings.push(
      `${missingRates} day buckets or recurring occurrences have no exchange rate to ${currency} and are left out${ex ? ` (e.g. ${ex})` : ''}.`,
    );
  }

  // Open invoices are today's facts: they belong in a forecast that starts this month or later.
  const startDay = firstForecastDay(span.last);
  let collections: ExpectedCollections | null = null;
  let invoiceMissing = 0;
  let beyond = 0;
  const forecastMonthList = Array.from({ length: inputs.horizonMonths }, (_, i) => addMonths(span.last, i + 1));
  if (monthOf(startDay) >= monthOf(today)) {
    const open = [];
    for (const inv of facts.open) {
      const converted = convertOn(kind === 'revenue' ? inv.netMinor : inv.amountMinor, inv.currency, currency, today, rate);
      if (converted === null) invoiceMissing++;
      else open.push({ id: inv.id, customerId: inv.customerId, dueDay: inv.dueDay, amountMinor: converted });
    }
    collections = expectedCollections(open, facts.paid, forecastMonthList, startDay);
    beyond = collections.invoices.filter((i) => i.month === null).reduce((a, i) => a + i.amountMinor, 0);
  } else if (facts.open.length > 0) {
    warnings.push('Open invoices are left out: they are facts of today, and this forecast starts before the current month.');
  }

  const startingCash = kind === 'cash_flow' ? cashAt(db, teamId, window.to, currency) : null;
  if (startingCash && startingCash.missing > 0)
    warnings.push(`${startingCash.missing} cash accounts have no exchange rate and are left out of the starting cash.`);

  const result = forecast({
    kind,
    months: series.months,
    inflow,
    outflow,
    horizon: inputs.horizonMonths,
    recurring: occurrences,
    collections,
    startingCashMinor: startingCash?.cashMinor ?? null,
    model: options.model,
    backtest: options.backtest,
  });
  if (n < 24) warnings.push(`${n} complete months of history: no yearly seasonality (needs 24) and no backtest (needs 24).`);

  const major = (x: number) => toMajor(roundMinor(x), currency);
  const bt = result.backtest;
  const round4 = (x: number) => (Number.isFinite(x) ? Math.round(x * 10_000) / 10_000 : 0);
  const method = `combination(${result.members.join(', ')}) + recurring + invoices`;
  const point = (p: ForecastPoint) => ({
    value: major(p.point),
    lower80: major(p.lower80),
    upper80: major(p.upper80),
    lower95: major(p.lower95),
    upper95: major(p.upper95),
  });
  return {
    kind,
    from: inputs.from,
    to: inputs.to,
    horizonMonths: inputs.horizonMonths,
    currency,
    trainingMonths: { from: span.first, to: span.last, count: n },
    method: {
      name: method,
      description:
        (kind === 'cash_flow'
          ? 'Money in and money out are forecast separately and netted (interval half-widths combined in quadrature). '
          : 'Net revenue (revenue categories less refunds and chargebacks, tax removed at each category’s rate). ') +
        'Each flow = recurring series projected by cadence + max(statistical forecast of the rest, open invoices expected that month). ' +
        'The statistical forecast averages MSTL with AutoETS (@bsull/augurs) and the Theta method, points and interval bounds alike; ' +
        'a yearly cycle is used only with 24 or more training months. Intervals: 80 % and 95 %.',
      members: result.members,
      seasonal: result.seasonal,
      backtest: bt
        ? {
            from: bt.months[0]!,
            to: bt.months[bt.months.length - 1]!,
            mase: round4(bt.mase),
            seasonalNaiveMase: round4(bt.seasonalNaiveMase),
            relativeMase: round4(bt.relative),
            coverage80: round4(bt.coverage80),
            coverage95: round4(bt.coverage95),
          }
        : null,
      backtestNote: bt
        ? 'The same method trained on all but the last 12 training months, scored on those 12 against seasonal naive (open invoices are not replayed).'
        : options.backtest === false
          ? 'No backtest was asked for.'
          : 'No backtest: it needs at least 24 complete training months (12 to learn a season, 12 to score).',
    },
    startingCash: startingCash ? major(startingCash.cashMinor) : null,
    history: series.months.map((month, i) => ({
      month,
      value: major(kind === 'cash_flow' ? inflow[i]! - outflow[i]! : inflow[i]!),
      inflow: kind === 'cash_flow' ? major(inflow[i]!) : null,
      outflow: kind === 'cash_flow' ? major(outflow[i]!) : null,
    })),
    forecast: result.points.map((p, i) => ({
      month: p.month,
      ...point(p),
      inflow: result.outflow ? major(result.inflow!.points[i]!.point) : null,
      outflow: result.outflow ? major(result.outflow.points[i]!.point) : null,
      cash: result.cash ? major(result.cash[i]!) : null,
      parts: {
        model: major(result.inflow!.parts[i]!.model),
        recurring: major(
          kind === 'cash_flow'
            ? result.recurring.futureIn[i]! - result.recurring.futureOut[i]!
            : result.inflow!.parts[i]!.recurring,
        ),
        invoices: major(result.inflow!.parts[i]!.invoices),
      },
    })),
    recurring: result.recurring.series.map((s) => ({
      key: s.key,
      frequency: s.frequency,
      amount: major(s.amountMinor),
      lastDate: s.lastDay,
      projected: s.projected,
    })),
    invoices: {
      open: collections?.invoices.length ?? 0,
      expectedInHorizon: major(collections ? collections.perMonth.reduce((a, b) => a + b, 0) : 0),
      beyondHorizon: major(beyond),
      missingRates: invoiceMissing,
    },
    warnings,
  };
}

interface Row {
  id: string;
  result: string;
  created_at: string;
}

function fromRow(row: Row): ForecastResult {
  return { id: row.id, createdAt: row.created_at, ...(JSON.parse(row.result) as Omit<ForecastResult, 'id' | 'createdAt'>) };
}

/** Computes a forecast and stores it: a new record every time (results keep their inputs; nothing is overwritten). */
export function computeForecast(
  db: Db,
  teamId: string,
  kind: ForecastKind,
  inputs: ForecastInputs,
  options: ForecastOptions,
): ForecastResult {
  const body = buildForecast(db, teamId, kind, inputs, options);
  return write(db, teamId, (w) => {
    const id = w.insert('forecast', {
      kind,
      from_day: body.from,
      to_day: body.to,
      horizon_months: body.horizonMonths,
      currency: body.currency,
      result: JSON.stringify(body),
    });
    return { id, createdAt: w.now, ...body };
  });
}

/** The latest stored forecast with exactly these inputs (currency defaulting to the team's base), if any. */
export function latestForecast(db: Db, teamId: string, kind: ForecastKind, inputs: ForecastInputs): ForecastResult | undefined {
  const currency = inputs.currency ?? baseCurrency(db, teamId);
  const row = db
    .prepare(
      `SELECT id, result, created_at FROM forecasts
       WHERE team_id = ? AND kind = ? AND from_day = ? AND to_day = ? AND horizon_months = ? AND currency = ?
       ORDER BY created_at DESC, id DESC LIMIT 1`,
    )
    .get(teamId, kind, inputs.from, inputs.to, inputs.horizonMonths, currency) as Row | undefined;
  return row ? fromRow(row) : undefined;
}

/** One stored forecast by id (the change feed's reader). */
export function getForecast(db: Db, teamId: string, id: string): ForecastResult {
  const row = db.prepare('SELECT id, result, created_at FROM forecasts WHERE team_id = ? AND id = ?').get(teamId, id) as
    | Row
    | undefined;
  if (!row) throw new NotFound('forecast', id);
  return fromRow(row);
}
