import { describe, expect, it } from 'vitest';
import { revokeApiKey } from '../../../../src-main/store/auth/api-keys';
import { updateCustomer } from '../../../../src-main/store/customers/write';
import { openDatabase } from '../../../../src-main/store/db';
import { beginIdempotentRequest } from '../../../../src-main/store/idempotency';
import { createTag } from '../../../../src-main/store/tags/tags';
import { makeTestApi, type TestApi } from '../../../helpers/api';

async function createCustomer(api: TestApi, token: string, name: string): Promise<string> {
  const res = await api.call('POST', '/v1/customers', { token, body: { name, email: `${name.toLowerCase()}@example.com` } });
  expect(res.statusCode).toBe(201);
  return res.json().id as string;
}

describe('GET response cache', () => {
  it('answers a repeated read from the cache with the same bytes, still counted by the rate limit', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const id = await createCustomer(api, token, 'Ada');
    const first = await api.call('GET', `/v1/customers/${id}`, { token });
    const second = await api.call('GET', `/v1/customers/${id}`, { token });
    expect(api.app.responseCache.hits).toBe(1);
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(Number(second.headers['ratelimit-remaining'])).toBe(Number(first.headers['ratelimit-remaining']) - 1);
  });

  it('shows a write through the API at once', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const id = await createCustomer(api, token, 'Ada');
    await api.call('GET', `/v1/customers/${id}`, { token });
    expect((await api.call('PATCH', `/v1/customers/${id}`, { token, body: { name: 'Ada Lovelace' } })).statusCode).toBe(200);
    const after = await api.call('GET', `/v1/customers/${id}`, { token });
    expect(after.json().name).toBe('Ada Lovelace');
    expect(api.app.responseCache.hits).toBe(0);
  });

  it('keeps my entry through another team’s writes, and drops it at any write of my team’s records', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const globex = api.key('Globex');
    await api.call('GET', '/v1/tags', { token: globex }); // its first use writes lastUsedAt: done before the entry
    const id = await createCustomer(api, token, 'Ada');
    const first = await api.call('GET', `/v1/customers/${id}`, { token });
    await createCustomer(api, globex, 'Gus');
    expect((await api.call('POST', '/v1/tags', { token: globex, body: { name: 'globex-tag' } })).statusCode).toBe(201);
    const hit = await api.call('GET', `/v1/customers/${id}`, { token });
    expect(api.app.responseCache.hits).toBe(1);
    expect(hit.body).toBe(first.body);
    // Any recorded change of my team's records (here a tag: a customer's body may show tag names) voids the entry.
    expect((await api.call('POST', '/v1/tags', { token, body: { name: 'acme-tag' } })).statusCode).toBe(201);
    await api.call('GET', `/v1/customers/${id}`, { token });
    expect(api.app.responseCache.hits).toBe(1);
  });

  it('keeps entries through bookkeeping writes: a key’s lastUsedAt, an idempotency row', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const second = api.key('Acme');
    const id = await createCustomer(api, token, 'Ada');
    await api.call('GET', `/v1/customers/${id}`, { token });
    // The second key's first use writes its lastUsedAt, and its read is an entry of the same team and URL.
    await api.call('GET', `/v1/customers/${id}`, { token: second });
    expect(api.app.responseCache.hits).toBe(1);
    beginIdempotentRequest(api.db, api.team('Acme').id, { credentialId: 'c', route: 'POST /v1/x {}', key: 'k' }, 'h', {
      now: new Date(),
      leaseMs: 30_000,
      retentionMs: 60_000,
    });
    await api.call('GET', `/v1/customers/${id}`, { token });
    expect(api.app.responseCache.hits).toBe(2);
  });

  // Over real HTTP, for the same reason as the test below.
  it('keeps my entry through another team’s write by another process, and drops it at my team’s', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const id = await createCustomer(api, token, 'Ada');
    const base = await api.listen();
    const get = () => fetch(`${base}/v1/customers/${id}`, { headers: { authorization: `Bearer ${token}` } });
    await get();
    const cli = openDatabase(api.dataDir);
    createTag(cli, api.team('Globex').id, { name: 'from the CLI' });
    expect((await get()).status).toBe(200);
    expect(api.app.responseCache.hits).toBe(1);
    createTag(cli, api.team('Acme').id, { name: 'from the CLI' });
    cli.close();
    expect((await get()).status).toBe(200);
    expect(api.app.responseCache.hits).toBe(1);
  });

  // Over real HTTP: the stamp's data_version is read once per event-loop turn, and a request sent after a commit
  // arrives in a later turn (fastify's inject() chains requests through promises, inside one turn).
  it('shows a write by another process to the next request sent (another connection to the same file)', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const id = await createCustomer(api, token, 'Ada');
    const base = await api.listen();
    const get = (t = token) => fetch(`${base}/v1/customers/${id}`, { headers: { authorization: `Bearer ${t}` } });
    await get();
    await get();
    expect(api.app.responseCache.hits).toBe(1);
    const cli = openDatabase(api.dataDir);
    updateCustomer(cli, api.team('Acme').id, id, { city: 'London' });
    cli.close();
    const after = await get();
    expect(((await after.json()) as { city: string }).city).toBe('London');
    expect(api.app.responseCache.hits).toBe(1);
  });

  it('checks the credential before the cache: another team gets 404, a revoked key 401, a key without the scope 403', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const globex = api.key('Globex');
    const noScope = api.key('Acme', ['tags.read']);
    const doomed = api.key('Acme');
    const id = await createCustomer(api, token, 'Ada');
    const base = await api.listen();
    const get = (t: string) => fetch(`${base}/v1/customers/${id}`, { headers: { authorization: `Bearer ${t}` } });
    // Every key is used once first, so that the hits below are counted against an entry that exists.
    for (const t of [globex, noScope, doomed, globex, noScope, doomed, token]) await get(t);
    const hits = api.app.responseCache.hits;
    expect((await get(token)).status).toBe(200);
    expect(api.app.responseCache.hits).toBe(hits + 1);

    const other = await get(globex);
    expect(other.status).toBe(404);
    expect(await other.text()).not.toContain('Ada');
    expect((await get(noScope)).status).toBe(403);
    expect((await get(doomed)).status).toBe(200);

    const cli = openDatabase(api.dataDir);
    revokeApiKey(cli, doomed);
    cli.close();
    expect((await get(doomed)).status).toBe(401);
  });

  it('caches list pages per query and drops them when a customer is added', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    await createCustomer(api, token, 'Ada');
    const page = await api.call('GET', '/v1/customers?pageSize=10', { token });
    const again = await api.call('GET', '/v1/customers?pageSize=10', { token });
    expect(again.body).toBe(page.body);
    const otherQuery = await api.call('GET', '/v1/customers?pageSize=10&q=zzz', { token });
    expect(otherQuery.json().data).toEqual([]);
    expect(api.app.responseCache.hits).toBe(1);
    await createCustomer(api, token, 'Bea');
    const after = await api.call('GET', '/v1/customers?pageSize=10', { token });
    expect(
      after
        .json()
        .data.map((c: { name: string }) => c.name)
        .sort(),
    ).toEqual(['Ada', 'Bea']);
  });

  it('leaves HEAD requests alone (fastify adds them as routes of their own)', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const id = await createCustomer(api, token, 'Ada');
    expect((await api.call('HEAD', `/v1/customers/${id}`, { token })).statusCode).toBe(200);
    expect((await api.call('HEAD', `/v1/customers/${id}`, { token })).statusCode).toBe(200);
    expect(api.app.responseCache.hits + api.app.responseCache.misses).toBe(0);
    expect(api.app.responseCache.entries()).toBe(0);
  });

  it('does not keep error responses', async () => {
    const api = await makeTestApi();
    const token = api.key('Acme');
    const missing = '/v1/customers/01900000-0000-7000-8000-000000000000';
    expect((await api.call('GET', missing, { token })).statusCode).toBe(404);
    expect((await api.call('GET', missing, { token })).statusCode).toBe(404);
    expect(api.app.responseCache.hits).toBe(0);
    expect(api.app.responseCache.entries()).toBe(0);
  });

  it('stops serving an entry when the customer leaves the "recent" tab by the passage of time', async () => {
    let clock = Date.now();
    const api = await makeTestApi({ responseCacheClock: () => clock });
    const token = api.key('Acme');
    const id = await createCustomer(api, token, 'Ada');
    await api.call('GET', `/v1/customers/${id}`, { token });
    await api.call('GET', `/v1/customers/${id}`, { token });
    expect(api.app.responseCache.hits).toBe(1);
    clock += 31 * 86_400_000;
    await api.call('GET', `/v1/customers/${id}`, { token });
    expect(api.app.responseCache.hits).toBe(1);
  });

  it('keeps its bodies within the byte budget, oldest out', async () => {
    const api = await makeTestApi({ responseCacheBytes: 4000 });
    const token = api.key('Acme');
    const ids: string[] = [];
    for (const name of ['Ada', 'Bea', 'Cy', 'Dee', 'Eve', 'Flo']) ids.push(await createCustomer(api, token, name));
    for (const id of ids) await api.call('GET', `/v1/customers/${id}`, { token });
    expect(api.app.responseCache.entries()).toBeGreaterThan(0);
    expect(api.app.responseCache.entries()).toBeLessThan(ids.length);
    expect(api.app.responseCache.bytes()).toBeLessThanOrEqual(4000);
    // The newest read is the one kept.
    await api.call('GET', `/v1/customers/${ids[ids.length - 1]}`, { token });
    expect(api.app.responseCache.hits).toBe(1);
  });

  it('is off with a budget of 0', async () => {
    const api = await makeTestApi({ responseCacheBytes: 0 });
    const token = api.key('Acme');
    const id = await createCustomer(api, token, 'Ada');
    await api.call('GET', `/v1/customers/${id}`, { token });
    await api.call('GET', `/v1/customers/${id}`, { token });
    expect(api.app.responseCache.hits).toBe(0);
    expect(api.app.responseCache.entries()).toBe(0);
  });
});
