import { describe, expect, it } from 'vitest';
import { connectionRoutes, Institution, PROVIDERS } from '../../../../src-shared/contract/institutions';
import { makeTestApi } from '../../../helpers/api';

describe('institutions', () => {
  it('searches the bundled list by country and name, ignoring case and accents, most popular first', async () => {
    const api = await makeTestApi();
    const token = api.key('Bank Search Team', ['bank-accounts.read']);
    const all = (await api.call('GET', '/v1/institutions', { token })).json().data;
    expect(all.length).toBeGreaterThan(150);
    for (const i of all) Institution.parse(i);
    expect(new Set(all.map((i: { provider: string }) => i.provider))).toEqual(new Set(PROVIDERS));
    expect(new Set(all.map((i: { id: string }) => i.id)).size).toBe(all.length);
    const pops = all.map((i: { popularity: number }) => i.popularity);
    expect(pops).toEqual([...pops].sort((a, b) => b - a));

    const de = (await api.call('GET', '/v1/institutions?country=de', { token })).json().data;
    expect(de.length).toBeGreaterThan(10);
    expect(de.every((i: { country: string }) => i.country === 'DE')).toBe(true);
    expect(de[0]).toMatchObject({
      name: 'Sparkasse',
      provider: 'gocardless',
      available_history: 730,
      maximum_consent_validity: 90,
    });

    const societe = (await api.call('GET', '/v1/institutions?q=societe%20gen', { token })).json().data;
    expect(societe.map((i: { name: string }) => i.name)).toEqual(['Société Générale']);
    const nordea = (await api.call('GET', '/v1/institutions?q=NORDEA&country=SE', { token })).json().data;
    expect(nordea).toEqual([expect.objectContaining({ name: 'Nordea Sweden', provider: 'enablebanking', country: 'SE' })]);
    const teller = (await api.call('GET', '/v1/institutions?country=US&provider=teller', { token })).json().data;
    expect(teller.length).toBeGreaterThan(5);
    expect((await api.call('GET', '/v1/institutions?q=zzzz', { token })).json()).toEqual({ data: [] });
    expect((await api.call('GET', '/v1/institutions?country=XX', { token })).statusCode).toBe(422);
    expect((await api.call('GET', '/v1/institutions?provider=yodlee', { token })).statusCode).toBe(422);
  });

  it('tells the truth about provider health offline', async () => {
    const api = await makeTestApi();
    const token = api.key('Bank Search Team', ['bank-accounts.read']);
    const res = await api.call('GET', '/v1/institutions/health', { token });
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(Object.keys(data).sort()).toEqual([...PROVIDERS, 'search'].sort());
    for (const p of PROVIDERS) {
      expect(data[p].healthy, p).toBe(false);
      expect(data[p].reason).toContain('not reachable from this local server');
    }
    expect(data.search).toEqual({ healthy: true });
  });

  it('answers every bank-connection flow with a clear 409, after validating the request', async () => {
    const api = await makeTestApi();
    const token = api.key('Bank Search Team');
    const bodies: Record<string, unknown> = {
      '/v1/banking/aggregator/link-token': { userId: 'u1', language: 'en' },
      '/v1/banking/aggregator/exchange': { token: 'public-sandbox-1' },
      '/v1/banking/open-banking/agreement': { institutionId: 'gocardless_n26_de', transactionTotalDays: 365 },
      '/v1/banking/open-banking/link': {
        institutionId: 'gocardless_n26_de',
        redirect: 'https://app.example.com/done',
        agreement: null,
        reference: 'ref-1',
      },
      '/v1/banking/open-banking/exchange': { institutionId: 'gocardless_n26_de', transactionTotalDays: 90 },
      '/v1/banking/session/link': {
        institutionId: 'enablebanking_nordea_finland_fi',
        country: 'FI',
        teamId: 't',
        validUntil: '2026-12-31T00:00:00Z',
        state: 'abc',
        type: 'personal',
      },
      '/v1/banking/session/result': { code: 'code-1' },
      '/v1/banking/connections/delete': { id: 'conn-1', provider: 'plaid' },
    };
    const routes = Object.values(connectionRoutes);
    expect(routes).toHaveLength(9);
    for (const route of routes) {
      const url = `/v1${route.path}`;
      const res =
        route.method === 'GET'
          ? await api.call('GET', `${url}?id=conn-1&provider=teller`, { token })
          : await api.call('POST', url, { token, body: bodies[url] });
      expect(res.statusCode, `${route.method} ${url}: ${res.body}`).toBe(409);
      expect(res.json()).toMatchObject({
        error: 'Conflict',
        message: 'Bank connections run on a remote instance, not on this local server',
      });
      expect(res.json().description).toContain('sync');
      const malformed =
        route.method === 'GET'
          ? await api.call('GET', `${url}?provider=yodlee`, { token })
          : await api.call('POST', url, { token, body: { unexpected: true } });
      expect(malformed.statusCode, `malformed ${url}`).toBe(422);
    }
  });
});
