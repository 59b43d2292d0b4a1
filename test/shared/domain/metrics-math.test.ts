/**
 * The pure metrics math: monthly series with exact per-day conversion, window lengths, runway (finite, infinite,
 * broke), recurring projection and expected collections, net-of-tax revenue, the Theta and seasonality building blocks.
 */
import { describe, expect, it } from 'vitest';
import { expectedCollections, projectRecurring } from '../../../src-shared/domain/forecast-parts';
import { decompose, isSeasonal, maseScale, seasonalNaive, theta } from '../../../src-shared/domain/forecast-stats';
import { changes, netOfTax, spending } from '../../../src-shared/domain/reports';
import { runway } from '../../../src-shared/domain/runway';
import { addMonthsToDay, combine, monthlySeries, windowMonths } from '../../../src-shared/domain/series';

const rates: Record<string, Record<string, string>> = { EUR: { '2026-01-01': '0.9', '2026-02-01': '0.8' } };
const rateOf = (c: string, day: string) => {
  if (c === 'USD') return '1';
  const r = rates[c];
  if (!r) return null;
  const days = Object.keys(r)
    .filter((d) => d <= day)
    .sort();
  return days.length ? r[days[days.length - 1]!]! : null;
};

describe('monthly series', () => {
  it('converts each day bucket at its own day’s rate and leaves out buckets without a rate', () => {
    const s = monthlySeries(
      [
        { day: '2026-01-15', currency: 'USD', key: 'all', inflowMinor: 1000, outflowMinor: 0 },
        { day: '2026-02-15', currency: 'USD', key: 'all', inflowMinor: 1000, outflowMinor: 333 },
        { day: '2026-02-16', currency: 'EUR', key: 'all', inflowMinor: 5, outflowMinor: 0 },
        { day: '2026-02-17', currency: 'GBP', key: 'all', inflowMinor: 99, outflowMinor: 0 },
        { day: '2026-04-01', currency: 'EUR', key: 'all', inflowMinor: 7, outflowMinor: 0 },
      ],
      { from: '2026-01-01', to: '2026-03-31' },
      'EUR',
      rateOf,
    );
    expect(s.months).toEqual(['2026-01', '2026-02', '2026-03']);
    const all = combine(s);
    // 10.00 USD at 0.9 = 9.00 EUR; at 0.8 = 8.00 EUR (+0.05 EUR); 3.33 USD × 0.8 = 2.664 → 2.66 EUR.
    expect(all.inflow).toEqual([900, 805, 0]);
    expect(all.outflow).toEqual([0, 266, 0]);
    expect(s.missing).toEqual({ count: 1, examples: [{ currency: 'GBP', day: '2026-02-17' }] });
  });

  it('counts partial months by their share of days', () => {
    expect(windowMonths({ from: '2026-01-01', to: '2026-03-15' })).toBeCloseTo(2 + 15 / 31, 10);
    expect(windowMonths({ from: '2026-01-01', to: '2026-12-31' })).toBeCloseTo(12, 10);
    expect(addMonthsToDay('2026-01-31', 1)).toBe('2026-02-28');
  });
});

describe('runway', () => {
  const totals = (inflow: number[], outflow: number[]) => ({ inflow, outflow });
  it('cash over average net burn, with the day it runs out', () => {
    const r = runway({ cashMinor: 120_000, totals: totals([0, 0], [10_000, 10_000]), windowMonths: 2, asOf: '2026-01-01' });
    expect(r).toMatchObject({ months: 12, infinite: false, averageBurnMinor: 10_000 });
    // 12 × 30.436875 = 365.24 days → 365 whole days after the as-of day.
    expect(r.runsOutOn).toBe('2027-01-01');
  });
  it('zero or negative burn is an explicit infinite runway, with cash and burn still given', () => {
    for (const t of [totals([5, 5], [5, 5]), totals([10, 0], [1, 1])]) {
      const r = runway({ cashMinor: 500, totals: t, windowMonths: 2, asOf: '2026-01-01' });
      expect(r).toMatchObject({ infinite: true, months: null, runsOutOn: null, cashMinor: 500 });
    }
  });
  it('no cash: zero months', () => {
    expect(runway({ cashMinor: -1, totals: totals([0], [10]), windowMonths: 1, asOf: '2026-01-01' }).months).toBe(0);
  });
});

describe('explicit forecast parts', () => {
  it('projects an active monthly series by its period total and drops a stopped one', () => {
    const occ = [
      // Payroll: two lines a month, one series.
      ...['2026-01', '2026-02', '2026-03'].flatMap((m) => [
        { key: 'salary', frequency: 'monthly', day: `${m}-28`, amountMinor: -300 },
        { key: 'salary', frequency: 'monthly', day: `${m}-28`, amountMinor: -200 },
      ]),
      { key: 'old', frequency: 'monthly', day: '2025-10-01', amountMinor: -99 },
      { key: 'odd', frequency: 'irregular', day: '2026-03-01', amountMinor: -5 },
    ];
    const r = projectRecurring(occ, ['2026-01', '2026-02', '2026-03'], ['2026-04', '2026-05'], '2026-03-31');
    expect([...r.active]).toEqual(['salary']);
    expect(r.historyOut).toEqual([500, 500, 500]);
    expect(r.futureOut).toEqual([500, 500]);
    expect(r.series[0]).toMatchObject({ key: 'salary', amountMinor: -500, projected: 2 });
  });

  it('expects open invoices by due date and the customer’s median delay, late ones at the start', () => {
    const paid = [
      { customerId: 'a', dueDay: '2026-01-10', paidDay: '2026-01-20' },
      { customerId: 'a', dueDay: '2026-02-10', paidDay: '2026-02-25' },
      { customerId: 'a', dueDay: '2026-03-10', paidDay: '2026-03-22' },
      { customerId: 'b', dueDay: '2026-03-10', paidDay: '2026-03-10' },
    ];
    const open = [
      { id: '1', customerId: 'a', dueDay: '2026-04-25', amountMinor: 100 },
      { id: '2', customerId: 'c', dueDay: '2026-04-01', amountMinor: 10 },
      { id: '3', customerId: 'b', dueDay: '2026-01-01', amountMinor: 1 },
      { id: '4', customerId: 'b', dueDay: '2027-01-01', amountMinor: 1000 },
    ];
    const c = expectedCollections(open, paid, ['2026-04', '2026-05'], '2026-04-01');
    // a: median delay 12 days → 2026-05-07; c: team median (11) → 2026-04-12; b late → 2026-04-01; 2027 beyond.
    expect(c.perMonth).toEqual([11, 100]);
    expect(c.invoices.map((i) => i.expectedDay)).toEqual(['2026-05-07', '2026-04-12', '2026-04-01', '2027-01-01']);
    expect(c.invoices[3]!.month).toBeNull();
  });
});

describe('reports math', () => {
  const cats = new Map([
    ['service-revenue', { slug: 'service-revenue', name: 'Service', color: '#0f0', taxRate: 19, group: 'revenue' }],
    ['rent', { slug: 'rent', name: 'Rent', color: '#f00', taxRate: 19, group: 'operations' }],
  ]);
  it('net of tax on revenue buckets only, at the category rate', () => {
    const out = netOfTax(
      [
        { day: '2026-01-01', currency: 'EUR', key: 'service-revenue', inflowMinor: 11_900, outflowMinor: 119 },
        { day: '2026-01-01', currency: 'EUR', key: 'rent', inflowMinor: 0, outflowMinor: 11_900 },
      ],
      cats,
    );
    expect(out.map((b) => [b.inflowMinor, b.outflowMinor])).toEqual([
      [10_000, 100],
      [0, 11_900],
    ]);
  });
  it('year-over-year change and spending shares', () => {
    expect(changes(['2026-01', '2026-02'], [150, 50], [100, 0])).toEqual([
      { month: '2026-01', current: 150, previous: 100, percentage: 50, status: 'positive' },
      { month: '2026-02', current: 50, previous: 0, percentage: 0, status: 'positive' },
    ]);
    const series = {
      currency: 'EUR',
      months: ['2026-01'],
      missing: { count: 0, examples: [] },
      byKey: new Map([
        ['rent', { inflow: [0], outflow: [300] }],
        ['uncategorized', { inflow: [0], outflow: [100] }],
        ['service-revenue', { inflow: [1000], outflow: [0] }],
      ]),
    };
    expect(spending(series, cats)).toEqual([
      { slug: 'rent', name: 'Rent', color: '#f00', amount: -300, percentage: 75 },
      { slug: 'uncategorized', name: 'Uncategorized', color: '#6b7280', amount: -100, percentage: 25 },
    ]);
  });
});

describe('statistics building blocks', () => {
  const seasonal = Array.from(
    { length: 48 },
    (_, i) => 100 * [1, 1, 1.2, 1.1, 0.9, 0.8, 0.7, 0.7, 1, 1.2, 1.3, 1.1][i % 12]! + i,
  );
  it('finds a yearly cycle and its multiplicative index', () => {
    expect(isSeasonal(seasonal)).toBe(true);
    expect(isSeasonal(Array.from({ length: 48 }, (_, i) => i))).toBe(false);
    const d = decompose(seasonal);
    expect(d.kind).toBe('multiplicative');
    expect(d.index[10]!).toBeGreaterThan(1.2);
    expect(d.index.reduce((a, b) => a + b, 0)).toBeCloseTo(12, 10);
  });
  it('seasonal naive, its MASE scale, and Theta on a clean seasonal series', () => {
    expect(seasonalNaive([1, 2, 3], 4, 2)).toEqual([2, 3, 2, 3]);
    expect(maseScale([1, 2, 4, 8], 2)).toBe(4.5);
    const f = theta(seasonal.slice(0, 36), 12, { seasonal: true });
    const actual = seasonal.slice(36);
    const err = f.point.reduce((a, p, i) => a + Math.abs(p - actual[i]!), 0) / 12;
    expect(err).toBeLessThan(10);
    for (let i = 0; i < 12; i++) {
      expect(f.lower95[i]!).toBeLessThanOrEqual(f.lower80[i]!);
      expect(f.upper80[i]!).toBeLessThanOrEqual(f.upper95[i]!);
    }
  });
});
