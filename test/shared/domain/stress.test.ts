/**
 * Stress-test drivers: the properties the Metrics issue names, over random baselines and drivers (fast-check), plus
 * worked examples of each driver.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addMonths } from '../../../src-shared/domain/series';
import { type Baseline, type Driver, pathOf, runStressTest, stressed } from '../../../src-shared/domain/stress';

const START = '2027-01';

function baselineOf(rows: { revenue: number; other: number; out: number }[], startingCash: number, usd = 0.2): Baseline {
  return {
    months: rows.map((_, i) => addMonths(START, i)),
    revenue: rows.map((r) => r.revenue),
    otherIn: rows.map((r) => r.other),
    out: rows.map((r) => r.out),
    exposure: new Map([['USD', { inShare: usd, outShare: usd / 2 }]]),
    startingCashMinor: startingCash,
    cashByCurrency: new Map([['USD', Math.round(startingCash * 0.1)]]),
  };
}

const amount = fc.integer({ min: 0, max: 5_000_000 });
const baselineArb = fc
  .record({
    rows: fc.array(fc.record({ revenue: amount, other: amount, out: amount }), { minLength: 1, maxLength: 24 }),
    cash: fc.integer({ min: -1_000_000, max: 50_000_000 }),
  })
  .map(({ rows, cash }) => baselineOf(rows, cash));

const offset = fc.integer({ min: 0, max: 30 });
const count = fc.integer({ min: 1, max: 30 });
const revenueShock = fc.record({
  kind: fc.constant('RevenueShock' as const),
  pct: fc.double({ min: -100, max: 200, noNaN: true }),
  months: count,
  startOffset: offset,
});
const delay = fc.record({ kind: fc.constant('CollectionDelay' as const), days: fc.integer({ min: 0, max: 180 }) });
const surge = fc.record({
  kind: fc.constant('ExpenseSurge' as const),
  pct: fc.double({ min: 0, max: 300, noNaN: true }),
  months: fc.option(count, { nil: undefined }),
  startMonthOffset: offset,
});
const hiring = fc.record({
  kind: fc.constant('HiringPlan' as const),
  headcountDelta: fc.integer({ min: -5, max: 20 }),
  monthlyCostPerHeadMinor: fc.integer({ min: 0, max: 1_500_000 }),
  startMonthOffset: offset,
  rampMonths: count,
});
const oneTime = (b: Baseline) =>
  fc.record({
    kind: fc.constant('OneTimeExpense' as const),
    amountMinor: fc.integer({ min: 0, max: 10_000_000 }),
    date: fc.constantFrom(...b.months.map((m) => `${m}-15`)),
  });
const fx = fc.record({
  kind: fc.constant('FxShock' as const),
  pairs: fc.array(
    fc.record({ base: fc.constant('USD'), quote: fc.constant('EUR'), pct: fc.double({ min: -99, max: 100, noNaN: true }) }),
    {
      minLength: 1,
      maxLength: 2,
    },
  ),
  mode: fc.constantFrom('flows' as const, 'flows_and_balances' as const),
});

const total = (xs: readonly { inflow: number }[]) => xs.reduce((a, r) => a + r.inflow, 0);
const totalOut = (xs: readonly { outflow: number }[]) => xs.reduce((a, r) => a + r.outflow, 0);

describe('stress-test properties', () => {
  it('a RevenueShock with a negative pct never raises ending cash', () => {
    fc.assert(
      fc.property(baselineArb, revenueShock, (b, d) => {
        const shock = { ...d, pct: -Math.abs(d.pct) };
        expect(stressed(b, [shock]).endingCash).toBeLessThanOrEqual(stressed(b, []).endingCash);
      }),
    );
  });

  it('an ExpenseSurge never lowers outflow, in any month', () => {
    fc.assert(
      fc.property(baselineArb, surge, (b, d) => {
        const base = stressed(b, []).months;
        const s = stressed(b, [d]).months;
        for (const [i, r] of s.entries()) expect(r.outflow).toBeGreaterThanOrEqual(base[i]!.outflow);
      }),
    );
  });

  it('a CollectionDelay moves cash later but never changes its total over a long enough horizon', () => {
    fc.assert(
      fc.property(baselineArb, delay, (b, d) => {
        // Extend the horizon by 7 empty months (180 days < 6 months): everything delayed lands inside it.
        const long: Baseline = {
          ...b,
          months: [...b.months, ...Array.from({ length: 7 }, (_, i) => addMonths(b.months[b.months.length - 1]!, i + 1))],
          revenue: [...b.revenue, ...new Array(7).fill(0)],
          otherIn: [...b.otherIn, ...new Array(7).fill(0)],
          out: [...b.out, ...new Array(7).fill(0)],
        };
        const base = stressed(long, []);
        const late = stressed(long, [d]);
        expect(total(late.months)).toBe(total(base.months));
        expect(late.deferredBeyondHorizon).toBe(0);
        expect(late.endingCash).toBe(base.endingCash);
        // Later, never earlier: the stressed cumulative money in never runs ahead of the baseline's.
        let a = 0;
        let c = 0;
        late.months.forEach((r, i) => {
          a += r.inflow;
          c += base.months[i]!.inflow;
          expect(a).toBeLessThanOrEqual(c);
        });
        // Within the original horizon, what is missing is exactly what was deferred past it.
        const short = stressed(b, [d]);
        expect(total(short.months) + short.deferredBeyondHorizon).toBe(total(stressed(b, []).months));
      }),
    );
  });

  it('drivers with zero effect reproduce the baseline exactly', () => {
    fc.assert(
      fc.property(baselineArb, offset, count, (b, start, months) => {
        const zero: Driver[] = [
          { kind: 'RevenueShock', pct: 0, months, startOffset: start },
          { kind: 'CollectionDelay', days: 0 },
          { kind: 'ExpenseSurge', pct: 0, months, startMonthOffset: start },
          { kind: 'OneTimeExpense', amountMinor: 0, date: `${b.months[0]}-01` },
          {
            kind: 'HiringPlan',
            headcountDelta: 0,
            monthlyCostPerHeadMinor: 900_000,
            startMonthOffset: start,
            rampMonths: months,
          },
          { kind: 'HiringPlan', headcountDelta: 3, monthlyCostPerHeadMinor: 0 },
          { kind: 'FxShock', pairs: [{ base: 'USD', quote: 'EUR', pct: 0 }], mode: 'flows_and_balances' },
        ];
        const result = runStressTest(b, zero);
        expect(result.stressed).toEqual(result.baseline);
        for (const i of result.impacts) expect(i.endingCashDelta).toBe(0);
      }),
    );
  });

  it('independent drivers commute', () => {
    const setup = baselineArb.chain((b) =>
      fc
        .tuple(revenueShock, surge, hiring, oneTime(b), fx, delay)
        .chain((ds) =>
          fc.tuple(fc.constant(b), fc.constant(ds as Driver[]), fc.shuffledSubarray(ds as Driver[], { minLength: ds.length })),
        ),
    );
    fc.assert(
      fc.property(setup, ([b, drivers, shuffled]) => {
        expect(stressed(b, shuffled)).toEqual(stressed(b, drivers));
      }),
    );
  });

  it('each driver’s impact is that driver alone against the baseline', () => {
    fc.assert(
      fc.property(baselineArb, surge, hiring, (b, s, h) => {
        const result = runStressTest(b, [s, h]);
        expect(result.impacts[0]!.endingCashDelta).toBe(stressed(b, [s]).endingCash - result.baseline.endingCash);
        expect(result.impacts[1]!.outflowDelta).toBe(totalOut(stressed(b, [h]).months) - totalOut(result.baseline.months));
      }),
    );
  });
});

describe('stress-test drivers, worked examples', () => {
  const b = baselineOf(
    Array.from({ length: 6 }, () => ({ revenue: 100_000, other: 10_000, out: 100_000 })),
    50_000,
    0.5,
  );

  it('RevenueShock scales revenue in its months only', () => {
    const p = stressed(b, [{ kind: 'RevenueShock', pct: -50, months: 2, startOffset: 1 }]);
    expect(p.months.map((m) => m.inflow)).toEqual([110_000, 60_000, 60_000, 110_000, 110_000, 110_000]);
  });

  it('CollectionDelay of 45 days moves revenue 1.48 months later, split between two months', () => {
    const p = stressed(b, [{ kind: 'CollectionDelay', days: 45 }]);
    // q = 45 / 30.436875 = 1.4785: k = 1, r = 0.4785; month 0 gets nothing, month 1 gets 52,153, month 2 onwards 100,000;
    // the last two months send 47,847 + 52,153 + 47,847 past the horizon.
    expect(p.months.map((m) => m.inflow)).toEqual([10_000, 62_153, 110_000, 110_000, 110_000, 110_000]);
    expect(p.deferredBeyondHorizon).toBe(147_847);
  });

  it('ExpenseSurge, HiringPlan with a ramp, OneTimeExpense', () => {
    const p = stressed(b, [
      { kind: 'ExpenseSurge', pct: 10, months: 2 },
      { kind: 'HiringPlan', headcountDelta: 2, monthlyCostPerHeadMinor: 6_000, startMonthOffset: 1, rampMonths: 2 },
      { kind: 'OneTimeExpense', amountMinor: 1_000, date: '2027-06-30' },
    ]);
    expect(p.months.map((m) => m.outflow)).toEqual([110_000, 116_000, 112_000, 112_000, 112_000, 113_000]);
  });

  it('FxShock on flows and balances', () => {
    const p = stressed(b, [{ kind: 'FxShock', pairs: [{ base: 'USD', quote: 'EUR', pct: -10 }], mode: 'flows_and_balances' }]);
    // in: 100,000 − 5,000 + 10,000 − 500; out: 100,000 − 2,500; cash: 50,000 − 500 (10 % of it in USD, −10 %).
    expect(p.months[0]).toEqual({ month: '2027-01', inflow: 104_500, outflow: 97_500, net: 7_000, cash: 56_500 });
    expect(p.startingCash).toBe(49_500);
  });

  it('lowest cash, the month cash runs out and the runway inside it', () => {
    const p = pathOf(['2027-01', '2027-02', '2027-03'], [0, 0, 0], [40, 40, 40], 100);
    expect(p.lowestCash).toEqual({ amount: -20, month: '2027-03' });
    expect(p.runsOutIn).toBe('2027-03');
    expect(p.runwayMonths).toBe(2.5);
    const fine = pathOf(['2027-01', '2027-02'], [50, 0], [0, 40], 100);
    expect(fine.runsOutIn).toBeNull();
    expect(fine.runwayMonths).toBeNull();
    expect(fine.lowestCash).toEqual({ amount: 110, month: '2027-02' });
  });
});
