import { describe, expect, it } from 'vitest';
import { createUser } from '../../../../src-main/store/users/users';
import { makeTestApi } from '../../../helpers/api';

const ECB = ['Date,USD,JPY,CYP,', '2026-03-03,1.0500,160.10,N/A,', '2026-03-02,1.0400,159.00,N/A,'].join('\n');

describe('POST /app/exchange-rates/import', () => {
  it('imports an ECB-style file, rebased to USD, and says what it wrote and what the team still lacks', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const res = await api.call('POST', '/app/exchange-rates/import', {
      token,
      body: { fileName: 'eurofxref.csv', content: ECB },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      layout: 'wide',
      base: 'EUR',
      rows: 4,
      written: 4,
      currencies: ['EUR', 'JPY'],
      firstDay: '2026-03-02',
      lastDay: '2026-03-03',
      skipped: ['CYP'],
      withoutRate: 0,
    });
    const rate = await api.call('GET', '/v1/exchange-rates/rate?base=EUR&target=USD&date=2026-03-03', { token });
    expect(rate.json().data.rate).toBe(1.05);
    const again = await api.call('POST', '/app/exchange-rates/import', { token, body: { content: ECB } });
    expect(again.json()).toMatchObject({ written: 0, unchanged: 4 });
  });

  it('refuses a bad file whole with each line, writes nothing; and is refused while other people share the table', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const bad = await api.call('POST', '/app/exchange-rates/import', {
      token,
      body: { content: 'date,currency,rate\n2026-02-30,EUR,0.9\n2026-03-01,EURO,1' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().fields.map((f: { path: string }) => f.path)).toEqual(['line 2', 'line 3']);
    expect((await api.call('GET', '/v1/exchange-rates?date=2026-03-05', { token })).json().data.missing).toEqual([]);

    const other = api.team('Other Co');
    createUser(api.db, other.id, { email: 'someone@other.test', passwordHash: 'x', role: 'owner' });
    const shared = await api.call('POST', '/app/exchange-rates/import', { token, body: { content: ECB } });
    expect(shared.statusCode).toBe(403);
    expect(shared.json().message).toBe('Exchange rates are shared by every team on this server');
  });
});
