import { DAYS_PER_MONTH } from './runway';
import { monthOf } from './series';

/**
 * Stress tests, pure: a baseline monthly cash path and the drivers that bend it. Amounts are minor units of the test's
 * currency; every stressed figure is a whole number of minor units. Decision: docs/decisions/0093-stress-tests.md.
 *
 * Baseline (built by the caller from the cash-flow forecast's points): per month m = 0..H−1 the money in, split into
 * revenue (collections from customers) and other money in, the money out, and for each foreign currency the share
 * of the month's money in and out that was in that currency. cash_m = startingCash + Σ_{k≤m} (in_k − out_k).
 *
 * Drivers (the `kind` field names each; `type` is accepted as its alias), applied in this fixed order whatever their
 * order in the request — revenue first, then currency, then costs — so a test means the same however it is written
 * and independent drivers commute:
 * 1. RevenueShock(pct, months, startOffset = 0): revenue_m ×= (1 + pct/100) for m in [startOffset, startOffset+months).
 * 2. CollectionDelay(days): revenue moves later by q = days ÷ (365.2425/12) months: with k = ⌊q⌋, r = q − k, a month's
 *    revenue R goes round(R·(1−r)) to month m+k and the rest to m+k+1. What lands past the horizon is reported as
 *    `deferredBeyondHorizon` (it is not lost: a long enough horizon gets it all).
 * 3. FxShock(pairs, mode = 'flows'): for a pair base→quote (quote = the test currency) moved by pct, the part of each
 *    month's money in and out that was in `base` is worth (1 + pct/100) times as much; mode 'flows_and_balances' also
 *    revalues the starting cash held in `base` at month 0.
 * 4. ExpenseSurge(pct ≥ 0, months = to the horizon's end, startMonthOffset = 0): out_m ×= (1 + pct/100) in its months.
 * 5. HiringPlan(headcountDelta, monthlyCostPerHead, startMonthOffset = 0, rampMonths = 1): out_m += headcountDelta ·
 *    monthlyCostPerHead · min(1, (m − start + 1)/rampMonths) for m ≥ start (a linear ramp; negative deltas are leavers).
 * 6. OneTimeExpense(amount, date): out of date's month += amount.
 * Each multiplication is rounded half away from zero to a whole minor unit per month.
 *
 * Results: per month in, out, net and cash for the baseline and for the stressed path; lowest cash and its month;
 * `runsOutIn` = the first month whose closing cash is below zero (null when none within the horizon); `runwayMonths` =
 * months until cash reaches zero, interpolated linearly inside that month (null when it does not within the horizon;
 * 0 when the starting cash is already below zero). Each driver's own impact is the stressed path with that driver
 * alone minus the baseline (drivers that interact — a shock and a delay of the same revenue — are also reported
 * together in the stressed path, whose total impact need not be the sum of the parts).
 */

export const DRIVER_KINDS = [
  'RevenueShock',
  'CollectionDelay',
  'FxShock',
  'ExpenseSurge',
  'HiringPlan',
  'OneTimeExpense',
] as const;
export type DriverKind = (typeof DRIVER_KINDS)[number];

export type Driver =
  | { kind: 'RevenueShock'; pct: number; months: number; startOffset?: number }
  | { kind: 'CollectionDelay'; days: number }
  | { kind: 'FxShock'; pairs: { base: string; quote: string; pct: number }[]; mode?: 'flows' | 'flows_and_balances' }
  | { kind: 'ExpenseSurge'; pct: number; months?: number; startMonthOffset?: number }
  | {
      kind: 'HiringPlan';
      headcountDelta: number;
      monthlyCostPerHeadMinor: number;
      startMonthOffset?: number;
      rampMonths?: number;
    }
  | { kind: 'OneTimeExpense'; amountMinor: number; date: string };

export interface Baseline {
  months: string[];
  revenue: number[];
  otherIn: number[];
  out: number[];
  /** Per foreign currency: its share (0..1) of each month's money in and out. */
  exposure: Map<string, { inShare: number; outShare: number }>;
  startingCashMinor: number;
  /** The part of the starting cash held in each foreign currency (converted to the test currency). */
  cashByCurrency: Map<string, number>;
}

export interface MonthRow {
  month: string;
  inflow: number;
  outflow: number;
  net: number;
  cash: number;
}

export interface Path {
  months: MonthRow[];
  startingCash: number;
  endingCash: number;
  lowestCash: { amount: number; month: string };
  runsOutIn: string | null;
  runwayMonths: number | null;
  deferredBeyondHorizon: number;
}

const round = (x: number) => Math.sign(x) * Math.round(Math.abs(x));

interface State {
  revenue: number[];
  otherIn: number[];
  out: number[];
  startingCash: number;
  deferred: number;
}

function applyDriver(s: State, d: Driver, b: Baseline): void {
  const h = s.out.length;
  switch (d.kind) {
    case 'RevenueShock': {
      const start = d.startOffset ?? 0;
      for (let m = start; m < Math.min(h, start + d.months); m++) s.revenue[m] = round(s.revenue[m]! * (1 + d.pct / 100));
      return;
    }
    case 'CollectionDelay': {
      if (d.days === 0) return;
      const q = d.days / DAYS_PER_MONTH;
      const k = Math.floor(q);
      const r = q - k;
      const moved = new Array(h).fill(0);
      for (let m = 0; m < h; m++) {
        const total = s.revenue[m]!;
        const first = round(total * (1 - r));
        const second = total - first;
        if (m + k < h) moved[m + k] += first;
        else s.deferred += first;
        if (m + k + 1 < h) moved[m + k + 1] += second;
        else s.deferred += second;
      }
      s.revenue = moved;
      return;
    }
    case 'FxShock': {
      for (const p of d.pairs) {
        const e = b.exposure.get(p.base);
        const f = p.pct / 100;
        if (e) {
          for (let m = 0; m < h; m++) {
            s.revenue[m] = s.revenue[m]! + round(s.revenue[m]! * e.inShare * f);
            s.otherIn[m] = s.otherIn[m]! + round(s.otherIn[m]! * e.inShare * f);
            s.out[m] = s.out[m]! + round(s.out[m]! * e.outShare * f);
          }
        }
        if ((d.mode ?? 'flows') === 'flows_and_balances') s.startingCash += round((b.cashByCurrency.get(p.base) ?? 0) * f);
      }
      return;
    }
    case 'ExpenseSurge': {
      const start = d.startMonthOffset ?? 0;
      const end = d.months === undefined ? h : Math.min(h, start + d.months);
      for (let m = start; m < end; m++) s.out[m] = round(s.out[m]! * (1 + d.pct / 100));
      return;
    }
    case 'HiringPlan': {
      const start = d.startMonthOffset ?? 0;
      const ramp = d.rampMonths ?? 1;
      for (let m = start; m < h; m++) {
        s.out[m] = s.out[m]! + round(d.headcountDelta * d.monthlyCostPerHeadMinor * Math.min(1, (m - start + 1) / ramp));
      }
      return;
    }
    case 'OneTimeExpense': {
      const i = b.months.indexOf(monthOf(d.date));
      if (i >= 0) s.out[i] = s.out[i]! + d.amountMinor;
      return;
    }
  }
}

export function pathOf(
  months: readonly string[],
  inflow: readonly number[],
  outflow: readonly number[],
  startingCash: number,
  deferred = 0,
): Path {
  let cash = startingCash;
  const rows: MonthRow[] = [];
  // The lowest closing cash of a month (the earliest month on a tie).
  let lowest = { amount: startingCash, month: months[0] ?? '' };
  let runsOutIn: string | null = null;
  let runwayMonths: number | null = startingCash < 0 ? 0 : null;
  for (let m = 0; m < months.length; m++) {
    const net = inflow[m]! - outflow[m]!;
    const before = cash;
    cash += net;
    rows.push({ month: months[m]!, inflow: inflow[m]!, outflow: outflow[m]!, net, cash });
    if (m === 0 || cash < lowest.amount) lowest = { amount: cash, month: months[m]! };
    if (runsOutIn === null && cash < 0) {
      runsOutIn = months[m]!;
      if (runwayMonths === null) runwayMonths = Math.round((m + (net < 0 ? before / -net : 0)) * 100) / 100;
    }
  }
  return {
    months: rows,
    startingCash,
    endingCash: cash,
    lowestCash: lowest,
    runsOutIn,
    runwayMonths,
    deferredBeyondHorizon: deferred,
  };
}

function initial(b: Baseline): State {
  return { revenue: [...b.revenue], otherIn: [...b.otherIn], out: [...b.out], startingCash: b.startingCashMinor, deferred: 0 };
}

function finish(b: Baseline, s: State): Path {
  const inflow = s.revenue.map((r, i) => r + s.otherIn[i]!);
  return pathOf(b.months, inflow, s.out, s.startingCash, s.deferred);
}

/** Drivers in the order they apply (see the header); the sort is stable, so same-kind drivers keep their order. */
export function ordered(drivers: readonly Driver[]): Driver[] {
  return [...drivers].sort((a, b) => DRIVER_KINDS.indexOf(a.kind) - DRIVER_KINDS.indexOf(b.kind));
}

export function stressed(b: Baseline, drivers: readonly Driver[]): Path {
  const s = initial(b);
  for (const d of ordered(drivers)) applyDriver(s, d, b);
  return finish(b, s);
}

export interface DriverImpact {
  index: number;
  kind: DriverKind;
  path: Path;
  inflowDelta: number;
  outflowDelta: number;
  endingCashDelta: number;
  lowestCashDelta: number;
}

export interface StressResult {
  baseline: Path;
  stressed: Path;
  impacts: DriverImpact[];
}

export function runStressTest(b: Baseline, drivers: readonly Driver[]): StressResult {
  const baseline = finish(b, initial(b));
  const sum = (p: Path, k: 'inflow' | 'outflow') => p.months.reduce((a, r) => a + r[k], 0);
  const impacts = drivers.map((d, index): DriverImpact => {
    const path = stressed(b, [d]);
    return {
      index,
      kind: d.kind,
      path,
      inflowDelta: sum(path, 'inflow') - sum(baseline, 'inflow'),
      outflowDelta: sum(path, 'outflow') - sum(baseline, 'outflow'),
      endingCashDelta: path.endingCash - baseline.endingCash,
      lowestCashDelta: path.lowestCash.amount - baseline.lowestCash.amount,
    };
  });
  return { baseline, stressed: stressed(b, drivers), impacts };
}
