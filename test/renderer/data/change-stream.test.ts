/**
 * followChanges against the real server over loopback (the typed client in Node): first connection and resync,
 * resuming with Last-Event-ID after the server went away, resync when the server is behind, back-off against a
 * closed port, reconnection after silence, and stop().
 */
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src-main/server/app';
import { changeWatcher } from '../../../src-main/server/change-watcher';
import { type ChangeStream, followChanges, type StreamStatus } from '../../../src-renderer/data/change-stream';
import { type ChangeEvent, createApiClient } from '../../../src-shared/api-client';
import { tagRoutes } from '../../../src-shared/contract/tags';
import { makeTestApi, type TestApi } from '../../helpers/api';

const running: ChangeStream[] = [];
afterEach(() => {
  for (const s of running.splice(0)) s.stop();
});

interface Follower {
  stream: ChangeStream;
  events: ChangeEvent[];
  statuses: StreamStatus[];
  resyncs: number;
  fetches: number[];
}

function follow(
  baseUrl: () => string,
  token: string,
  tuning: { initialDelayMs?: number; maxDelayMs?: number; idleTimeoutMs?: number } = {},
) {
  const f: Follower = { stream: undefined as unknown as ChangeStream, events: [], statuses: [], resyncs: 0, fetches: [] };
  const client = createApiClient({
    baseUrl,
    token: () => token,
    fetch: (input, init) => {
      f.fetches.push(Date.now());
      return fetch(input, init);
    },
  });
  f.stream = followChanges({
    client,
    onChange: (e) => f.events.push(e),
    onResync: () => {
      f.resyncs += 1;
    },
    onStatus: (s) => f.statuses.push(s),
    random: () => 1,
    ...tuning,
  });
  running.push(f.stream);
  return f;
}

async function listening(api: TestApi): Promise<string> {
  return api.listen();
}

describe('followChanges', () => {
  it('goes live, asks for a resync once (it cannot know what came before it), then reports each change', async () => {
    const api = await makeTestApi();
    const url = await listening(api);
    const key = api.key('Acme');
    const f = follow(() => url, key);
    await expect.poll(() => f.statuses.at(-1)).toBe('live');
    expect(f.resyncs).toBe(1);
    const tag = await createApiClient({ baseUrl: url, token: () => key }).call(tagRoutes.create, { body: { name: 'live' } });
    await expect.poll(() => f.events).toEqual([{ seq: 1, entity: 'tag', id: tag.id, op: 'upsert' }]);
    expect(f.stream.lastEventId).toBe('1');
    expect(f.resyncs).toBe(1);
  });

  it('reconnects when the server goes away and resumes with Last-Event-ID: nothing made meanwhile is lost', async () => {
    const api = await makeTestApi();
    const first = await listening(api);
    const key = api.key('Acme');
    const tags = () => createApiClient({ baseUrl: first, token: () => key });
    let current = first;
    const f = follow(() => current, key, { initialDelayMs: 50 });
    await expect.poll(() => f.statuses.at(-1)).toBe('live');
    await tags().call(tagRoutes.create, { body: { name: 'before' } });
    await expect.poll(() => f.events.length).toBe(1);

    // A second server on the same data dir takes over; the first shuts down, ending the stream.
    const second = await buildApp({ db: api.db, logLevel: 'silent' });
    await second.listen({ host: '127.0.0.1', port: 0 });
    try {
      current = `http://127.0.0.1:${(second.server.address() as { port: number }).port}`;
      await api.app.close();
      const missed = await createApiClient({ baseUrl: current, token: () => key }).call(tagRoutes.create, {
        body: { name: 'while away' },
      });
      await expect.poll(() => f.events.map((e) => e.id)).toContain(missed.id);
      expect(f.events.map((e) => e.seq)).toEqual([1, 2]);
      expect(f.resyncs).toBe(1);
      expect(f.fetches.length).toBeGreaterThanOrEqual(2);
    } finally {
      f.stream.stop();
      await second.close();
    }
  });

  it('asks for a resync when the server is behind the last id it saw (another database at that address)', async () => {
    const a = await makeTestApi();
    const b = await makeTestApi();
    const urlA = await listening(a);
    const urlB = await listening(b);
    const keyA = a.key('Acme');
    const keyB = b.key('Acme');
    let current = urlA;
    let token = keyA;
    const client = createApiClient({ baseUrl: () => current, token: () => token });
    let resyncs = 0;
    const stream = followChanges({ client, onChange: () => {}, onResync: () => resyncs++, initialDelayMs: 20, random: () => 1 });
    running.push(stream);
    await expect.poll(() => resyncs).toBe(1);
    await createApiClient({ baseUrl: urlA, token: () => keyA }).call(tagRoutes.create, { body: { name: 'x' } });
    await expect.poll(() => stream.lastEventId).toBe('1');
    current = urlB;
    token = keyB;
    await a.app.close();
    await expect.poll(() => resyncs).toBe(2);
    expect(stream.lastEventId).toBe('0');
  });

  it('backs off exponentially while the server cannot be reached', async () => {
    const api = await makeTestApi();
    const url = await listening(api);
    await api.app.close();
    const f = follow(() => url, 'finops_unused', { initialDelayMs: 40, maxDelayMs: 160 });
    await expect.poll(() => f.fetches.length, { timeout: 3000 }).toBeGreaterThanOrEqual(5);
    f.stream.stop();
    const gaps = f.fetches.slice(1, 5).map((t, i) => t - f.fetches[i]!);
    // 40, 80, 160, 160 ms (random() = 1 takes the top of each jittered range).
    expect(gaps[0]).toBeGreaterThanOrEqual(35);
    expect(gaps[1]).toBeGreaterThanOrEqual(75);
    expect(gaps[2]).toBeGreaterThanOrEqual(150);
    expect(gaps[3]).toBeGreaterThanOrEqual(150);
    expect(gaps[3]).toBeLessThan(400);
    expect(f.statuses).toContain('retrying');
    expect(f.statuses).not.toContain('live');
  });

  it('takes a silent connection for dead and reconnects', async () => {
    const api = await makeTestApi();
    const url = await listening(api);
    const f = follow(() => url, api.key('Acme'), { idleTimeoutMs: 150, initialDelayMs: 20 });
    await expect.poll(() => f.fetches.length, { timeout: 3000 }).toBeGreaterThanOrEqual(3);
    expect(f.statuses.filter((s) => s === 'live').length).toBeGreaterThanOrEqual(2);
  });

  it('stops: no further connection, and the server drops its subscriber', async () => {
    const api = await makeTestApi();
    const url = await listening(api);
    const f = follow(() => url, api.key('Acme'));
    await expect.poll(() => f.statuses.at(-1)).toBe('live');
    expect(changeWatcher(api.db).subscriberCount).toBe(1);
    f.stream.stop();
    await expect.poll(() => f.statuses.at(-1)).toBe('stopped');
    await expect.poll(() => changeWatcher(api.db).subscriberCount).toBe(0);

    const fetches = f.fetches.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(f.fetches.length).toBe(fetches);
  });
});
