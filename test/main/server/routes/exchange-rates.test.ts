/**
 * @module-tag calendar (runs again on the awkward days: scripts/clock-matrix.sh)
 */
import { describe, expect, it } from 'vitest';
import { importRates } from '../../../../src-main/store/exchange-rates/rates';
import { makeTestApi } from '../../../helpers/api';

const RATES = [
  { day: '2026-01-02', currency: 'EUR', perUsd: '0.9', line: 1 },
  { day: '2026-01-02', currency: 'JPY', perUsd: '150', line: 1 },
  { day: '2026-01-05', currency: 'EUR', perUsd: '0.8', line: 1 },
  { day: '2026-02-01', currency: 'GBP', perUsd: '0.75', line: 1 },
];

describe('exchange rates', () => {
  it('answers the rates of a day with the nearest earlier rate of each currency', async () => {
    const api = await makeTestApi();
    const token = api.key('Rates Team', ['bank-accounts.read']);
    importRates(api.db, RATES);
    const jan3 = await api.call('GET', '/v1/exchange-rates?date=2026-01-03', { token });
    expect(jan3.statusCode).toBe(200);
    expect(jan3.json()).toEqual({
      data: {
        date: '2026-01-03',
        usd: { USD: 1, EUR: 0.9, JPY: 150 },
        rateDates: { EUR: '2026-01-02', JPY: '2026-01-02' },
        missing: ['GBP'],
      },
    });
    const feb = (await api.call('GET', '/v1/exchange-rates?date=2026-02-10', { token })).json().data;
    expect(feb.usd).toEqual({ USD: 1, EUR: 0.8, GBP: 0.75, JPY: 150 });
    expect(feb.missing).toEqual([]);
    const before = (await api.call('GET', '/v1/exchange-rates?date=2025-12-31', { token })).json().data;
    expect(before.usd).toEqual({ USD: 1 });
    expect(before.missing).toEqual(['EUR', 'GBP', 'JPY']);
    // Today by default.
    expect((await api.call('GET', '/v1/exchange-rates', { token })).json().data.date).toBe(new Date().toISOString().slice(0, 10));
    expect((await api.call('GET', '/v1/exchange-rates?date=2026-13-01', { token })).statusCode).toBe(422);
  });

  it('answers a single cross rate, and 404 — never 1 — without one', async () => {
    const api = await makeTestApi();
    const token = api.key('Rates Team', ['bank-accounts.read']);
    importRates(api.db, RATES);
    const rate = async (q: string) => api.call('GET', `/v1/exchange-rates/rate?${q}`, { token });
    expect((await rate('base=EUR&target=JPY&date=2026-01-02')).json()).toEqual({
      data: { date: '2026-01-02', rate: 166.666666666667 },
    });
    expect((await rate('base=eur&target=usd&date=2026-01-06')).json()).toEqual({ data: { date: '2026-01-06', rate: 1.25 } });
    expect((await rate('base=USD&target=EUR&date=2026-01-06')).json().data.rate).toBe(0.8);
    expect((await rate('base=EUR&target=EUR&date=2026-01-06')).json().data.rate).toBe(1);
    const missing = await rate('base=EUR&target=GBP&date=2026-01-31');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: 'Not Found', message: 'No exchange rate for GBP on or before 2026-01-31' });
    expect((await rate('base=EUR&target=CHF&date=2026-01-31')).statusCode).toBe(404);
    expect((await rate('base=EUR')).statusCode).toBe(422);
    expect((await rate('base=EURO&target=USD')).statusCode).toBe(422);
  });
});
