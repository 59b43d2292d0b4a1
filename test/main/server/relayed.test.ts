import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTestApi } from '../../helpers/api';

/**
 * Relayed routes (server/relayed.ts) against a stand-in remote on loopback: what the remote answers comes back
 * truthfully (its 404 as 404), a redirect's target is made absolute against the remote and only an http(s) URL
 * without credentials is passed on, and the server-wide `$FINOPS_REMOTE_TOKEN` reaches only the host it is bound to.
 */
interface Seen {
  path: string;
  auth?: string;
}

let stub: http.Server | undefined;
afterEach(() => new Promise<void>((r) => (stub ? stub.close(() => r()) : r())));

async function remote(answer: (path: string, res: http.ServerResponse) => void): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  stub = http.createServer((req, res) => {
    seen.push({ path: req.url ?? '', auth: req.headers.authorization });
    req.resume();
    req.on('end', () => answer(req.url ?? '', res));
  });
  await new Promise<void>((r) => stub!.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(stub.address() as AddressInfo).port}/v1`, seen };
}

const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

describe('relayed routes', () => {
  it("answer the remote's 404 as 404 with the error payload, never a 500", async () => {
    const r = await remote((_p, res) => json(res, 404, { error: 'Not Found', message: 'no such connection' }));
    const api = await makeTestApi();
    const token = api.key('Acme');
    await api.call('PUT', '/app/sync/remote', { token, body: { baseUrl: r.url, kind: 'hosted' } });
    await api.call('PUT', '/app/sync/credential', { token, body: { apiKey: 'k1' } });
    const res = await api.call('GET', '/v1/banking/connections/status?id=conn-1&provider=plaid', { token });
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json()).toMatchObject({ error: 'Not Found', message: 'no such connection' });
    const stripe = await api.call('GET', '/v1/invoice-payments/connect-stripe', { token });
    expect(stripe.statusCode, stripe.body).toBe(404);
  });

  it("answer the remote's plain-text or empty 404 as 404 too", async () => {
    let n = 0;
    const r = await remote((_p, res) =>
      n++ % 2 === 0 ? res.writeHead(404, { 'content-type': 'text/plain' }).end('Cannot GET') : res.writeHead(404).end(),
    );
    const api = await makeTestApi();
    const token = api.key('Acme');
    await api.call('PUT', '/app/sync/remote', { token, body: { baseUrl: r.url, kind: 'hosted' } });
    await api.call('PUT', '/app/sync/credential', { token, body: { apiKey: 'k1' } });
    for (let i = 0; i < 2; i++) {
      const res = await api.call('POST', '/v1/banking/aggregator/exchange', { token, body: { token: 'public-1' } });
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toMatchObject({ error: 'Not Found' });
    }
  });

  it.each([
    ['/v1/next', (base: string) => `${new URL(base).origin}/v1/next`],
    ['https://connect.stripe.test/oauth?x=1', () => 'https://connect.stripe.test/oauth?x=1'],
    ['javascript:alert(1)', () => undefined],
    ['https://user:pw@evil.test/', () => undefined],
    ['//evil.test/path', () => 'http://evil.test/path'],
  ])("pass a redirect's Location %s on only as an absolute http(s) URL", async (location, expected) => {
    const r = await remote((_p, res) => res.writeHead(302, { location }).end());
    const api = await makeTestApi();
    const token = api.key('Acme');
    await api.call('PUT', '/app/sync/remote', { token, body: { baseUrl: r.url, kind: 'hosted' } });
    await api.call('PUT', '/app/sync/credential', { token, body: { apiKey: 'k1' } });
    const res = await api.call('GET', '/v1/invoice-payments/connect-stripe', { token });
    const want = expected(r.url);
    if (want) {
      expect(res.statusCode, res.body).toBe(302);
      expect(res.headers.location).toBe(want);
    } else {
      expect(res.statusCode, res.body).toBe(502);
      expect(res.headers.location).toBeUndefined();
    }
  });
});

describe('$FINOPS_REMOTE_TOKEN', () => {
  const env = (extra: Record<string, string> = {}) => ({ FINOPS_REMOTE_TOKEN: 'server-wide-secret', ...extra });
  const status = { connected: false };

  it('never goes to a remote a team of a multi-team server chose', async () => {
    const r = await remote((_p, res) => json(res, 200, status));
    const api = await makeTestApi({ sync: { credentials: { env: env() } } });
    api.key('Acme');
    const token = api.key('Globex');
    await api.call('PUT', '/app/sync/remote', { token, body: { baseUrl: r.url, kind: 'hosted' } });
    const res = await api.call('GET', '/v1/invoice-payments/stripe-status', { token });
    expect(res.statusCode).toBe(200);
    expect(res.json().connected).toBe(false);
    expect(res.json().reason).toMatch(/FINOPS_REMOTE_TOKEN serves only a data dir of one team/);
    expect(r.seen.map((s) => s.auth)).not.toContain('Bearer server-wide-secret');
    expect(r.seen).toHaveLength(0);
  });

  it('goes to the host it is bound to, or serves a data dir of one team', async () => {
    const r = await remote((_p, res) => json(res, 200, status));
    const bound = await makeTestApi({ sync: { credentials: { env: env({ FINOPS_REMOTE_TOKEN_HOST: new URL(r.url).host }) } } });
    bound.key('Acme');
    const globex = bound.key('Globex');
    await bound.call('PUT', '/app/sync/remote', { token: globex, body: { baseUrl: r.url, kind: 'hosted' } });
    await bound.call('GET', '/v1/invoice-payments/stripe-status', { token: globex });
    // (The server's sync scheduler may call the remote too, with the same right to the secret: only the relayed call counts here.)
    const relayed = () => r.seen.filter((s) => s.path.endsWith('/stripe-status'));
    expect(relayed().map((s) => s.auth)).toEqual(['Bearer server-wide-secret']);

    const elsewhere = await makeTestApi({
      sync: { credentials: { env: env({ FINOPS_REMOTE_TOKEN_HOST: 'sync.example.com' }) } },
    });
    const only = elsewhere.key('Acme');
    await elsewhere.call('PUT', '/app/sync/remote', { token: only, body: { baseUrl: r.url, kind: 'hosted' } });
    const refused = await elsewhere.call('GET', '/v1/invoice-payments/stripe-status', { token: only });
    expect(refused.json().reason).toMatch(/bound to sync\.example\.com/);
    expect(relayed()).toHaveLength(1);

    const single = await makeTestApi({ sync: { credentials: { env: env() } } });
    const acme = single.key('Acme');
    await single.call('PUT', '/app/sync/remote', { token: acme, body: { baseUrl: r.url, kind: 'hosted' } });
    await single.call('GET', '/v1/invoice-payments/stripe-status', { token: acme });
    expect(relayed().map((s) => s.auth)).toEqual(['Bearer server-wide-secret', 'Bearer server-wide-secret']);
  });
});
