import type { Runway } from '../../../src-shared/contract/reports';
import { changes, isRevenue, netOfTax, revenueAndExpenses, spending } from '../../../src-shared/domain/reports';
import { runway } from '../../../src-shared/domain/runway';
import {
  addMonths,
  combine,
  convertOn,
  firstDayOf,
  lastDayOf,
  monthlySeries,
  monthOf,
  type Window,
  windowMonths,
} from '../../../src-shared/domain/series';
import { toMajor } from '../../../src-shared/money';
import type { Db } from '../db';
import { rateLookup } from '../rate-of-day';
import {
  baseCurrency,
  cashAccounts,
  categoryMeta,
  dayBuckets,
  type LedgerSource,
  recurringOccurrences,
} from '../metrics/ledger-source';

/**
 * Runway and the hosted report family over the daily roll-up (metrics.ts). Formulas: src-shared/domain/runway.ts and
 * reports.ts. Amounts leave here in major units of the report currency.
 */

export interface ReportQuery {
  from: string;
  to: string;
  currency?: string | undefined;
}

const today = () => new Date().toISOString().slice(0, 10);

export function runwayReport(db: Db, teamId: string, q: ReportQuery, asOf = today(), source: LedgerSource = 'rollup'): Runway {
  const currency = q.currency ?? baseCurrency(db, teamId);
  const buckets = dayBuckets(db, teamId, q, 'total', source);
  const accounts = cashAccounts(db, teamId);
  const rate = rateLookup(
    db,
    [currency, ...new Set(buckets.map((b) => b.currency)), ...accounts.map((a) => a.currency)],
    asOf > q.to ? asOf : q.to,
  );
  const series = monthlySeries(buckets, q, currency, rate);
  let cashMinor = 0;
  let missing = series.missing.count;
  const accountRows = accounts.map((a) => {
    const converted = convertOn(a.balanceMinor, a.currency, currency, asOf, rate);
    if (converted === null) missing++;
    else cashMinor += converted;
    return {
      id: a.id,
      name: a.name,
      type: a.type as 'depository' | 'other_asset',
      currency: a.currency,
      balance: toMajor(a.balanceMinor, a.currency),
      converted: converted === null ? null : toMajor(converted, currency),
    };
  });
  const totals = combine(series);
  const months = windowMonths(q);
  const r = runway({ cashMinor, totals, windowMonths: months, asOf });

  // Hosted figure: median gross burn of the last three complete months of the window.
  const complete = series.months.filter((m) => firstDayOf(m) >= q.from && lastDayOf(m) <= q.to).slice(-3);
  const burns = complete.map((m) => totals.outflow[series.months.indexOf(m)]!).sort((a, b) => a - b);
  const medianBurn =
    burns.length === 0 ? 0 : burns.length % 2 ? burns[burns.length >> 1]! : Math.round((burns[0]! + burns[1]!) / 2);

  return {
    from: q.from,
    to: q.to,
    currency,
    asOf,
    months: r.months,
    infinite: r.infinite,
    runsOutOn: r.runsOutOn,
    cash: toMajor(r.cashMinor, currency),
    averageMonthlyBurn: toMajor(r.averageBurnMinor, currency),
    averageMonthlyInflow: toMajor(r.averageInflowMinor, currency),
    averageMonthlyOutflow: toMajor(r.averageOutflowMinor, currency),
    windowMonths: Math.round(months * 10_000) / 10_000,
    medianBurn: toMajor(medianBurn, currency),
    method: {
      name: 'cash-over-average-net-burn',
      description:
        'months = cash ÷ average net burn, where cash is the sum of the enabled depository and other_asset balances converted ' +
        'at the as-of rate, and average net burn = (money out − money in over the window) ÷ the window’s length in months ' +
        '(partial months by their share of days). Money in and out leave out internal transfers, excluded transactions ' +
        'and excluded categories, and are converted at the rate of each day. Zero or negative burn: infinite runway.',
    },
    accounts: accountRows,
    missingRates: missing,
  };
}

interface Context {
  currency: string;
  months: string[];
  revenue: number[];
  expenses: number[];
  previous: { revenue: number[]; expenses: number[] };
}

/** Revenue and expenses of the window's months and of the same months a year earlier. */
function monthly(db: Db, teamId: string, q: ReportQuery, net: boolean): Context {
  const currency = q.currency ?? baseCurrency(db, teamId);
  const categories = categoryMeta(db, teamId);
  const prevWindow: Window = {
    from: firstDayOf(addMonths(monthOf(q.from), -12)),
    to: lastDayOf(addMonths(monthOf(q.to), -12)),
  };
  const load = (w: Window) => {
    const raw = dayBuckets(db, teamId, w, 'category');
    return net ? netOfTax(raw, categories) : raw;
  };
  const cur = load(q);
  const prev = load(prevWindow);
  const rate = rateLookup(db, [currency, ...new Set([...cur, ...prev].map((b) => b.currency))], q.to);
  const a = revenueAndExpenses(monthlySeries(cur, q, currency, rate), categories);
  const b = revenueAndExpenses(monthlySeries(prev, prevWindow, currency, rate), categories);
  return {
    currency,
    months: a.months,
    revenue: a.revenue,
    expenses: a.expenses,
    previous: { revenue: b.revenue, expenses: b.expenses },
  };
}

function changeReport<T extends 'revenue' | 'profit'>(type: T, c: Context) {
  const current = type === 'revenue' ? c.revenue : c.revenue.map((r, i) => r - c.expenses[i]!);
  const previous = type === 'revenue' ? c.previous.revenue : c.previous.revenue.map((r, i) => r - c.previous.expenses[i]!);
  const rows = changes(c.months, current, previous);
  const major = (x: number) => toMajor(x, c.currency);
  return {
    summary: {
      currentTotal: major(current.reduce((s, v) => s + v, 0)),
      prevTotal: major(previous.reduce((s, v) => s + v, 0)),
      currency: c.currency,
    },
    meta: { type, currency: c.currency },
    result: rows.map((r) => ({
      date: firstDayOf(r.month),
      percentage: { value: r.percentage, status: r.status },
      current: { date: firstDayOf(r.month), value: major(r.current), currency: c.currency },
      previous: { date: firstDayOf(addMonths(r.month, -12)), value: major(r.previous), currency: c.currency },
    })),
  };
}

export function revenueReport(db: Db, teamId: string, q: ReportQuery & { revenueType: 'gross' | 'net' }) {
  return changeReport('revenue', monthly(db, teamId, q, q.revenueType === 'net'));
}

export function profitReport(db: Db, teamId: string, q: ReportQuery & { revenueType: 'gross' | 'net' }) {
  return changeReport('profit', monthly(db, teamId, q, q.revenueType === 'net'));
}

function expensesOf(db: Db, teamId: string, q: ReportQuery) {
  const currency = q.currency ?? baseCurrency(db, teamId);
  const categories = categoryMeta(db, teamId);
  const buckets = dayBuckets(db, teamId, q, 'category');
  const rate = rateLookup(db, [currency, ...new Set(buckets.map((b) => b.currency))], q.to);
  const series = monthlySeries(buckets, q, currency, rate);
  return { currency, categories, series, rate, ...revenueAndExpenses(series, categories) };
}

export function burnRateReport(db: Db, teamId: string, q: ReportQuery) {
  const e = expensesOf(db, teamId, q);
  return e.months.map((m, i) => ({ date: firstDayOf(m), value: toMajor(e.expenses[i]!, e.currency), currency: e.currency }));
}

export function expensesReport(db: Db, teamId: string, q: ReportQuery) {
  const e = expensesOf(db, teamId, q);
  const recurring = new Array(e.months.length).fill(0);
  const index = new Map(e.months.map((m, i) => [m, i]));
  for (const o of recurringOccurrences(db, teamId, q)) {
    if (o.amountMinor >= 0 || isRevenue(e.categories.get(o.categorySlug))) continue;
    const converted = convertOn(-o.amountMinor, o.currency, e.currency, o.day, e.rate);
    const i = index.get(monthOf(o.day));
    if (converted !== null && i !== undefined) recurring[i] += converted;
  }
  const major = (x: number) => toMajor(x, e.currency);
  const total = e.expenses.reduce((a, b) => a + b, 0);
  return {
    summary: { averageExpense: major(e.months.length ? Math.round(total / e.months.length) : 0), currency: e.currency },
    meta: { type: 'expense' as const, currency: e.currency },
    result: e.months.map((m, i) => ({
      date: firstDayOf(m),
      value: major(e.expenses[i]! - recurring[i]!),
      currency: e.currency,
      recurring: major(recurring[i]!),
      total: major(e.expenses[i]!),
    })),
  };
}

export function spendingReport(db: Db, teamId: string, q: ReportQuery) {
  const e = expensesOf(db, teamId, q);
  return spending(e.series, e.categories).map((r) => ({
    name: r.name,
    slug: r.slug,
    amount: toMajor(r.amount, e.currency),
    currency: e.currency,
    color: r.color,
    percentage: r.percentage,
  }));
}
