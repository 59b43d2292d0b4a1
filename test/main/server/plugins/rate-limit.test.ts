import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp } from '../../../../src-main/server/app';
import { FixedWindowCounter, type RateLimitOptions } from '../../../../src-main/server/plugins/rate-limit';
import { registerRoute } from '../../../../src-main/server/route';
import { createApiKey } from '../../../../src-main/store/auth/api-keys';
import { createSession } from '../../../../src-main/store/auth/sessions';
import { type Db, openDatabase } from '../../../../src-main/store/db';
import { ensureTeam } from '../../../../src-main/store/teams/teams';
import { createUser } from '../../../../src-main/store/users/users';
import { defineRoute } from '../../../../src-shared/contract/route';
import { makeTestApi } from '../../../helpers/api';
import { tmpDir } from '../../../helpers/tmp';

const ping = defineRoute({
  method: 'GET',
  path: '/ping',
  tag: 'test',
  summary: 'authenticated test route',
  scopes: ['customers.read'],
  query: z.object({ n: z.coerce.number().int().optional() }),
  responses: { 200: z.object({ ok: z.literal(true) }) },
});
const publicPing = defineRoute({
  method: 'GET',
  path: '/public-ping',
  tag: 'test',
  summary: 'public test route',
  scopes: [],
  public: true,
  responses: { 200: z.object({ ok: z.literal(true) }) },
});
/** Classed with the OAuth endpoints by its contract, not by its path. */
const signInPing = defineRoute({
  method: 'GET',
  path: '/sign-in-ping',
  tag: 'test',
  summary: 'public test route in the oauth rate-limit class',
  scopes: [],
  public: true,
  rateLimit: 'oauth',
  responses: { 200: z.object({ ok: z.literal(true) }) },
});

/** A clock the test moves by hand. */
function manualClock(start = Date.parse('2026-01-01T00:00:00Z')) {
  let t = start;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

const opened: { app: FastifyInstance; db: Db }[] = [];
afterEach(async () => {
  for (const { app, db } of opened.splice(0)) {
    await app.close();
    db.close();
  }
});

/** The real app (createApp) with test routes of its own under /v1. */
async function harness(rateLimit: RateLimitOptions) {
  const db = openDatabase(tmpDir('finops-rl-'));
  let app: FastifyInstance;
  try {
    app = await createApp({ db, logLevel: 'silent', validateResponses: true, rateLimit });
  } catch (err) {
    db.close();
    throw err;
  }
  await app.register(
    async (v1) => {
      registerRoute(v1, ping, () => ({ ok: true as const }));
      registerRoute(v1, publicPing, () => ({ ok: true as const }));
      registerRoute(v1, signInPing, () => ({ ok: true as const }));
      v1.get('/outside-contract', async () => ({ ok: true }));
    },
    { prefix: '/v1' },
  );
  await app.ready();
  opened.push({ app, db });
  const key = (team: string) => createApiKey(db, { teamId: ensureTeam(db, team).id, name: 't', scopes: ['customers.read'] }).key;
  const get = (url: string, token?: string, remoteAddress = '127.0.0.1') =>
    app.inject({ method: 'GET', url, remoteAddress, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { app, db, key, get };
}

const limitHeaders = (res: { headers: Record<string, unknown> }) => ({
  limit: res.headers['ratelimit-limit'],
  remaining: res.headers['ratelimit-remaining'],
  reset: res.headers['ratelimit-reset'],
  policy: res.headers['ratelimit-policy'],
});

describe('rate limits', () => {
  it('counts down per credential, then answers 429 with the error payload and Retry-After', async () => {
    const clock = manualClock();
    const h = await harness({ perCredential: { limit: 3, windowMs: 60_000 }, now: clock.now });
    const token = h.key('acme');
    const seen = [];
    for (let i = 0; i < 3; i++) {
      const res = await h.get('/v1/ping', token);
      expect(res.statusCode).toBe(200);
      seen.push(limitHeaders(res));
    }
    expect(seen.map((s) => s.remaining)).toEqual(['2', '1', '0']);
    expect(seen.every((s) => s.limit === '3' && s.policy === '3;w=60' && s.reset === '60')).toBe(true);

    clock.advance(15_000);
    const over = await h.get('/v1/ping', token);
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toBe('45');
    expect(limitHeaders(over)).toEqual({ limit: '3', remaining: '0', reset: '45', policy: '3;w=60' });
    expect(over.json()).toEqual({
      error: 'Too Many Requests',
      message: 'Rate limit exceeded: at most 3 requests per 60 s for this credential',
      description: 'Retry after 45 s',
      requestId: over.headers['x-request-id'],
      retryAfterSeconds: 45,
    });
  });

  it('RateLimit-Reset falls as the window runs out, and a new window starts after it', async () => {
    const clock = manualClock();
    const h = await harness({ perCredential: { limit: 2, windowMs: 10_000 }, now: clock.now });
    const token = h.key('acme');
    expect(limitHeaders(await h.get('/v1/ping', token)).reset).toBe('10');
    clock.advance(2_500);
    expect(limitHeaders(await h.get('/v1/ping', token))).toMatchObject({ reset: '8', remaining: '0' });
    clock.advance(7_000);
    expect((await h.get('/v1/ping', token)).statusCode).toBe(429);
    clock.advance(500); // the window (10 s from the first request) is over
    const fresh = await h.get('/v1/ping', token);
    expect(fresh.statusCode).toBe(200);
    expect(limitHeaders(fresh)).toMatchObject({ remaining: '1', reset: '10' });
  });

  it('another credential, of the same team or another, is unaffected', async () => {
    const h = await harness({ perCredential: { limit: 1, windowMs: 60_000 } });
    const a = h.key('acme');
    const b = h.key('acme');
    const c = h.key('globex');
    expect((await h.get('/v1/ping', a)).statusCode).toBe(200);
    expect((await h.get('/v1/ping', a)).statusCode).toBe(429);
    for (const other of [b, c]) {
      const res = await h.get('/v1/ping', other);
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-remaining']).toBe('0');
    }
  });

  it('sets the headers on error responses of counted routes too (a 422 from validation)', async () => {
    const h = await harness({ perCredential: { limit: 5, windowMs: 60_000 } });
    const res = await h.get('/v1/ping?n=abc', h.key('acme'));
    expect(res.statusCode).toBe(422);
    expect(limitHeaders(res)).toMatchObject({ limit: '5', remaining: '4' });
  });

  it('limits public contract routes per client IP, apart from credentials', async () => {
    const h = await harness({ perIp: { limit: 2, windowMs: 60_000 }, perCredential: { limit: 100, windowMs: 60_000 } });
    expect((await h.get('/v1/public-ping', undefined, '10.0.0.1')).statusCode).toBe(200);
    expect((await h.get('/v1/public-ping', undefined, '10.0.0.1')).statusCode).toBe(200);
    const over = await h.get('/v1/public-ping', undefined, '10.0.0.1');
    expect(over.statusCode).toBe(429);
    expect(over.json().message).toMatch(/unauthenticated requests from this address/);
    expect((await h.get('/v1/public-ping', undefined, '10.0.0.2')).statusCode).toBe(200);
    // An authenticated caller at the exhausted address counts against its credential, not the address.
    const authed = await h.get('/v1/ping', h.key('acme'), '10.0.0.1');
    expect(authed.statusCode).toBe(200);
    expect(authed.headers['ratelimit-limit']).toBe('100');
  });

  it('limits /v1/oauth/* per IP with its own budget (default 60 per 15 min)', async () => {
    const h = await harness({ perIp: { limit: 1000, windowMs: 60_000 } });
    const post = (ip: string) => h.app.inject({ method: 'POST', url: '/v1/oauth/token', remoteAddress: ip, payload: {} });
    const first = await post('10.0.0.9');
    expect(limitHeaders(first)).toEqual({ limit: '60', remaining: '59', reset: '900', policy: '60;w=900' });
    // The real token endpoint refuses the empty request (400), and every attempt counts.
    for (let i = 1; i < 60; i++) expect((await post('10.0.0.9')).statusCode).toBe(400);
    const over = await post('10.0.0.9');
    expect(over.statusCode).toBe(429);
    // The OAuth endpoints answer in RFC 6749 form, still as a 429 with when to come back.
    expect(over.json()).toMatchObject({ error: 'temporarily_unavailable', retryAfterSeconds: 900 });
    expect(over.json().message).toMatch(/Rate limit exceeded/);
    expect(over.headers['retry-after']).toBe('900');
    expect((await post('10.0.0.10')).statusCode).toBe(400);
    // The same address still reaches the rest of the API: the OAuth budget is separate.
    expect((await h.get('/v1/public-ping', undefined, '10.0.0.9')).statusCode).toBe(200);
  });

  it('classes a route by its contract: rateLimit "oauth" shares the OAuth budget wherever the route lives', async () => {
    const h = await harness({ perIp: { limit: 1000, windowMs: 60_000 }, oauth: { limit: 2, windowMs: 60_000 } });
    const ping = await h.get('/v1/sign-in-ping', undefined, '10.0.0.7');
    expect(ping.statusCode).toBe(200);
    expect(limitHeaders(ping)).toMatchObject({ limit: '2', remaining: '1' });
    const token = await h.app.inject({ method: 'POST', url: '/v1/oauth/token', remoteAddress: '10.0.0.7', payload: {} });
    expect(token.headers['ratelimit-remaining']).toBe('0');
    expect((await h.get('/v1/sign-in-ping', undefined, '10.0.0.7')).statusCode).toBe(429);
    // A path under /v1/oauth/ that is no route is not counted: the class comes from the route, not the prefix.
    const unknown = await h.get('/v1/oauth/no-such-endpoint', undefined, '10.0.0.8');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['ratelimit-limit']).toBeUndefined();
  });

  it('does not count routes outside the contract (documentation, UI files, unknown paths)', async () => {
    const h = await harness({ perIp: { limit: 1, windowMs: 60_000 } });
    for (let i = 0; i < 3; i++) {
      const res = await h.get('/v1/outside-contract');
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-limit']).toBeUndefined();
    }
  });

  it("gives the web UI's sign-in session five times an API key's budget (a screen asks for several lists at once)", async () => {
    const api = await makeTestApi({ rateLimitPerMinute: 2 });
    const teamId = api.team('Acme').id;
    const { user } = createUser(api.db, teamId, { email: 'ui@acme.test', passwordHash: 'x' });
    const cookie = `finops_session=${createSession(api.db, { teamId, userId: user.id }).token}`;
    const token = api.key('Acme');
    const byKey = [];
    const bySession = [];
    for (let i = 0; i < 11; i++) {
      byKey.push((await api.call('GET', '/v1/tags', { token })).statusCode);
      bySession.push((await api.call('GET', '/v1/tags', { headers: { cookie } })).statusCode);
    }
    expect(byKey.filter((s) => s === 200)).toHaveLength(2);
    expect(bySession.filter((s) => s === 200)).toHaveLength(10);
    const refused = await api.call('GET', '/v1/tags', { headers: { cookie } });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['ratelimit-limit']).toBe('10');
    expect(refused.json().message).toMatch(/sign-in session/);
  });

  it('rejects a limit that is not a positive integer', async () => {
    await expect(harness({ perCredential: { limit: 0, windowMs: 1000 } })).rejects.toThrow(/perCredential\.limit/);
  });

  it('forgets expired windows', () => {
    const clock = manualClock();
    const counter = new FixedWindowCounter(clock.now);
    for (let i = 0; i < 5; i++) counter.hit(`k${i}`, { limit: 1, windowMs: 1000 });
    expect(counter.size).toBe(5);
    clock.advance(61_000);
    counter.hit('new', { limit: 1, windowMs: 1000 });
    expect(counter.size).toBe(1);
  });

  it('over real HTTP: finops serve --rate-limit N limits the public routes of the built app per IP', {
    tags: ['slow'],
  }, async () => {
    const api = await makeTestApi({ rateLimitPerMinute: 2 });
    const base = await api.listen();
    const a = await fetch(`${base}/v1/health`);
    const b = await fetch(`${base}/v1/health`);
    const c = await fetch(`${base}/v1/health`);
    expect([a.status, b.status, c.status]).toEqual([200, 200, 429]);
    expect([a.headers.get('ratelimit-remaining'), b.headers.get('ratelimit-remaining')]).toEqual(['1', '0']);
    expect(a.headers.get('ratelimit-policy')).toBe('2;w=60');
    expect(Number(c.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(c.headers.get('content-type')).toMatch(/application\/json/);
    const body = await c.json();
    expect(body).toMatchObject({ error: 'Too Many Requests', requestId: c.headers.get('x-request-id') });
    expect(body.retryAfterSeconds).toBe(Number(c.headers.get('retry-after')));
  });
});
