import path from 'node:path';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp } from '../../../../src-main/server/app';
import { notFound } from '../../../../src-main/server/errors';
import { canonicalJson, checkIdempotencyKey, type IdempotencyOptions } from '../../../../src-main/server/plugins/idempotency';
import { registerRoute } from '../../../../src-main/server/route';
import { createApiKey } from '../../../../src-main/store/auth/api-keys';
import { createBankAccount } from '../../../../src-main/store/bank-accounts/bank-accounts';
import { DB_FILE_NAME, type Db, openDatabase } from '../../../../src-main/store/db';
import { beginIdempotentRequest } from '../../../../src-main/store/idempotency';
import { ensureTeam } from '../../../../src-main/store/teams/teams';
import { RecordIdParams as IdParams } from '../../../../src-shared/contract/list';
import { defineRoute } from '../../../../src-shared/contract/route';
import { makeTestApi } from '../../../helpers/api';
import { tmpDir } from '../../../helpers/tmp';

const Thing = z.object({ id: z.string(), name: z.string(), run: z.number() });
const ThingInput = z.object({ name: z.string(), note: z.string().optional(), tags: z.array(z.string()).optional() });
const routes = {
  create: defineRoute({
    method: 'POST',
    path: '/things',
    tag: 'test',
    summary: 'slow idempotent create',
    scopes: ['customers.write'],
    idempotent: true,
    body: ThingInput,
    responses: { 201: Thing },
  }),
  update: defineRoute({
    method: 'PATCH',
    path: '/things/:id',
    tag: 'test',
    summary: 'idempotent update',
    scopes: ['customers.write'],
    idempotent: true,
    params: IdParams,
    body: ThingInput.partial(),
    responses: { 200: Thing },
  }),
  flaky: defineRoute({
    method: 'POST',
    path: '/flaky',
    tag: 'test',
    summary: 'fails on its first run',
    scopes: ['customers.write'],
    idempotent: true,
    body: ThingInput,
    responses: { 201: Thing },
  }),
  missing: defineRoute({
    method: 'POST',
    path: '/missing',
    tag: 'test',
    summary: 'always 404',
    scopes: ['customers.write'],
    idempotent: true,
    body: ThingInput,
    responses: { 201: Thing },
  }),
  plain: defineRoute({
    method: 'POST',
    path: '/plain',
    tag: 'test',
    summary: 'not idempotent',
    scopes: ['customers.write'],
    body: ThingInput,
    responses: { 201: Thing },
  }),
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await sleep(5);
  if (!condition()) throw new Error('condition not met in time');
}
const ID_A = '0193a000-0000-7000-8000-000000000001';
const ID_B = '0193a000-0000-7000-8000-000000000002';

const opened: { app: FastifyInstance; db: Db }[] = [];
afterEach(async () => {
  for (const { app, db } of opened.splice(0)) {
    await app.close();
    if (db.open) db.close();
  }
});

/** The real app (createApp) with test-only idempotent routes of its own under /v1. */
async function harness(options: IdempotencyOptions & { delayMs?: number; afterAuth?: () => void } = {}) {
  const dir = tmpDir('finops-idem-http-');
  const db = openDatabase(dir);
  const { delayMs, afterAuth, ...idempotency } = options;
  const app = await createApp({
    db,
    logLevel: 'silent',
    validateResponses: true,
    rateLimit: { perCredential: { limit: 10_000, windowMs: 60_000 } },
    idempotency,
  });
  // A global hook runs before the guard's route-level ones: the test's moment between auth and the guard.
  if (afterAuth) app.addHook('preValidation', async () => afterAuth());
  const runs = { create: 0, update: 0, flaky: 0, missing: 0, plain: 0 };
  await app.register(
    async (v1) => {
      registerRoute(v1, routes.create, async ({ body }) => {
        const run = ++runs.create;
        await sleep(delayMs ?? 0);
        return { id: `thing-${run}`, name: body.name, run };
      });
      registerRoute(v1, routes.update, ({ params, body }) => ({ id: params.id, name: body.name ?? '', run: ++runs.update }));
      registerRoute(v1, routes.flaky, ({ body }) => {
        const run = ++runs.flaky;
        if (run === 1) throw new Error('database went away');
        return { id: 'flaky', name: body.name, run };
      });
      registerRoute(v1, routes.missing, () => {
        runs.missing++;
        throw notFound('No such parent');
      });
      registerRoute(v1, routes.plain, ({ body }) => ({ id: 'plain', name: body.name, run: ++runs.plain }));
    },
    { prefix: '/v1' },
  );
  await app.ready();
  opened.push({ app, db });
  const key = (team = 'acme') =>
    createApiKey(db, { teamId: ensureTeam(db, team).id, name: 't', scopes: ['customers.write'] }).key;
  const token = key();
  const send = (
    method: 'POST' | 'PATCH',
    url: string,
    body: unknown,
    idempotencyKey?: string,
    opts: { token?: string; raw?: string } = {},
  ) =>
    app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${opts.token ?? token}`,
        'content-type': 'application/json',
        ...(idempotencyKey !== undefined ? { 'idempotency-key': idempotencyKey } : {}),
      },
      payload: opts.raw ?? JSON.stringify(body),
    });
  const rows = () => (db.prepare('SELECT COUNT(*) AS n FROM idempotency_keys').get() as { n: number }).n;
  return { app, db, dir, runs, key, token, send, rows };
}

describe('Idempotency-Key guard', () => {
  it('replays the stored response: same status, same body, marked as a replay; the handler ran once', async () => {
    const h = await harness();
    const first = await h.send('POST', '/v1/things', { name: 'Acme' }, 'key-1');
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotency-replayed']).toBeUndefined();
    const again = await h.send('POST', '/v1/things', { name: 'Acme' }, 'key-1');
    expect(again.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
    expect(again.json()).toEqual({ id: 'thing-1', name: 'Acme', run: 1 });
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(h.runs.create).toBe(1);
  });

  it('treats the same JSON with another key order or spacing as the same request', async () => {
    const h = await harness();
    await h.send('POST', '/v1/things', null, 'k', { raw: '{"name":"Acme","tags":["a","b"],"note":"n"}' });
    const again = await h.send('POST', '/v1/things', null, 'k', { raw: '{ "note": "n", "tags": ["a","b"], "name": "Acme" }' });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotency-replayed']).toBe('true');
    const reordered = await h.send('POST', '/v1/things', null, 'k', { raw: '{"name":"Acme","tags":["b","a"],"note":"n"}' });
    expect(reordered.statusCode).toBe(422); // array order is content
    expect(h.runs.create).toBe(1);
  });

  it('answers 422 with a clear message when a key is reused for a different body', async () => {
    const h = await harness();
    await h.send('POST', '/v1/things', { name: 'Acme' }, 'key-1');
    const other = await h.send('POST', '/v1/things', { name: 'Globex' }, 'key-1');
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({
      error: 'Unprocessable Entity',
      message: 'This Idempotency-Key was already used for a different request',
      requestId: other.headers['x-request-id'],
    });
    expect(other.json().description).toMatch(/new key/);
    expect(h.runs.create).toBe(1);
  });

  it.each([
    ['empty', '', /is empty/],
    ['256 characters', 'x'.repeat(256), /256 characters long/],
    ['a control character', 'abc\tdef', /printable ASCII/],
  ])('rejects a malformed key (%s) with 422 before running the handler', async (_name, value, message) => {
    const h = await harness();
    const res = await h.send('POST', '/v1/things', { name: 'Acme' }, value);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(message);
    expect(h.runs.create).toBe(0);
  });

  it('accepts keys of 1 and 255 printable characters', () => {
    expect(checkIdempotencyKey('a')).toEqual({ ok: true, key: 'a' });
    expect(checkIdempotencyKey('~'.repeat(255))).toMatchObject({ ok: true });
    expect(checkIdempotencyKey('caf\u00e9')).toMatchObject({ ok: false });
    expect(checkIdempotencyKey(undefined)).toBeUndefined();
    expect(canonicalJson({ b: [{ d: 1, c: 2 }], a: null })).toBe('{"a":null,"b":[{"c":2,"d":1}]}');
  });

  it('over real HTTP, N parallel identical requests run the handler once; the others get 409 or the replay', async () => {
    const h = await harness({ delayMs: 400 });
    const base = await listen(h.app);
    const N = 8;
    const fire = () =>
      fetch(`${base}/v1/things`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json', 'idempotency-key': 'race-1' },
        body: JSON.stringify({ name: 'Race' }),
      }).then(async (r) => ({ status: r.status, replayed: r.headers.get('idempotency-replayed'), body: await r.json() }));
    const results = await Promise.all(Array.from({ length: N }, fire));
    expect(h.runs.create).toBe(1);
    const executed = results.filter((r) => r.status === 201 && r.replayed === null);
    expect(executed).toHaveLength(1);
    expect(executed[0]?.body).toEqual({ id: 'thing-1', name: 'Race', run: 1 });
    const conflicts = results.filter((r) => r.status === 409);
    for (const r of results) {
      if (r === executed[0]) continue;
      if (r.status === 409) {
        expect(r.body).toMatchObject({ error: 'Conflict', message: 'A request with this Idempotency-Key is still running' });
      } else {
        expect(r).toMatchObject({ status: 201, replayed: 'true', body: executed[0]?.body });
      }
    }
    expect(conflicts.length).toBeGreaterThan(0); // they all arrived well within the 400 ms the first one takes
    const after = await fire();
    expect(after).toEqual({ status: 201, replayed: 'true', body: executed[0]?.body });
    expect(h.runs.create).toBe(1);
  });

  it('a 409 carries Retry-After, and the duplicate gets the replay once the first finished', async () => {
    const h = await harness({ delayMs: 300 });
    const first = h.send('POST', '/v1/things', { name: 'Slow' }, 'slow');
    await until(() => h.runs.create === 1);
    const dup = await h.send('POST', '/v1/things', { name: 'Slow' }, 'slow');
    expect(dup.statusCode).toBe(409);
    expect(dup.headers['retry-after']).toBe('1');
    expect(dup.json().retryAfterSeconds).toBe(1);
    expect((await first).statusCode).toBe(201);
    const later = await h.send('POST', '/v1/things', { name: 'Slow' }, 'slow');
    expect(later.headers['idempotency-replayed']).toBe('true');
    expect(h.runs.create).toBe(1);
  });

  it('keeps keys apart per credential, per team and per route (path parameters included)', async () => {
    const h = await harness();
    const sameTeam = h.key('acme');
    const otherTeam = h.key('globex');
    for (const token of [h.token, sameTeam, otherTeam]) {
      const res = await h.send('POST', '/v1/things', { name: 'Acme' }, 'shared', { token });
      expect(res.statusCode).toBe(201);
      expect(res.headers['idempotency-replayed']).toBeUndefined();
    }
    expect(h.runs.create).toBe(3);
    const a = await h.send('PATCH', `/v1/things/${ID_A}`, { name: 'x' }, 'shared');
    const b = await h.send('PATCH', `/v1/things/${ID_B}`, { name: 'x' }, 'shared');
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect([a.json().id, b.json().id]).toEqual([ID_A, ID_B]);
    expect(b.headers['idempotency-replayed']).toBeUndefined();
    expect(h.runs.update).toBe(2);
    expect((await h.send('PATCH', `/v1/things/${ID_A}`, { name: 'x' }, 'shared')).headers['idempotency-replayed']).toBe('true');
  });

  it('answers 503 with Retry-After, without running the handler, when the key table is gone', async () => {
    const h = await harness();
    h.db.exec('DROP TABLE idempotency_keys');
    const res = await h.send('POST', '/v1/things', { name: 'Acme' }, 'key-1');
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toMatchObject({
      error: 'Service Unavailable',
      message: 'The Idempotency-Key guard is unavailable, so the request was not executed',
      retryAfterSeconds: 5,
      requestId: res.headers['x-request-id'],
    });
    expect(h.runs.create).toBe(0);
    // Without the header the route does not need the guard.
    expect((await h.send('POST', '/v1/things', { name: 'Acme' })).statusCode).toBe(201);
  });

  it('answers 503 while another connection holds the database write lock past the busy timeout', async () => {
    // The lock is taken after auth (which itself may write: lastUsedAt), right before the guard reads its table.
    let other: Database.Database | undefined;
    const h = await harness({
      afterAuth: () => {
        if (!other) return;
        other.exec('BEGIN IMMEDIATE');
      },
    });
    h.db.pragma('busy_timeout = 50');
    other = new Database(path.join(h.dir, DB_FILE_NAME));
    const res = await h.send('POST', '/v1/things', { name: 'Acme' }, 'key-1');
    other.exec('ROLLBACK');
    other.close();
    other = undefined;
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ error: 'Service Unavailable', retryAfterSeconds: 5 });
    expect(h.runs.create).toBe(0);
    expect(h.rows()).toBe(0);
    expect((await h.send('POST', '/v1/things', { name: 'Acme' }, 'key-1')).statusCode).toBe(201);
  });

  it('forgets a key after 24 hours: it may then be used for another request, and old rows are purged', async () => {
    let t = Date.parse('2026-03-01T09:00:00Z');
    const h = await harness({ now: () => new Date(t) });
    await h.send('POST', '/v1/things', { name: 'Monday' }, 'daily');
    await h.send('POST', '/v1/things', { name: 'Other' }, 'other');
    t += 24 * 60 * 60 * 1000 - 1;
    expect((await h.send('POST', '/v1/things', { name: 'Tuesday' }, 'daily')).statusCode).toBe(422);
    t += 1;
    const next = await h.send('POST', '/v1/things', { name: 'Tuesday' }, 'daily');
    expect(next.statusCode).toBe(201);
    expect(next.json().name).toBe('Tuesday');
    // Expired rows are purged lazily, at most once a minute, by a later guarded request.
    t += 60_000;
    await h.send('POST', '/v1/things', { name: 'Third' }, 'third');
    const keys = h.db.prepare('SELECT idempotency_key AS k FROM idempotency_keys ORDER BY k').all() as { k: string }[];
    expect(keys.map((r) => r.k)).toEqual(['daily', 'third']);
  });

  it('a failing handler (500) releases the key: the retry runs, and its success is then replayed', async () => {
    const h = await harness();
    const failed = await h.send('POST', '/v1/flaky', { name: 'x' }, 'flaky-1');
    expect(failed.statusCode).toBe(500);
    expect(h.rows()).toBe(0);
    const retry = await h.send('POST', '/v1/flaky', { name: 'x' }, 'flaky-1');
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotency-replayed']).toBeUndefined();
    const replay = await h.send('POST', '/v1/flaky', { name: 'x' }, 'flaky-1');
    expect(replay.headers['idempotency-replayed']).toBe('true');
    expect(h.runs.flaky).toBe(2);
  });

  it('stores a 4xx answer and replays it', async () => {
    const h = await harness();
    const first = await h.send('POST', '/v1/missing', { name: 'x' }, 'm-1');
    expect(first.statusCode).toBe(404);
    const again = await h.send('POST', '/v1/missing', { name: 'x' }, 'm-1');
    expect(again.statusCode).toBe(404);
    expect(again.body).toBe(first.body); // the original requestId included: it is the same answer
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(h.runs.missing).toBe(1);
  });

  it('does not store requests that fail validation, so they do not use up the key', async () => {
    const h = await harness();
    expect((await h.send('POST', '/v1/things', { name: 42 }, 'v-1')).statusCode).toBe(422);
    expect(h.rows()).toBe(0);
    expect((await h.send('POST', '/v1/things', { name: 'ok' }, 'v-1')).statusCode).toBe(201);
  });

  it('a key left running by a crashed process answers 409 until its lease lapses, then runs again', async () => {
    let t = Date.parse('2026-03-01T09:00:00Z');
    const h = await harness({ now: () => new Date(t), leaseMs: 30_000 });
    const send = () => h.send('POST', '/v1/things', { name: 'Acme' }, 'crash');
    // First run: store its row, then make it look like the process died mid-request.
    expect((await send()).statusCode).toBe(201);
    h.db.exec(
      `UPDATE idempotency_keys SET state = 'running', owner = 'dead', lease_expires_at = '${new Date(t + 30_000).toISOString()}'`,
    );
    t += 29_000;
    expect((await send()).statusCode).toBe(409);
    t += 1_000;
    const rerun = await send();
    expect(rerun.statusCode).toBe(201);
    expect(rerun.json().run).toBe(2);
    expect((await send()).headers['idempotency-replayed']).toBe('true');
  });

  it('renews the lease while a slow request runs, so a duplicate is not re-run after the first lease', async () => {
    const h = await harness({ leaseMs: 250, renewEveryMs: 50, delayMs: 900 });
    const first = h.send('POST', '/v1/things', { name: 'Long' }, 'long');
    await until(() => h.runs.create === 1);
    await sleep(550); // more than twice the lease of 250 ms
    const dup = await h.send('POST', '/v1/things', { name: 'Long' }, 'long');
    expect(dup.statusCode).toBe(409);
    expect((await first).statusCode).toBe(201);
    expect(h.runs.create).toBe(1);
  });

  it('ignores the header on routes that are not idempotent', async () => {
    const h = await harness();
    await h.send('POST', '/v1/plain', { name: 'a' }, 'p');
    const again = await h.send('POST', '/v1/plain', { name: 'b' }, 'p');
    expect(again.statusCode).toBe(201);
    expect(h.runs.plain).toBe(2);
    expect(h.rows()).toBe(0);
  });

  it('declares the optional header in the OpenAPI document of idempotent routes only', async () => {
    const h = await harness();
    const doc = h.app.swagger() as { paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>> };
    const headerNames = (p: string, m: string) =>
      (doc.paths[p]?.[m]?.parameters ?? []).filter((x) => x.in === 'header').map((x) => x.name);
    expect(headerNames('/v1/things', 'post')).toEqual(['idempotency-key']);
    expect(headerNames('/v1/things/{id}', 'patch')).toEqual(['idempotency-key']);
    expect(headerNames('/v1/plain', 'post')).toEqual([]);
  });

  it('is wired into the built app: the key table exists and the guard runs after auth', async () => {
    const api = await makeTestApi();
    const team = api.team('acme');
    const outcome = beginIdempotentRequest(api.db, team.id, { credentialId: 'c', route: 'POST /v1/x {}', key: 'k' }, 'h', {
      now: new Date(),
      leaseMs: 1000,
      retentionMs: 1000,
    });
    expect(outcome.kind).toBe('acquired');
    expect(api.app.hasPlugin('idempotency')).toBe(true);
    expect(api.app.hasPlugin('rate-limit')).toBe(true);
  });

  // docs/decisions/0189-crash-harness.md: the crash harness made a second transaction this way.
  it('never makes a change twice when the answer was lost after the commit (a shared commit and a lone one)', async () => {
    const api = await makeTestApi();
    const token = api.key('acme');
    const account = createBankAccount(api.db, api.team('acme').id, { name: 'Giro', currency: 'EUR' }).id;
    // The process "dies" between the handler's commit and the stored answer: the answer is never stored.
    api.db.exec(`CREATE TRIGGER lost_answer BEFORE UPDATE OF state ON idempotency_keys WHEN NEW.state = 'done'
      BEGIN SELECT RAISE(ABORT, 'killed before the answer was stored'); END`);
    const tx = { amount: -12.5, currency: 'EUR', date: '2026-06-01', bankAccountId: account };
    const requests = [
      // Three at once share one commit: each must mark its own key there.
      { url: '/v1/customers', table: 'customers', bodies: [{ name: 'Once Ltd' }, { name: 'Once Inc' }, { name: 'Once AG' }] },
      { url: '/v1/transactions', table: 'transactions', bodies: [{ name: 'Once', ...tx }] },
    ];
    for (const r of requests) {
      const send = (body: { name: string }) =>
        api.call('POST', r.url, { token, body, headers: { 'idempotency-key': `lost ${body.name}` } });
      for (const first of await Promise.all(r.bodies.map(send))) expect(first.statusCode).toBeLessThan(300);
      // Its lease lapsed (its process is gone): the retry must not run the handler again.
      api.db.exec("UPDATE idempotency_keys SET lease_expires_at = '2000-01-01T00:00:00.000Z'");
      for (const body of r.bodies) {
        const retry = await send(body);
        expect(retry.statusCode).toBe(409);
        expect(retry.json().message).toMatch(/was carried out, but its answer was lost/);
        expect(retry.headers['retry-after']).toBeUndefined();
        expect(retry.headers['idempotency-outcome']).toBe('carried-out');
        expect(api.db.prepare(`SELECT count(*) FROM ${r.table} WHERE name = ?`).pluck().get(body.name)).toBe(1);
      }
    }
  });
});

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}
