/**
 * The Sync screen's API under /app against a real second server on loopback: status, connecting a remote, the kept
 * credential (never in SQLite, never answered back), the connection test and its reasons, "sync now" with and
 * without the server's scheduler, offline, conflicts with both values and a person's choice, the owner-only
 * refusal, and team isolation.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { processSecretStore, sessionSecretStore } from '../../../../src-main/infra/secret-store';
import { backgroundOf } from '../../../../src-main/runtime/background';
import { createSession } from '../../../../src-main/store/auth/sessions';
import { createUser } from '../../../../src-main/store/users/users';
import { makeTestApi, type TestApi } from '../../../helpers/api';
import { type Replica, remoteReplica, replica } from '../../sync/helpers';

// biome-ignore lint/suspicious/noExplicitAny: test bodies are read as whatever the route answers
type Body = any;

async function call(local: Replica, method: string, url: string, body?: unknown, token = local.token) {
  const res = await local.api.call(method, url, { token, body });
  return { status: res.statusCode, body: (res.body ? JSON.parse(res.body) : null) as Body, raw: res.body };
}

/** Polls the status until no round runs, then answers it. */
async function settled(local: Replica, timeoutMs = 20_000): Promise<Body> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const s = (await call(local, 'GET', '/app/sync/status')).body;
    if (s.remote?.state !== 'running') return s;
    if (Date.now() > until) throw new Error(`the round did not end: ${JSON.stringify(s)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function connect(local: Replica, remote: { url: string; token: string }): Promise<void> {
  expect((await call(local, 'PUT', '/app/sync/remote', { baseUrl: remote.url })).status).toBe(200);
  expect((await call(local, 'PUT', '/app/sync/credential', { apiKey: remote.token })).status).toBe(200);
}

async function syncNow(local: Replica): Promise<Body> {
  const res = await call(local, 'POST', '/app/sync/run');
  expect(res.status, res.raw).toBe(202);
  const s = await settled(local);
  expect(s.remote.lastError).toBeNull();
  return s;
}

/** A cookie and CSRF token of a signed-in person of the team with the given role. */
async function sessionOf(api: TestApi, teamId: string, email: string, role: 'owner' | 'member') {
  const { user } = createUser(api.db, teamId, { email, passwordHash: 'x', role });
  const { token } = createSession(api.db, { teamId, userId: user.id });
  const cookie = `finops_session=${token}`;
  const csrf = (await api.call('GET', '/app/session', { headers: { cookie } })).json().csrfToken as string;
  return { cookie, 'x-csrf-token': csrf };
}

describe('/app/sync', () => {
  it('connects a remote, keeps the key out of the database and the answers, and tests the connection', async () => {
    const remote = await remoteReplica('Remote Books');
    const local = await replica();
    const none = await call(local, 'GET', '/app/sync/status');
    expect(none.body).toMatchObject({
      remote: null,
      online: true,
      pendingChanges: 0,
      openConflicts: 0,
      credential: { present: false, from: null },
      scheduled: false,
      canManage: true,
    });
    expect(none.body.secretStorage).toBe((await processSecretStore()).store.kind);

    // Bad addresses are refused with the field named.
    for (const baseUrl of ['ftp://example.com/v1', 'https://example.com/api', 'not a url']) {
      const bad = await call(local, 'PUT', '/app/sync/remote', { baseUrl });
      expect(bad.status, baseUrl).toBe(422);
      expect(bad.body.description).toContain('body.baseUrl');
    }
    // A credential needs a remote to belong to.
    expect((await call(local, 'PUT', '/app/sync/credential', { apiKey: remote.token })).status).toBe(409);

    const put = await call(local, 'PUT', '/app/sync/remote', { baseUrl: `${remote.url}/`, name: 'Head office' });
    expect(put.body.remote).toMatchObject({ baseUrl: remote.url, kind: 'finops', name: 'Head office', state: 'idle' });
    expect(put.body.credential.present).toBe(false);
    // One remote per team.
    const second = await call(local, 'PUT', '/app/sync/remote', { baseUrl: 'http://127.0.0.1:9/v1' });
    expect(second.status).toBe(409);
    expect(second.body.message).toMatch(/already syncs with another remote/);

    const kept = await call(local, 'PUT', '/app/sync/credential', { apiKey: remote.token });
    expect(kept.body.credential).toEqual({ present: true, from: kept.body.secretStorage });
    expect(kept.raw).not.toContain(remote.token);
    const dbFiles = fs.readdirSync(local.api.dataDir).filter((f) => /\.(db|sqlite)(-wal)?$/.test(f) || f.endsWith('-wal'));
    expect(dbFiles.length).toBeGreaterThan(0);
    for (const f of dbFiles) expect(fs.readFileSync(path.join(local.api.dataDir, f)).includes(remote.token), f).toBe(false);

    // The test with the kept key, and with one typed in.
    const found = await call(local, 'POST', '/app/sync/test', { baseUrl: remote.url });
    expect(found.body).toEqual({
      ok: true,
      reason: null,
      reachable: true,
      team: { id: remote.teamId, name: 'Remote Books', baseCurrency: 'EUR' },
      baseCurrency: 'EUR',
    });
    expect((await call(local, 'POST', '/app/sync/test', { baseUrl: remote.url, apiKey: remote.token })).body.ok).toBe(true);

    const wrongKey = await call(local, 'POST', '/app/sync/test', { baseUrl: remote.url, apiKey: `finops_${'0'.repeat(64)}` });
    expect(wrongKey.body).toMatchObject({
      ok: false,
      reachable: true,
      team: null,
      reason: expect.stringMatching(/did not accept this API key \(401\)/),
    });
    const narrow = remote.api.key('Remote Books', ['tags.read']);
    const refused = await call(local, 'POST', '/app/sync/test', { baseUrl: remote.url, apiKey: narrow });
    expect(refused.body.reason).toMatch(/\(403\).*apis\.all/);
    const nowhere = await call(local, 'POST', '/app/sync/test', { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'x' });
    expect(nowhere.body).toMatchObject({
      ok: false,
      reachable: false,
      reason: expect.stringMatching(/^No answer from http:\/\/127\.0\.0\.1:9\./),
    });
    const notV1 = await call(local, 'POST', '/app/sync/test', {
      baseUrl: `${remote.url.replace(/\/v1$/, '/app/v1')}`,
      apiKey: remote.token,
    });
    expect(notV1.body).toMatchObject({
      ok: false,
      reachable: true,
      reason: expect.stringMatching(/answered GET \/teams with 404 but no team/),
    });
    const dollars = remote.api.team('Dollar Books');
    remote.api.db.prepare("UPDATE teams SET base_currency = 'USD' WHERE id = ?").run(dollars.id);
    const usd = await call(local, 'POST', '/app/sync/test', { baseUrl: remote.url, apiKey: remote.api.key('Dollar Books') });
    expect(usd.body).toMatchObject({
      ok: false,
      team: { name: 'Dollar Books', baseCurrency: 'USD' },
      reason: expect.stringMatching(/^The remote team keeps its books in USD, this one in EUR/),
    });
    // No key typed and none kept for that address.
    expect((await call(local, 'POST', '/app/sync/test', { baseUrl: 'http://127.0.0.1:9/v1' })).status).toBe(422);

    // Disconnecting drops the kept key too.
    const gone = await call(local, 'DELETE', '/app/sync/remote');
    expect(gone.body).toMatchObject({ remote: null, credential: { present: false } });
    expect((await call(local, 'DELETE', '/app/sync/remote')).status).toBe(404);
    await connect(local, remote);
    expect((await call(local, 'GET', '/app/sync/status')).body.credential.present).toBe(true);
  });

  it('syncs now in the request’s background, reports progress and pending changes, and resolves a conflict', async () => {
    const remote = await remoteReplica();
    const local = await replica();
    const tag = (await remote.call('POST', '/v1/tags', { name: 'Travel' })).body;
    await local.call('POST', '/v1/tags', { name: 'Office' });
    expect((await call(local, 'POST', '/app/sync/run')).status).toBe(409); // no remote yet
    await call(local, 'PUT', '/app/sync/remote', { baseUrl: remote.url });
    const noKey = await call(local, 'POST', '/app/sync/run');
    expect(noKey.status).toBe(409);
    expect(noKey.body.message).toBe('No credential for the remote');
    await call(local, 'PUT', '/app/sync/credential', { apiKey: remote.token });
    expect((await call(local, 'GET', '/app/sync/status')).body.pendingChanges).toBe(1);

    const started = await call(local, 'POST', '/app/sync/run');
    expect(started.status).toBe(202);
    expect(started.body.remote.state).toBe('running');
    const done = await settled(local);
    expect(done).toMatchObject({
      online: true,
      pendingChanges: 0,
      openConflicts: 0,
      remote: { state: 'idle', lastError: null, remoteTeamId: remote.teamId, progress: { phase: 'done' } },
    });
    expect(done.remote.lastSummary).toMatchObject({ pulled: 1, pushed: 1, conflicts: 0 });
    expect(done.remote.lastSuccessAt).not.toBeNull();
    expect((await local.call('GET', `/v1/tags/${tag.id}`)).body.name).toBe('Travel');

    // Both sides rename the tag: the remote's name wins by the rule, the conflict keeps both.
    await local.call('PATCH', `/v1/tags/${tag.id}`, { name: 'Trips' });
    await remote.call('PATCH', `/v1/tags/${tag.id}`, { name: 'Journeys' });
    const after = await syncNow(local);
    expect(after.openConflicts).toBe(1);
    const list = await call(local, 'GET', '/app/sync/conflicts');
    expect(list.body.data).toEqual([
      expect.objectContaining({
        entity: 'tag',
        recordId: tag.id,
        kind: 'fields',
        fields: ['name'],
        base: { name: 'Travel' },
        local: { name: 'Trips' },
        remote: { name: 'Journeys' },
        kept: 'remote',
        resolvedAt: null,
        took: null,
      }),
    ]);
    expect((await local.call('GET', `/v1/tags/${tag.id}`)).body.name).toBe('Journeys');

    const resolved = await call(local, 'POST', `/app/sync/conflicts/${list.body.data[0].id}/resolve`, { take: 'local' });
    expect(resolved.body).toMatchObject({ took: 'local', resolvedAt: expect.any(String) });
    expect((await local.call('GET', `/v1/tags/${tag.id}`)).body.name).toBe('Trips');
    const again = await call(local, 'POST', `/app/sync/conflicts/${list.body.data[0].id}/resolve`, { take: 'remote' });
    expect(again.status).toBe(409);
    expect((await call(local, 'GET', '/app/sync/conflicts')).body.data).toEqual([]);
    expect((await call(local, 'GET', '/app/sync/conflicts?all=true')).body.data).toHaveLength(1);
    // The value taken syncs like any edit.
    const pushed = await syncNow(local);
    expect(pushed.openConflicts).toBe(0);
    expect((await remote.call('GET', `/v1/tags/${tag.id}`)).body.name).toBe('Trips');
  });

  it('takes one side of many conflicts at once, saying which it could not take and why', async () => {
    const remote = await remoteReplica();
    const local = await replica();
    await connect(local, remote);
    const names = ['Travel', 'Office', 'Meals'];
    const tags: Body[] = [];
    for (const name of names) tags.push((await local.call('POST', '/v1/tags', { name })).body);
    await syncNow(local);
    for (const tag of tags) {
      await local.call('PATCH', `/v1/tags/${tag.id}`, { name: `${tag.name} (ours)` });
      await remote.call('PATCH', `/v1/tags/${tag.id}`, { name: `${tag.name} (theirs)` });
    }
    expect((await syncNow(local)).openConflicts).toBe(3);
    const open = (await call(local, 'GET', '/app/sync/conflicts')).body.data as Body[];
    const [first, second, third] = open.map((c) => c.id as string);

    // The body is checked like any other: a side, and at least one id.
    for (const body of [{ take: 'local', ids: [] }, { take: 'mine', ids: [first] }, { ids: [first] }]) {
      const bad = await call(local, 'POST', '/app/sync/conflicts/resolve', body);
      expect(bad.status, JSON.stringify(body)).toBe(422);
    }
    const done = await call(local, 'POST', '/app/sync/conflicts/resolve', {
      take: 'local',
      ids: [first, second, first, 'no-such-conflict'],
    });
    expect(done.status, done.raw).toBe(200);
    expect(done.body.resolved.map((c: Body) => [c.id, c.took])).toEqual([
      [first, 'local'],
      [second, 'local'],
    ]);
    expect(done.body.failed).toEqual([{ id: 'no-such-conflict', message: expect.stringMatching(/conflict/i) }]);
    // Taken one by one as before: the local names hold, the third still waits; an already taken one says so.
    const byId = new Map(open.map((c) => [c.id, c.recordId]));
    for (const id of [first, second])
      expect((await local.call('GET', `/v1/tags/${byId.get(id)}`)).body.name).toMatch(/\(ours\)$/);
    const again = await call(local, 'POST', '/app/sync/conflicts/resolve', { take: 'remote', ids: [first, third] });
    expect(again.body.resolved.map((c: Body) => c.id)).toEqual([third]);
    expect(again.body.failed).toEqual([{ id: first, message: 'This conflict is already resolved' }]);
    expect((await local.call('GET', `/v1/tags/${byId.get(third)}`)).body.name).toMatch(/\(theirs\)$/);
    expect((await syncNow(local)).openConflicts).toBe(0);
    for (const id of [first, second])
      expect((await remote.call('GET', `/v1/tags/${byId.get(id)}`)).body.name).toMatch(/\(ours\)$/);
  });

  it('asks the server’s scheduler for a round when it runs one, and says offline when the remote cannot be reached', async () => {
    const remote = await remoteReplica();
    const store = sessionSecretStore();
    const api = await makeTestApi({ sync: { secretStore: store, pollMs: 20, intervalMs: 3_600_000, debounceMs: 3_600_000 } });
    const local: Replica = {
      api,
      teamId: api.team('Acme').id,
      token: api.key('Acme'),
      call: async () => ({ status: 0, body: null }),
    };
    await remote.call('POST', '/v1/tags', { name: 'Scheduled' });
    await connect(local, remote);
    // The scheduler and the routes share one store: the key entered is the one the round uses.
    expect((await call(local, 'GET', '/app/sync/status')).body).toMatchObject({
      scheduled: true,
      credential: { present: true, from: 'session-only' },
    });
    await call(local, 'POST', '/app/sync/run');
    await backgroundOf(api.db)?.sync?.idle();
    const s = await settled(local);
    expect(s.remote).toMatchObject({ state: 'idle', lastSummary: { pulled: 1 } });

    // The remote goes away: the next round fails for the network, and the status says offline.
    await remote.api.app.close();
    await call(local, 'POST', '/app/sync/run');
    const until = Date.now() + 30_000;
    let offline: Body;
    do {
      await new Promise((r) => setTimeout(r, 100));
      offline = (await call(local, 'GET', '/app/sync/status')).body;
    } while (offline.remote.state !== 'failed' && Date.now() < until);
    expect(offline).toMatchObject({
      online: false,
      remote: { state: 'failed', lastError: expect.stringMatching(/no answer after/) },
    });
  });

  it('is team administration: a member is refused (and sees the state), an owner is not; nothing crosses teams', async () => {
    const remote = await remoteReplica();
    const local = await replica();
    await connect(local, remote);
    await syncNow(local);
    const tag = (await local.call('POST', '/v1/tags', { name: 'Shared' })).body;
    await syncNow(local);
    await local.call('PATCH', `/v1/tags/${tag.id}`, { name: 'Ours' });
    await remote.call('PATCH', `/v1/tags/${tag.id}`, { name: 'Theirs' });
    await syncNow(local);
    const conflictId = (await call(local, 'GET', '/app/sync/conflicts')).body.data[0].id as string;

    const member = await sessionOf(local.api, local.teamId, 'member@acme.test', 'member');
    const asMember = (method: string, url: string, body?: unknown) =>
      local.api.call(method, url, { headers: member, ...(body === undefined ? {} : { body }) });
    const status = await asMember('GET', '/app/sync/status');
    expect(status.statusCode).toBe(200);
    expect(status.json()).toMatchObject({ canManage: false, remote: { baseUrl: remote.url } });
    expect((await asMember('GET', '/app/sync/conflicts')).json().data).toHaveLength(1);
    for (const [method, url, body] of [
      ['PUT', '/app/sync/remote', { baseUrl: 'http://127.0.0.1:9/v1' }],
      ['DELETE', '/app/sync/remote', undefined],
      ['PUT', '/app/sync/credential', { apiKey: 'stolen' }],
      ['POST', '/app/sync/test', { baseUrl: remote.url }],
      ['POST', '/app/sync/run', undefined],
      ['POST', `/app/sync/conflicts/${conflictId}/resolve`, { take: 'local' }],
      ['POST', '/app/sync/conflicts/resolve', { take: 'local', ids: [conflictId] }],
    ] as const) {
      const res = await asMember(method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().message).toBe('Only an owner of the team may change how it syncs');
    }
    // A key without a person needs apis.all; teams.write alone is not team administration.
    const narrow = local.api.key('Acme', ['teams.read', 'teams.write']);
    expect((await call(local, 'POST', '/app/sync/run', undefined, narrow)).status).toBe(403);
    expect((await call(local, 'GET', '/app/sync/status', undefined, narrow)).body.canManage).toBe(false);
    // Nothing changed for the refusals.
    expect((await call(local, 'GET', '/app/sync/conflicts')).body.data[0].resolvedAt).toBeNull();
    expect((await call(local, 'GET', '/app/sync/status')).body.remote.baseUrl).toBe(remote.url);

    const owner = await sessionOf(local.api, local.teamId, 'owner@acme.test', 'owner');
    const resolved = await local.api.call('POST', `/app/sync/conflicts/${conflictId}/resolve`, {
      headers: owner,
      body: { take: 'remote' },
    });
    expect(resolved.statusCode, resolved.body).toBe(200);

    // Another team of the same server sees none of it.
    const other = local.api.key('Other Co');
    expect((await call(local, 'GET', '/app/sync/status', undefined, other)).body).toMatchObject({
      remote: null,
      openConflicts: 0,
    });
    expect((await call(local, 'GET', '/app/sync/conflicts?all=true', undefined, other)).body.data).toEqual([]);
    expect((await call(local, 'POST', `/app/sync/conflicts/${conflictId}/resolve`, { take: 'local' }, other)).status).toBe(404);
    const foreign = await call(local, 'POST', '/app/sync/conflicts/resolve', { take: 'local', ids: [conflictId] }, other);
    expect(foreign.body).toEqual({ resolved: [], failed: [{ id: conflictId, message: expect.any(String) }] });
    expect((await call(local, 'POST', '/app/sync/run', undefined, other)).status).toBe(409);
    expect((await call(local, 'DELETE', '/app/sync/remote', undefined, other)).status).toBe(404);
    // Its own remote at the same address keeps its own key: the first team's key never serves it.
    await call(local, 'PUT', '/app/sync/remote', { baseUrl: remote.url }, other);
    expect((await call(local, 'GET', '/app/sync/status', undefined, other)).body.credential.present).toBe(false);
    expect((await call(local, 'POST', '/app/sync/test', { baseUrl: remote.url }, other)).status).toBe(422);
  });
});
