/**
 * Metrics and reports over HTTP (fastify inject on a real SQLite file): forecasts (compute, store, read back, 404),
 * Idempotency-Key on the POSTs, stress tests (validation with field paths, saved, listed, compared), runway (finite,
 * infinite, FX, excluded categories), the hosted report shapes, and team isolation.
 *
 * @module-tag calendar (runs again on the awkward days: scripts/clock-matrix.sh)
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureDefaultCategories } from '../../../../src-main/store/categories/categories';
import { createTransactions, type NewTransaction } from '../../../../src-main/store/transactions/create';
import { write } from '../../../../src-main/store/write';
import { makeTestApi, type TestApi } from '../../../helpers/api';

let api: TestApi;
let token: string;
let otherToken: string;
let eur: string;

/** 30 months of a small business: revenue with a season, rent and salaries monthly (recurring), some USD spend. */
function seed(teamId: string): { eur: string; usd: string } {
  ensureDefaultCategories(api.db, teamId, { countryCode: 'DE' });
  const [checking, dollar, card] = write(api.db, teamId, (w) => [
    w.insert('bank_account', { name: 'Checking', type: 'depository', currency: 'EUR', manual: 1 }),
    w.insert('bank_account', { name: 'Dollar', type: 'depository', currency: 'USD', manual: 1 }),
    w.insert('bank_account', { name: 'Card', type: 'credit', currency: 'EUR', manual: 1 }),
  ]) as [string, string, string];
  const rate = api.db.prepare(
    "INSERT OR REPLACE INTO fx_rates (currency, day, per_usd, imported_at) VALUES ('EUR', ?, ?, 'test')",
  );
  rate.run('2024-01-01', '0.9');
  rate.run('2025-06-01', '0.8');
  const rows: NewTransaction[] = [
    {
      bankAccountId: checking,
      name: 'Opening balance',
      amountMinor: 5_000_000,
      currency: 'EUR',
      date: '2024-01-01',
      manual: true,
      categorySlug: 'capital-investment',
    },
    {
      bankAccountId: dollar,
      name: 'Opening balance',
      amountMinor: 1_000_000,
      currency: 'USD',
      date: '2024-01-01',
      manual: true,
      categorySlug: 'capital-investment',
    },
  ];
  for (let i = 0; i < 30; i++) {
    const y = 2024 + Math.floor(i / 12);
    const m = String((i % 12) + 1).padStart(2, '0');
    const season = [0.9, 0.95, 1.1, 1.05, 1.05, 0.95, 0.8, 0.65, 1.15, 1.2, 1.15, 0.9][i % 12]!;
    rows.push(
      {
        bankAccountId: checking,
        name: `Client payment ${i}`,
        amountMinor: Math.round(1_190_000 * season * (1 + i / 60)),
        currency: 'EUR',
        date: `${y}-${m}-20`,
        manual: true,
        categorySlug: 'service-revenue',
      },
      {
        bankAccountId: checking,
        name: 'Office rent',
        amountMinor: -300_000,
        currency: 'EUR',
        date: `${y}-${m}-01`,
        manual: true,
        categorySlug: 'rent',
        recurring: true,
        frequency: 'monthly',
      },
      {
        bankAccountId: checking,
        name: `Salary ${m}/${y}`,
        amountMinor: -600_000,
        currency: 'EUR',
        date: `${y}-${m}-28`,
        manual: true,
        categorySlug: 'salary',
        recurring: true,
        frequency: 'monthly',
      },
      {
        bankAccountId: dollar,
        name: 'Cloud hosting',
        amountMinor: -50_000,
        currency: 'USD',
        date: `${y}-${m}-05`,
        manual: true,
        categorySlug: 'software',
      },
      // An internal transfer and an owner draw: never in reports.
      {
        bankAccountId: checking,
        name: 'To card',
        amountMinor: -100_000,
        currency: 'EUR',
        date: `${y}-${m}-10`,
        manual: true,
        internal: true,
      },
      {
        bankAccountId: card,
        name: 'From checking',
        amountMinor: 100_000,
        currency: 'EUR',
        date: `${y}-${m}-10`,
        manual: true,
        internal: true,
      },
      {
        bankAccountId: checking,
        name: 'Owner draw',
        amountMinor: -200_000,
        currency: 'EUR',
        date: `${y}-${m}-15`,
        manual: true,
        categorySlug: 'owner-draws',
      },
    );
  }
  createTransactions(api.db, teamId, rows);
  return { eur: checking, usd: dollar };
}

beforeAll(async () => {
  api = await makeTestApi({ rateLimitPerMinute: 1_000_000 }, 'file');
  token = api.key('Metrics Co');
  otherToken = api.key('Other Co');
  eur = seed(api.team('Metrics Co').id).eur;
  ensureDefaultCategories(api.db, api.team('Other Co').id, { countryCode: 'DE' });
});

const WINDOW = { from: '2024-01-01', to: '2026-06-30' };

describe('forecasts', () => {
  it('POST computes and stores a cash-flow forecast; GET with the same inputs reads it back', async () => {
    const body = { ...WINDOW, horizonMonths: 12 };
    const res = await api.call('POST', '/v1/metrics/forecast/cash-flow', { token, body });
    expect(res.statusCode, res.body).toBe(201);
    const f = res.json();
    expect(f).toMatchObject({
      kind: 'cash_flow',
      ...body,
      currency: 'EUR',
      trainingMonths: { from: '2024-01', to: '2026-06', count: 30 },
    });
    expect(f.forecast).toHaveLength(12);
    expect(f.forecast[0].month).toBe('2026-07');
    for (const p of f.forecast) {
      expect(p.lower95).toBeLessThanOrEqual(p.lower80);
      expect(p.lower80).toBeLessThanOrEqual(p.value);
      expect(p.value).toBeLessThanOrEqual(p.upper80);
      expect(p.upper80).toBeLessThanOrEqual(p.upper95);
      expect(p.value).toBeCloseTo(p.inflow - p.outflow, 1);
    }
    expect(f.method.members).toEqual(['mstl-autoets', 'theta']);
    expect(f.method.seasonal).toBe(true);
    expect(f.method.backtest).toMatchObject({ from: '2025-07', to: '2026-06' });
    expect(f.method.backtest.relativeMase).toBeGreaterThan(0);
    // Rent and salaries are projected explicitly (the salary lines share one series despite their changing names).
    const keys = f.recurring.map((r: { key: string }) => r.key).sort();
    expect(keys).toEqual(['office rent|EUR|monthly', 'salary|EUR|monthly']);
    expect(f.forecast[0].parts.recurring).toBe(-9000);
    // Starting cash: the balances at the window's end (EUR checking + USD account converted at 0.8).
    expect(f.startingCash).toBeGreaterThan(0);
    expect(f.forecast[0].cash).toBeCloseTo(f.startingCash + f.forecast[0].value, 1);

    const read = await api.call('GET', `/v1/metrics/forecast/cash-flow?from=${WINDOW.from}&to=${WINDOW.to}&horizonMonths=12`, {
      token,
    });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(f);
    // Another currency, horizon or team: nothing stored.
    expect(
      (
        await api.call(
          'GET',
          `/v1/metrics/forecast/cash-flow?from=${WINDOW.from}&to=${WINDOW.to}&horizonMonths=12&currency=USD`,
          { token },
        )
      ).statusCode,
    ).toBe(404);
    expect(
      (await api.call('GET', `/v1/metrics/forecast/cash-flow?from=${WINDOW.from}&to=${WINDOW.to}&horizonMonths=11`, { token }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await api.call('GET', `/v1/metrics/forecast/cash-flow?from=${WINDOW.from}&to=${WINDOW.to}&horizonMonths=12`, {
          token: otherToken,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await api.call('GET', `/v1/metrics/forecast/revenue?from=${WINDOW.from}&to=${WINDOW.to}&horizonMonths=12`, { token }))
        .statusCode,
    ).toBe(404);
  });

  it('revenue forecasts net revenue, in another currency on request', async () => {
    const res = await api.call('POST', '/v1/metrics/forecast/revenue', {
      token,
      body: { ...WINDOW, horizonMonths: 60, currency: 'usd' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const f = res.json();
    expect(f.currency).toBe('USD');
    expect(f.forecast).toHaveLength(60);
    expect(f.history[0].inflow).toBeNull();
    // January 2024: 11,900 EUR × 0.9 season, net of 19 % VAT = 9,000 EUR = 10,000 USD at 0.9 EUR per USD.
    expect(f.history[0].value).toBe(10_000);
    expect(f.forecast.every((p: { value: number }) => p.value >= 0)).toBe(true);
  });

  it('the same Idempotency-Key with the same inputs replays the stored result; changed inputs are a 422', async () => {
    const headers = { 'idempotency-key': 'forecast-key-1' };
    const body = { ...WINDOW, horizonMonths: 6 };
    const first = await api.call('POST', '/v1/metrics/forecast/cash-flow', { token, body, headers });
    const again = await api.call('POST', '/v1/metrics/forecast/cash-flow', { token, body, headers });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const count = api.db.prepare('SELECT count(*) FROM forecasts WHERE horizon_months = 6').pluck().get();
    expect(count).toBe(1);
    const changed = await api.call('POST', '/v1/metrics/forecast/cash-flow', {
      token,
      body: { ...body, horizonMonths: 7 },
      headers,
    });
    expect(changed.statusCode).toBe(422);
    expect(changed.json().fields[0].path).toBe('idempotency-key');
  });

  it('validates the inputs with field paths', async () => {
    const bad = async (body: unknown) => (await api.call('POST', '/v1/metrics/forecast/cash-flow', { token, body })).json();
    expect((await bad({ ...WINDOW, horizonMonths: 61 })).fields[0].path).toBe('horizonMonths');
    expect((await bad({ ...WINDOW, horizonMonths: 0 })).fields[0].path).toBe('horizonMonths');
    expect((await bad({ from: '2026-01-01', to: '2025-01-01', horizonMonths: 3 })).fields[0].path).toBe('to');
    expect((await bad({ ...WINDOW, horizonMonths: 3, currency: 'XXY' })).fields[0].path).toBe('currency');
    // A window without a complete month has nothing to learn from.
    const r = await api.call('POST', '/v1/metrics/forecast/cash-flow', {
      token,
      body: { from: '2026-06-02', to: '2026-06-30', horizonMonths: 3 },
    });
    expect(r.statusCode).toBe(422);
    expect(r.json().fields[0].path).toBe('to');
    const q = await api.call('GET', '/v1/metrics/forecast/revenue?from=2024-01-01&to=2026-06-30&horizonMonths=abc', { token });
    expect(q.statusCode).toBe(422);
    expect(q.json().fields[0]).toMatchObject({ location: 'query', path: 'horizonMonths' });
  });
});

const ALL_DRIVERS = [
  { kind: 'RevenueShock', pct: -30, months: 6, startOffset: 1 },
  { type: 'CollectionDelay', days: 60 },
  { kind: 'ExpenseSurge', pct: 15 },
  { kind: 'OneTimeExpense', amount: 25_000, date: '2026-09-15' },
  { kind: 'HiringPlan', headcountDelta: 2, monthlyCostPerHead: 6500, startMonthOffset: 2, rampMonths: 3 },
  { kind: 'FxShock', pairs: [{ base: 'USD', pct: 20 }], mode: 'flows_and_balances' },
];

describe('stress tests', () => {
  it('runs and saves a test with all six drivers; reads, lists and compares', async () => {
    const body = { ...WINDOW, horizonMonths: 12, name: 'Bad year', drivers: ALL_DRIVERS };
    const res = await api.call('POST', '/v1/metrics/stress-test', { token, body });
    expect(res.statusCode, res.body).toBe(201);
    const t = res.json();
    expect(t).toMatchObject({ name: 'Bad year', ...WINDOW, horizonMonths: 12, currency: 'EUR', startingCash: null });
    expect(t.drivers[1].kind).toBe('CollectionDelay');
    expect(t.baseline.months).toHaveLength(12);
    expect(t.stressed.months).toHaveLength(12);
    expect(t.impacts.map((i: { kind: string }) => i.kind)).toEqual(ALL_DRIVERS.map((d) => d.kind ?? d.type));
    const impact = (k: string) => t.impacts.find((i: { kind: string }) => i.kind === k);
    expect(impact('RevenueShock').endingCash).toBeLessThan(0);
    expect(impact('ExpenseSurge').outflow).toBeGreaterThan(0);
    expect(impact('OneTimeExpense').endingCash).toBe(-25_000);
    // 2 people × 6,500 ramped over 3 months from month 2: 1/3, 2/3, then full for the remaining 8 months.
    expect(impact('HiringPlan').outflow).toBe(13_000 * 9);
    // The USD account is overdrawn by the window's end and USD only pays for hosting: a dearer dollar costs cash.
    expect(impact('FxShock').endingCash).toBeLessThan(0);
    expect(impact('CollectionDelay').inflow).toBeLessThan(0);
    expect(t.stressed.endingCash).toBeLessThan(t.baseline.endingCash);
    expect(t.stressed.lowestCash.month).toMatch(/^2026-|^2027-/);

    const got = await api.call('GET', `/v1/metrics/stress-test/${t.id}`, { token });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(t);
    expect((await api.call('GET', `/v1/metrics/stress-test/${t.id}`, { token: otherToken })).statusCode).toBe(404);

    const second = (
      await api.call('POST', '/v1/metrics/stress-test', { token, body: { ...WINDOW, horizonMonths: 6, startingCash: 1000.5 } })
    ).json();
    expect(second.startingCash).toBe(1000.5);
    expect(second.baseline.startingCash).toBe(1000.5);
    expect(second.stressed).toEqual(second.baseline);

    const list = await api.call('GET', '/v1/metrics/stress-tests?pageSize=1', { token });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((s: { id: string }) => s.id)).toEqual([second.id]);
    expect(list.json().meta.hasNextPage).toBe(true);
    const next = await api.call('GET', `/v1/metrics/stress-tests?pageSize=1&cursor=${list.json().meta.cursor}`, { token });
    expect(next.json().data.map((s: { id: string }) => s.id)).toEqual([t.id]);
    expect((await api.call('GET', '/v1/metrics/stress-tests', { token: otherToken })).json().data).toEqual([]);

    const cmp = await api.call('GET', `/v1/metrics/stress-tests/compare?ids=${t.id},${second.id}`, { token });
    expect(cmp.statusCode).toBe(200);
    expect(cmp.json().tests).toHaveLength(2);
    expect(cmp.json().months[0]).toEqual({
      month: '2026-07',
      cash: [t.stressed.months[0].cash, second.stressed.months[0].cash],
      baseline: [t.baseline.months[0].cash, second.baseline.months[0].cash],
    });
    expect(cmp.json().months[11].cash[1]).toBeNull();
    expect(
      (await api.call('GET', `/v1/metrics/stress-tests/compare?ids=${t.id},${second.id}`, { token: otherToken })).statusCode,
    ).toBe(404);

    // Renamed (its figures as they were), then deleted; another team can do neither.
    const renamed = await api.call('PATCH', `/v1/metrics/stress-test/${t.id}`, { token, body: { name: '  Worst year ' } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toEqual({ ...t, name: 'Worst year' });
    expect((await api.call('GET', `/v1/metrics/stress-test/${t.id}`, { token })).json().name).toBe('Worst year');
    expect((await api.call('PATCH', `/v1/metrics/stress-test/${t.id}`, { token, body: { name: '' } })).json().name).toBeNull();
    expect((await api.call('PATCH', `/v1/metrics/stress-test/${t.id}`, { token, body: { nom: 'x' } })).statusCode).toBe(422);
    expect(
      (await api.call('PATCH', `/v1/metrics/stress-test/${t.id}`, { token: otherToken, body: { name: 'x' } })).statusCode,
    ).toBe(404);
    expect((await api.call('DELETE', `/v1/metrics/stress-test/${t.id}`, { token: otherToken })).statusCode).toBe(404);
    expect((await api.call('DELETE', `/v1/metrics/stress-test/${t.id}`, { token })).statusCode).toBe(200);
    expect((await api.call('GET', `/v1/metrics/stress-test/${t.id}`, { token })).statusCode).toBe(404);
    expect((await api.call('GET', '/v1/metrics/stress-tests', { token })).json().data.map((x: { id: string }) => x.id)).toEqual([
      second.id,
    ]);
  });

  it('validates every bound with the field path', async () => {
    const path = async (drivers: unknown[], extra: object = {}) => {
      const r = await api.call('POST', '/v1/metrics/stress-test', {
        token,
        body: { ...WINDOW, horizonMonths: 12, drivers, ...extra },
      });
      expect(r.statusCode, r.body).toBe(422);
      return r.json().fields.map((f: { path: string }) => f.path);
    };
    expect(await path([], { horizonMonths: 25 })).toContain('horizonMonths');
    expect(await path([{ kind: 'CollectionDelay', days: 181 }])).toContain('drivers.0.days');
    expect(await path([{ kind: 'CollectionDelay', days: -1 }])).toContain('drivers.0.days');
    expect(await path([{ kind: 'RevenueShock', pct: -10, months: 0 }])).toContain('drivers.0.months');
    expect(await path([{ kind: 'RevenueShock', pct: -10 }])).toContain('drivers.0.months');
    expect(await path([{ kind: 'RevenueShock', pct: -10, months: 2, startOffset: -1 }])).toContain('drivers.0.startOffset');
    expect(await path([{ kind: 'ExpenseSurge', pct: -5 }])).toContain('drivers.0.pct');
    expect(await path([{ kind: 'ExpenseSurge', pct: 5, months: 0 }])).toContain('drivers.0.months');
    expect(await path([{ kind: 'OneTimeExpense', amount: -1, date: '2026-08-01' }])).toContain('drivers.0.amount');
    expect(await path([{ kind: 'OneTimeExpense', amount: 1, date: '2030-01-01' }])).toContain('drivers.0.date');
    expect(await path([{ kind: 'OneTimeExpense', amount: 1.005, date: '2026-08-01' }])).toContain('drivers.0.amount');
    expect(await path([{ kind: 'HiringPlan', headcountDelta: 1, monthlyCostPerHead: -1 }])).toContain(
      'drivers.0.monthlyCostPerHead',
    );
    expect(await path([{ kind: 'HiringPlan', headcountDelta: 1, monthlyCostPerHead: 1, rampMonths: 0 }])).toContain(
      'drivers.0.rampMonths',
    );
    expect(await path([{ kind: 'HiringPlan', headcountDelta: 1.5, monthlyCostPerHead: 1 }])).toContain(
      'drivers.0.headcountDelta',
    );
    expect(await path([{ kind: 'FxShock', pairs: [] }])).toContain('drivers.0.pairs');
    expect(await path([{ kind: 'FxShock', pairs: [{ base: 'USD', quote: 'GBP', pct: 5 }] }])).toContain(
      'drivers.0.pairs.0.quote',
    );
    expect(await path([{ kind: 'FxShock', pairs: [{ base: 'EUR', pct: 5 }] }])).toContain('drivers.0.pairs.0.base');
    expect(await path([{ kind: 'FxShock', pairs: [{ base: 'USD', pct: -100 }] }])).toContain('drivers.0.pairs.0.pct');
    // An unknown kind, or `kind` and `type` that disagree: the driver is named.
    expect(await path([{ kind: 'Meteor' }])).toEqual(['drivers.0.kind']);
    expect(await path([{ kind: 'CollectionDelay', type: 'RevenueShock', days: 3 }])).toEqual(['drivers.0']);
    expect(await path([{ kind: 'CollectionDelay', days: 3, assumptions: {} }])).toContain('drivers.0');
  });

  it('Idempotency-Key: a retry gets the same saved test, a changed body is a 422', async () => {
    const headers = { 'idempotency-key': 'stress-key-1' };
    const body = { ...WINDOW, horizonMonths: 3, drivers: [{ kind: 'ExpenseSurge', pct: 5 }] };
    const a = await api.call('POST', '/v1/metrics/stress-test', { token, body, headers });
    const b = await api.call('POST', '/v1/metrics/stress-test', { token, body, headers });
    expect(b.json().id).toBe(a.json().id);
    const c = await api.call('POST', '/v1/metrics/stress-test', { token, body: { ...body, name: 'renamed' }, headers });
    expect(c.statusCode).toBe(422);
  });
});

describe('runway and the hosted reports', () => {
  it('runway: cash over average net burn, with the method stated and the window echoed', async () => {
    const res = await api.call('GET', '/v1/reports/runway?from=2026-01-01&to=2026-06-30', { token });
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json();
    expect(r).toMatchObject({ from: '2026-01-01', to: '2026-06-30', currency: 'EUR', windowMonths: 6 });
    expect(r.method.name).toBe('cash-over-average-net-burn');
    // The card (credit) account is not cash; the USD account is converted.
    expect(r.accounts.map((a: { name: string }) => a.name)).toEqual(['Checking', 'Dollar']);
    expect(r.cash).toBeCloseTo(
      r.accounts.reduce((s: number, a: { converted: number }) => s + a.converted, 0),
      2,
    );
    // Revenue in the window exceeds rent, salaries and hosting (owner draws are an excluded category): infinite.
    expect(r.infinite).toBe(true);
    expect(r.months).toBeNull();
    expect(r.runsOutOn).toBeNull();
    expect(r.averageMonthlyBurn).toBeLessThan(0);
    expect(r.averageMonthlyOutflow).toBeCloseTo(9000 + 500 * 0.8, 1);
  });

  it('runway: a burning window runs out on a date', async () => {
    const teamId = api.team('Burner').id;
    const t = api.key('Burner');
    ensureDefaultCategories(api.db, teamId, { countryCode: 'DE' });
    const [acct] = write(api.db, teamId, (w) => [
      w.insert('bank_account', { name: 'Main', type: 'depository', currency: 'EUR', manual: 1 }),
    ]) as [string];
    createTransactions(api.db, teamId, [
      {
        bankAccountId: acct,
        name: 'Seed',
        amountMinor: 12_000_000,
        currency: 'EUR',
        date: '2026-01-01',
        manual: true,
        categorySlug: 'capital-investment',
      },
      {
        bankAccountId: acct,
        name: 'Payroll',
        amountMinor: -1_000_000,
        currency: 'EUR',
        date: '2026-01-28',
        manual: true,
        categorySlug: 'salary',
      },
      {
        bankAccountId: acct,
        name: 'Payroll',
        amountMinor: -1_000_000,
        currency: 'EUR',
        date: '2026-02-27',
        manual: true,
        categorySlug: 'salary',
      },
    ]);
    const r = (await api.call('GET', '/v1/reports/runway?from=2026-01-01&to=2026-02-28', { token: t })).json();
    expect(r.cash).toBe(100_000);
    expect(r.averageMonthlyBurn).toBe(10_000);
    expect(r.months).toBe(10);
    expect(r.infinite).toBe(false);
    expect(r.runsOutOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // Another team sees none of it.
    const other = (await api.call('GET', '/v1/reports/runway?from=2026-01-01&to=2026-02-28', { token: otherToken })).json();
    expect(other.cash).toBe(0);
    expect(other.infinite).toBe(true);
  });

  it('the hosted report family in the hosted shapes', async () => {
    const q = 'from=2025-01-01&to=2025-12-31';
    const revenue = (await api.call('GET', `/v1/reports/revenue?${q}`, { token })).json();
    expect(revenue.meta).toEqual({ type: 'revenue', currency: 'EUR' });
    expect(revenue.result).toHaveLength(12);
    expect(revenue.result[0]).toMatchObject({
      date: '2025-01-01',
      current: { date: '2025-01-01', currency: 'EUR' },
      previous: { date: '2024-01-01' },
    });
    // Net of 19 % VAT: January 2025 = 11,900 × 0.9 × (1 + 12/60) ÷ 1.19.
    expect(revenue.result[0].current.value).toBeCloseTo(10_800, 0);
    expect(revenue.result[0].percentage.status).toBe('positive');
    const gross = (await api.call('GET', `/v1/reports/revenue?${q}&revenueType=gross`, { token })).json();
    expect(gross.summary.currentTotal).toBeGreaterThan(revenue.summary.currentTotal);

    const profit = (await api.call('GET', `/v1/reports/profit?${q}`, { token })).json();
    expect(profit.meta.type).toBe('profit');
    const burn = (await api.call('GET', `/v1/reports/burn-rate?${q}`, { token })).json();
    expect(burn).toHaveLength(12);
    // Rent 3,000 + salary 6,000 + 500 USD of hosting at 0.9 / 0.8 EUR (owner draws excluded, transfers internal).
    expect(burn[0]).toEqual({ date: '2025-01-01', value: 9450, currency: 'EUR' });
    expect(profit.result[0].current.value).toBeCloseTo(revenue.result[0].current.value - 9450, 1);

    const expenses = (await api.call('GET', `/v1/reports/expenses?${q}`, { token })).json();
    expect(expenses.meta).toEqual({ type: 'expense', currency: 'EUR' });
    expect(expenses.result[0]).toEqual({ date: '2025-01-01', value: 450, currency: 'EUR', recurring: 9000, total: 9450 });

    const spending = (await api.call('GET', `/v1/reports/spending?${q}`, { token })).json();
    expect(spending.map((s: { slug: string }) => s.slug)).toEqual(['salary', 'rent', 'software']);
    expect(spending[0]).toMatchObject({ amount: -72_000, currency: 'EUR', percentage: expect.any(Number) });
    expect(spending.reduce((s: number, r: { percentage: number }) => s + r.percentage, 0)).toBeCloseTo(100, 1);
    expect(spending.some((s: { slug: string }) => s.slug === 'owner-draws')).toBe(false);
  });

  it('rejects malformed windows', async () => {
    for (const q of [
      '',
      'from=2025-01-01',
      'from=2025-13-01&to=2025-12-31',
      'from=2025-02-01&to=2025-01-01',
      'from=2025-01-01&to=2025-12-31&currency=EURO',
    ]) {
      const r = await api.call('GET', `/v1/reports/runway?${q}`, { token });
      expect(r.statusCode, q).toBe(422);
      expect(r.json().fields.length).toBeGreaterThan(0);
    }
  });
});

describe('the roll-up and a raw scan agree', () => {
  it('a runway from the roll-up equals one recomputed after rebuilding it', async () => {
    const before = (await api.call('GET', '/v1/reports/runway?from=2024-01-01&to=2026-06-30', { token })).json();
    const { rebuildLedgerDaily } = await import('../../../../src-main/store/ledger/maintenance');
    rebuildLedgerDaily(api.db, api.team('Metrics Co').id);
    const after = (await api.call('GET', '/v1/reports/runway?from=2024-01-01&to=2026-06-30', { token })).json();
    expect(after).toEqual(before);
    expect(eur).toBeTruthy();
  });
});
