/**
 * @module-tag calendar (runs again on the awkward days: scripts/clock-matrix.sh)
 */
import { describe, expect, it } from 'vitest';
import { importRates } from '../../../../src-main/store/exchange-rates/rates';
import { createTransactions, type NewTransaction } from '../../../../src-main/store/transactions/create';
import { write } from '../../../../src-main/store/write';
import { Balances, CashFlow } from '../../../../src-shared/contract/cash-reports';
import { makeTestApi, type TestApi } from '../../../helpers/api';

const today = new Date().toISOString().slice(0, 10);

async function setup() {
  const api = await makeTestApi();
  const token = api.key('Cash Team');
  const teamId = api.team('Cash Team').id;
  const account = async (name: string, currency: string, openingBalance?: number) =>
    (
      await api.call('POST', '/v1/bank-accounts', { token, body: { name, currency, openingBalance, openingDate: '2026-01-01' } })
    ).json().id as string;
  return { api, token, teamId, account };
}

function book(
  api: TestApi,
  teamId: string,
  account: string,
  currency: string,
  rows: [string, number, Partial<NewTransaction>?][],
) {
  createTransactions(
    api.db,
    teamId,
    rows.map(([date, amountMinor, extra]) => ({
      bankAccountId: account,
      name: 'Line',
      amountMinor,
      currency,
      date,
      manual: true,
      ...extra,
    })),
  );
}

describe('GET /v1/balances', () => {
  it('gives each enabled account and the total in the base currency at today’s rate', async () => {
    const { api, token, teamId, account } = await setup();
    const eur = await account('Checking', 'EUR', 1000);
    const usd = await account('Dollars', 'USD', 500);
    const off = await account('Closed', 'EUR', 99);
    await api.call('PATCH', `/v1/bank-accounts/${off}`, { token, body: { enabled: false } });
    importRates(api.db, [
      { day: '2026-01-01', currency: 'EUR', perUsd: '0.8', line: 1 },
      { day: today, currency: 'EUR', perUsd: '0.9', line: 1 },
    ]);
    const res = await api.call('GET', '/v1/balances', { token });
    expect(res.statusCode).toBe(200);
    const data = Balances.parse(res.json().data);
    expect(data).toEqual({
      date: today,
      currency: 'EUR',
      total: { amount: 1450, currency: 'EUR', complete: true },
      accounts: [
        {
          id: eur,
          name: 'Checking',
          type: 'depository',
          currency: 'EUR',
          balance: { amount: 1000, currency: 'EUR' },
          converted: { amount: 1000, currency: 'EUR' },
          rate: 1,
        },
        {
          id: usd,
          name: 'Dollars',
          type: 'depository',
          currency: 'USD',
          balance: { amount: 500, currency: 'USD' },
          converted: { amount: 450, currency: 'EUR' },
          rate: 0.9,
        },
      ],
      missingRates: [],
    });
    const inUsd = (await api.call('GET', '/v1/balances?currency=usd', { token })).json().data;
    expect(inUsd.total).toEqual({ amount: 1611.11, currency: 'USD', complete: true });
    expect(teamId).toBeTruthy();
  });

  it('reports a missing rate and leaves that account out of the total instead of taking 1.0', async () => {
    const { api, token, account } = await setup();
    await account('Checking', 'EUR', 1000);
    await account('Yen', 'JPY', 100000);
    await account('Francs', 'CHF', 10);
    importRates(api.db, [{ day: '2026-01-01', currency: 'EUR', perUsd: '0.8', line: 1 }]);
    const data = (await api.call('GET', '/v1/balances', { token })).json().data;
    expect(data.total).toEqual({ amount: 1000, currency: 'EUR', complete: false });
    expect(data.missingRates).toEqual(['CHF', 'JPY']);
    expect(data.accounts.find((a: { name: string }) => a.name === 'Yen')).toMatchObject({ converted: null, rate: null });
  });
});

describe('GET /v1/cash-flow', () => {
  it('sums inflow and outflow per month from the roll-up, converted at each day’s rate', async () => {
    const { api, token, teamId, account } = await setup();
    const eur = await account('Checking', 'EUR', 5000);
    const usd = await account('Dollars', 'USD');
    importRates(api.db, [
      { day: '2026-01-01', currency: 'EUR', perUsd: '0.8', line: 1 },
      { day: '2026-02-01', currency: 'EUR', perUsd: '0.5', line: 1 },
    ]);
    book(api, teamId, eur, 'EUR', [
      ['2026-01-05', 200_000, { categorySlug: 'service-revenue' }],
      ['2026-01-10', -50_000, { categorySlug: 'rent' }],
      ['2026-01-11', -10_000, { categorySlug: 'internal-transfer', internal: true }],
      ['2026-01-12', -7_000, { categorySlug: 'credit-card-payment' }],
      ['2026-01-13', -3_000, { status: 'excluded' }],
      [
        '2026-02-03',
        -12_000,
        {
          splits: [
            { amountMinor: -2_000, categorySlug: 'owner-draws' },
            { amountMinor: -10_000, categorySlug: 'meals' },
          ],
        },
      ],
      ['2026-03-31', 1_000],
      ['2026-04-01', 99_999],
    ]);
    book(api, teamId, usd, 'USD', [
      ['2026-01-20', 10_000],
      ['2026-02-20', -1_001],
    ]);
    const res = await api.call('GET', '/v1/cash-flow?from=2026-01-01&to=2026-03-31', { token });
    expect(res.statusCode, res.body).toBe(200);
    const data = CashFlow.parse(res.json().data);
    // January: 2,000.00 in + 100 USD at 0.8 = 80.00; out 500.00 (internal, excluded and an excluded category are left
    // out). February: 10.01 USD at 0.5 = 5.005 → 5.01 (half away from zero); the split's owner draw is excluded.
    expect(data).toEqual({
      from: '2026-01-01',
      to: '2026-03-31',
      currency: 'EUR',
      months: [
        { month: '2026-01', inflow: 2080, outflow: 500, net: 1580 },
        { month: '2026-02', inflow: 0, outflow: 105.01, net: -105.01 },
        { month: '2026-03', inflow: 10, outflow: 0, net: 10 },
      ],
      total: { inflow: 2090, outflow: 605.01, net: 1484.99 },
      missingRates: [],
    });
    const usdView = (await api.call('GET', '/v1/cash-flow?from=2026-01-15&to=2026-01-31&currency=USD', { token })).json().data;
    expect(usdView.months).toEqual([{ month: '2026-01', inflow: 100, outflow: 0, net: 100 }]);
  });

  it('reports flows it cannot convert and validates the window', async () => {
    const { api, token, teamId, account } = await setup();
    const chf = await account('Francs', 'CHF');
    book(api, teamId, chf, 'CHF', [
      ['2026-01-05', 10_000],
      ['2026-01-06', -2_500],
    ]);
    const data = (await api.call('GET', '/v1/cash-flow?from=2026-01-01&to=2026-01-31', { token })).json().data;
    expect(data.total).toEqual({ inflow: 0, outflow: 0, net: 0 });
    expect(data.missingRates).toEqual([{ currency: 'CHF', days: 2, inflow: 100, outflow: 25 }]);
    for (const q of ['from=2026-02-01&to=2026-01-01', 'from=2026-01-01', 'from=2000-01-01&to=2026-01-01', 'from=x&to=y']) {
      expect((await api.call('GET', `/v1/cash-flow?${q}`, { token })).statusCode, q).toBe(422);
    }
  });

  it('never counts another team’s flows', async () => {
    const { api, token, account, teamId } = await setup();
    const mine = await account('Mine', 'EUR');
    book(api, teamId, mine, 'EUR', [['2026-01-05', 1_000]]);
    const other = api.key('Other Cash Team');
    const otherTeam = api.team('Other Cash Team').id;
    const theirs = write(api.db, otherTeam, (w) =>
      w.insert('bank_account', { name: 'T', type: 'depository', currency: 'EUR', manual: 1 }),
    );
    book(api, otherTeam, theirs, 'EUR', [['2026-01-05', 5_000]]);
    expect((await api.call('GET', '/v1/cash-flow?from=2026-01-01&to=2026-01-31', { token })).json().data.total.inflow).toBe(10);
    expect(
      (await api.call('GET', '/v1/cash-flow?from=2026-01-01&to=2026-01-31', { token: other })).json().data.total.inflow,
    ).toBe(50);
    expect((await api.call('GET', '/v1/balances', { token: other })).json().data.accounts).toHaveLength(1);
  });
});
