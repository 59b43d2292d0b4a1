/**
 * GET /app/changes/stream over real HTTP on loopback, read with the typed client's `stream` (fetch + SSE parser):
 * writes through the API and from another connection (as the CLI makes them) arrive; other teams' changes and
 * entities the credential may not read never do; Last-Event-ID and ?since= replay; 401/422 are the Error payload;
 * a revoked key's stream ends; shutdown ends every stream and does not hang.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../../../src-main/server/app';
import { changeWatcher } from '../../../../src-main/server/change-watcher';
import { appEventsPlugin } from '../../../../src-main/server/routes/app-events';
import { revokeApiKey } from '../../../../src-main/store/auth/api-keys';
import { createCustomer } from '../../../../src-main/store/customers/write';
import { openDatabase } from '../../../../src-main/store/db';
import { ensureTeam } from '../../../../src-main/store/teams/teams';
import {
  ApiClientError,
  type ChangeEvent,
  createApiClient,
  type StreamItem,
  type StreamOptions,
} from '../../../../src-shared/api-client';
import { customerRoutes } from '../../../../src-shared/contract/customers';
import { tagRoutes } from '../../../../src-shared/contract/tags';
import { makeTestApi, type TestApi } from '../../../helpers/api';

/** An open stream, read in the background into `events`/`items`. */
interface Listener {
  events: ChangeEvent[];
  items: StreamItem[];
  /** The id of the `ready` event (the seq the live feed continues after). */
  ready: Promise<number>;
  /** Resolves when the server ends the stream; rejects on a failure. */
  ended: Promise<void>;
  close(): void;
}

const toClose: Listener[] = [];
afterEach(() => {
  for (const l of toClose.splice(0)) l.close();
});

async function listen(baseUrl: string, token: string, options: StreamOptions = {}): Promise<Listener> {
  const controller = new AbortController();
  const stream = await createApiClient({ baseUrl, token: () => token }).stream('/app/changes/stream', {
    ...options,
    signal: controller.signal,
  });
  const events: ChangeEvent[] = [];
  const items: StreamItem[] = [];
  let markReady: (seq: number) => void = () => {};
  const ready = new Promise<number>((resolve) => {
    markReady = resolve;
  });
  const ended = (async () => {
    try {
      for await (const item of stream) {
        items.push(item);
        if (item.type !== 'event') continue;
        if (item.message.event === 'ready') markReady(Number(item.message.id));
        else if (item.message.event === undefined) {
          const data = JSON.parse(item.message.data) as ChangeEvent;
          expect(item.message.id).toBe(String(data.seq));
          events.push(data);
        }
      }
    } catch (err) {
      if (!controller.signal.aborted) throw err;
    }
  })();
  ended.catch(() => {});
  const listener = { events, items, ready, ended, close: () => controller.abort() };
  toClose.push(listener);
  return listener;
}

async function setup(): Promise<{ api: TestApi; url: string; key: string }> {
  const api = await makeTestApi();
  const url = await api.listen();
  return { api, url, key: api.key('Acme') };
}

const client = (url: string, key: string) => createApiClient({ baseUrl: url, token: () => key });

describe('GET /app/changes/stream', () => {
  it('sends a change made through the API, with the event id equal to its seq', async () => {
    const { url, key } = await setup();
    const l = await listen(url, key);
    const start = await l.ready;
    const created = await client(url, key).call(customerRoutes.create, { body: { name: 'Streamed Ltd' } });
    await expect.poll(() => l.events).toEqual([{ seq: start + 1, entity: 'customer', id: created.id, op: 'upsert' }]);
    await client(url, key).call(customerRoutes.delete, { params: { id: created.id } });
    await expect.poll(() => l.events.at(-1)).toEqual({ seq: start + 2, entity: 'customer', id: created.id, op: 'delete' });
  });

  it('sends a change committed by another connection to the same data dir (as the CLI makes them)', async () => {
    const { api, url, key } = await setup();
    const l = await listen(url, key);
    await l.ready;
    const other = openDatabase(api.dataDir);
    try {
      const customer = createCustomer(other, ensureTeam(other, 'Acme').id, { name: 'From the CLI' });
      await expect.poll(() => l.events.map((e) => e.id), { timeout: 3000 }).toEqual([customer.id]);
    } finally {
      other.close();
    }
  });

  it("never sends another team's changes", async () => {
    const { api, url, key } = await setup();
    const l = await listen(url, key);
    await l.ready;
    const otherKey = api.key('Other Co');
    const theirs = await client(url, otherKey).call(customerRoutes.create, { body: { name: 'Not yours' } });
    const theirTag = await client(url, otherKey).call(tagRoutes.create, { body: { name: 'secret' } });
    const mine = await client(url, key).call(customerRoutes.create, { body: { name: 'Mine' } });
    await expect.poll(() => l.events.map((e) => e.id)).toContain(mine.id);
    // Theirs were committed first, so any tick that could carry them has passed.
    expect(JSON.stringify(l.items)).not.toContain(theirs.id);
    expect(JSON.stringify(l.items)).not.toContain(theirTag.id);
    expect(l.events.map((e) => e.id)).toEqual([mine.id]);
  });

  it('sends only the entities the credential may read', async () => {
    const { api, url, key } = await setup();
    const tagsOnly = await listen(url, api.key('Acme', ['tags.read']));
    const customersOnly = await listen(url, api.key('Acme', ['customers.read']));
    const reader = await listen(url, api.key('Acme', ['apis.read']));
    await Promise.all([tagsOnly.ready, customersOnly.ready, reader.ready]);
    const customer = await client(url, key).call(customerRoutes.create, { body: { name: 'Hidden from tags.read' } });
    const tag = await client(url, key).call(tagRoutes.create, { body: { name: 'visible' } });
    await expect.poll(() => tagsOnly.events.map((e) => e.id)).toEqual([tag.id]);
    await expect.poll(() => customersOnly.events.map((e) => e.id)).toEqual([customer.id]);
    await expect.poll(() => reader.events.map((e) => e.entity)).toEqual(['customer', 'tag']);
    expect(JSON.stringify(tagsOnly.items)).not.toContain(customer.id);
  });

  it('replays what was missed after Last-Event-ID, then continues live', async () => {
    const { url, key } = await setup();
    const first = await listen(url, key);
    const a = await client(url, key).call(customerRoutes.create, { body: { name: 'Seen' } });
    await expect.poll(() => first.events.length).toBe(1);
    const lastSeen = first.events[0]!.seq;
    first.close();

    const b = await client(url, key).call(customerRoutes.create, { body: { name: 'Missed 1' } });
    const c = await client(url, key).call(tagRoutes.create, { body: { name: 'missed-tag' } });
    await client(url, key).call(customerRoutes.update, { params: { id: a.id }, body: { city: 'Bonn' } });

    const resumed = await listen(url, key, { lastEventId: String(lastSeen) });
    const position = await resumed.ready;
    // One event per record, at its latest change: `a` shows once, with its update's seq.
    expect(resumed.events.map((e) => [e.id, e.seq])).toEqual([
      [b.id, lastSeen + 1],
      [c.id, lastSeen + 2],
      [a.id, lastSeen + 3],
    ]);
    expect(position).toBe(lastSeen + 3);
    const d = await client(url, key).call(customerRoutes.create, { body: { name: 'Live again' } });
    await expect.poll(() => resumed.events.at(-1)?.id).toBe(d.id);

    const fromQuery = await listen(url, key, { query: { since: lastSeen + 2 } });
    await fromQuery.ready;
    expect(fromQuery.events.map((e) => e.id)).toEqual([a.id, d.id]);
  });

  it('starts at the present without Last-Event-ID or since', async () => {
    const { url, key } = await setup();
    await client(url, key).call(customerRoutes.create, { body: { name: 'Before' } });
    const l = await listen(url, key);
    expect(await l.ready).toBe(1);
    expect(l.events).toEqual([]);
  });

  it('answers 401 with the Error payload without a valid credential, and 422 for a bad Last-Event-ID', async () => {
    const { api, url, key } = await setup();
    for (const token of ['', 'garbage', api.key('Acme', [])]) {
      const err = await createApiClient({ baseUrl: url, token: () => token })
        .stream('/app/changes/stream')
        .catch((e) => e);
      expect(err).toBeInstanceOf(ApiClientError);
      expect(err).toMatchObject({ status: 401, error: 'Unauthorized' });
      expect(err.requestId).toMatch(/\S/);
    }
    const bad = await client(url, key)
      .stream('/app/changes/stream', { lastEventId: 'abc' })
      .catch((e) => e);
    expect(bad).toMatchObject({ status: 422, error: 'Unprocessable Entity' });
    const badSince = await client(url, key)
      .stream('/app/changes/stream', { query: { since: -1 } })
      .catch((e) => e);
    expect(badSince).toMatchObject({ status: 422 });
  });

  it('ends the stream of a key revoked while it is open, before sending it anything more', async () => {
    const { api, url, key } = await setup();
    const doomedKey = api.key('Acme');
    const l = await listen(url, doomedKey);
    await l.ready;
    revokeApiKey(api.db, doomedKey);
    await client(url, key).call(tagRoutes.create, { body: { name: 'after-revocation' } });
    await l.ended;
    expect(l.events).toEqual([]);
    const again = await client(url, doomedKey)
      .stream('/app/changes/stream')
      .catch((e) => e);
    expect(again).toMatchObject({ status: 401 });
  });

  it('sends heartbeat comments while nothing changes', async () => {
    const api = await makeTestApi();
    // A second registration of the plugin with a short heartbeat, behind the real app's auth.
    const app = await createApp({ db: api.db, logLevel: 'silent' });
    await app.register(appEventsPlugin, { db: api.db, heartbeatMs: 50, prefix: '/fast' });
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const port = (app.server.address() as { port: number }).port;
      const res = await fetch(`http://127.0.0.1:${port}/fast/changes/stream`, {
        headers: { authorization: `Bearer ${api.key('Acme')}` },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(res.headers.get('x-request-id')).toMatch(/\S/);
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      while ((text.match(/: heartbeat\n\n/g) ?? []).length < 2) text += decoder.decode((await reader.read()).value);
      expect(text).toMatch(/^retry: 2000\n\nevent: ready\nid: 0\ndata: \{"seq":0\}\n\n: heartbeat\n\n/);
      await reader.cancel();
    } finally {
      await app.close();
    }
  });

  it('ends every open stream on shutdown: app.close() does not hang, and the poller stops', async () => {
    const { api, url, key } = await setup();
    const streams = await Promise.all([listen(url, key), listen(url, key), listen(url, api.key('Other Co'))]);
    await Promise.all(streams.map((s) => s.ready));
    expect(changeWatcher(api.db).subscriberCount).toBe(3);
    const started = Date.now();
    await api.app.close();
    expect(Date.now() - started).toBeLessThan(2000);
    // Ended by the server (the iteration finishes), not cut off.
    await Promise.all(streams.map((s) => s.ended));
    expect(changeWatcher(api.db).subscriberCount).toBe(0);
  });
});
