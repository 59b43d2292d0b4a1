import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { connectionRoutes, Institution, PROVIDERS } from '../../../../src-shared/contract/institutions';
import { makeTestApi } from '../../../helpers/api';
import { remoteReplica } from '../../sync/helpers';

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

  it('with a sync remote: each flow is sent on with the team credential and its key, and answered as the remote answered', async () => {
    const seen: { auth?: string; path?: string; key?: string; body: string }[] = [];
    const stub = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({
          auth: req.headers.authorization,
          path: req.url,
          key: req.headers['idempotency-key'] as string | undefined,
          body: Buffer.concat(chunks).toString(),
        });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            req.url?.startsWith('/v1/banking/connections/status')
              ? { data: { status: 'connected' } }
              : { data: { link_token: 'link-sandbox-1', expiration: '2026-12-31T00:00:00Z' } },
          ),
        );
      });
    });
    await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(stub.address() as AddressInfo).port}/v1`;
      const api = await makeTestApi();
      const token = api.key('Bank Team');
      expect((await api.call('PUT', '/app/sync/remote', { token, body: { baseUrl: url, kind: 'hosted' } })).statusCode).toBe(200);
      expect((await api.call('PUT', '/app/sync/credential', { token, body: { apiKey: 'hosted-key-1' } })).statusCode).toBe(200);
      const link = await api.call('POST', '/v1/banking/aggregator/link-token', {
        token,
        body: { userId: 'u1', language: 'de' },
        headers: { 'idempotency-key': 'link-1' },
      });
      expect(link.statusCode, link.body).toBe(200);
      expect(link.headers['x-finops-relayed-to']).toBe(url);
      expect(link.json()).toEqual({ data: { link_token: 'link-sandbox-1', expiration: '2026-12-31T00:00:00Z' } });
      const status = await api.call('GET', '/v1/banking/connections/status?id=conn-1&provider=plaid', { token });
      expect(status.json()).toEqual({ data: { status: 'connected' } });
      expect(seen.map((s) => [s.auth, s.path, s.key ?? null])).toEqual([
        ['Bearer hosted-key-1', '/v1/banking/aggregator/link-token', 'link-1'],
        ['Bearer hosted-key-1', '/v1/banking/connections/status?id=conn-1&provider=plaid', null],
      ]);
      expect(JSON.parse(seen[0]!.body)).toEqual({ userId: 'u1', language: 'de' });
      // A malformed call never leaves this server.
      expect((await api.call('POST', '/v1/banking/session/result', { token, body: {} })).statusCode).toBe(422);
      expect(seen).toHaveLength(2);
    } finally {
      await new Promise((r) => stub.close(r));
    }
  });

  it('through a Finops Desk remote that has no provider either: its 409 comes back, marked as relayed', async () => {
    const remote = await remoteReplica();
    const api = await makeTestApi();
    const token = api.key('Acme');
    await api.call('PUT', '/app/sync/remote', { token, body: { baseUrl: remote.url, kind: 'finops' } });
    await api.call('PUT', '/app/sync/credential', { token, body: { apiKey: remote.token } });
    const res = await api.call('POST', '/v1/banking/open-banking/agreement', {
      token,
      body: { institutionId: 'gocardless_n26_de', transactionTotalDays: 90 },
    });
    expect(res.statusCode).toBe(409);
    expect(res.headers['x-finops-relayed-to']).toBe(remote.url);
    expect(res.json().description).toContain('no sync remote');
  });
});
