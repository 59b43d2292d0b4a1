import { describe, expect, it } from 'vitest';
import { createClient } from '../../../../src-main/store/auth/oauth/clients';
import { createAuthorizationCode, exchangeAuthorizationCode } from '../../../../src-main/store/auth/oauth/codes';
import { createNotification, updateNotificationStatus } from '../../../../src-main/store/notifications/notifications';
import { createUser } from '../../../../src-main/store/users/users';
import { write } from '../../../../src-main/store/write';
import { Notification } from '../../../../src-shared/contract/notifications';
import { makeTestApi, type TestApi } from '../../../helpers/api';

/** An OAuth access token granted by this user (authorization code flow through the store): the caller is that user. */
function userToken(api: TestApi, teamId: string, userId: string): string {
  const redirectUri = 'http://127.0.0.1/callback';
  const { client } = createClient(api.db, teamId, {
    name: 'App',
    scopes: ['apis.all'],
    redirectUris: [redirectUri],
    isPublic: false,
  });
  const { code } = createAuthorizationCode(api.db, { client, userId, scopes: ['apis.all'], redirectUri, codeChallenge: null });
  const issued = exchangeAuthorizationCode(api.db, { client, code, redirectUri, codeVerifier: undefined });
  if (!issued.ok) throw new Error(issued.description);
  return issued.accessToken;
}

async function setup() {
  const api = await makeTestApi();
  const key = api.key('Notify Team');
  const teamId = api.team('Notify Team').id;
  const owner = createUser(api.db, teamId, { email: 'owner@notify.test', passwordHash: 'x' }).user;
  const member = createUser(api.db, teamId, { email: 'member@notify.test', passwordHash: 'x', role: 'member' }).user;
  return { api, key, teamId, owner: owner.id, member: member.id };
}

describe('notifications', () => {
  it('lists the caller’s own and the team’s notifications, newest first, with the spec’s fields', async () => {
    const { api, key, teamId, owner, member } = await setup();
    const at = (n: number) => `2026-01-0${n}T10:00:00.000Z`;
    const made = [
      write(
        api.db,
        teamId,
        () =>
          createNotification(api.db, teamId, { type: 'invoice_paid', priority: 2, userId: owner, metadata: { invoiceId: 'i1' } }),
        { now: at(1) },
      ),
      write(
        api.db,
        teamId,
        () => createNotification(api.db, teamId, { type: 'transactions_created', priority: 3, metadata: { count: 12 } }),
        { now: at(2) },
      ),
      write(
        api.db,
        teamId,
        () => createNotification(api.db, teamId, { type: 'inbox_new', priority: 1, userId: member, metadata: {} }),
        { now: at(3) },
      ),
      write(
        api.db,
        teamId,
        () => createNotification(api.db, teamId, { type: 'insight', priority: 7, userId: owner, metadata: {} }),
        { now: at(4) },
      ),
    ];
    // An API key acts for the team's owner: the owner's and the team's, never the member's.
    const res = await api.call('GET', '/v1/notifications', { token: key });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data.map((n: { type: string }) => n.type)).toEqual(['insight', 'transactions_created', 'invoice_paid']);
    const first = Notification.parse(body.data[2]);
    expect(Object.keys(body.data[2]).sort()).toEqual(
      ['createdAt', 'id', 'lastUsedAt', 'metadata', 'priority', 'source', 'status', 'teamId', 'type', 'userId'].sort(),
    );
    expect(first).toEqual({
      id: made[0]!.id,
      createdAt: at(1),
      teamId,
      userId: owner,
      type: 'invoice_paid',
      priority: 2,
      source: 'system',
      status: 'unread',
      metadata: { invoiceId: 'i1' },
      lastUsedAt: null,
    });
    expect(body.meta).toEqual({ cursor: null, hasNextPage: false, hasPreviousPage: false });

    const asMember = userToken(api, teamId, member);
    const theirs = (await api.call('GET', '/v1/notifications', { token: asMember })).json().data;
    expect(theirs.map((n: { type: string }) => n.type)).toEqual(['inbox_new', 'transactions_created']);

    const users = (await api.call('GET', '/v1/notifications?maxPriority=3', { token: key })).json().data;
    expect(users.map((n: { type: string }) => n.type)).toEqual(['transactions_created', 'invoice_paid']);
    const exact = (await api.call('GET', '/v1/notifications?priority=7', { token: key })).json().data;
    expect(exact.map((n: { type: string }) => n.type)).toEqual(['insight']);
    for (const q of ['priority=0', 'maxPriority=11', 'pageSize=0', 'pageSize=101', 'status=gone']) {
      expect((await api.call('GET', `/v1/notifications?${q}`, { token: key })).statusCode, q).toBe(422);
    }
  });

  it('pages with an opaque cursor and filters by status', async () => {
    const { api, key, teamId } = await setup();
    write(api.db, teamId, () => {
      for (let i = 0; i < 7; i++) createNotification(api.db, teamId, { type: `t${i}`, priority: 2, metadata: { i } });
    });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url: string = `/v1/notifications?pageSize=3${cursor ? `&cursor=${cursor}` : ''}`;
      const page = (await api.call('GET', url, { token: key })).json();
      expect(page.meta.hasPreviousPage).toBe(cursor !== null);
      seen.push(...page.data.map((n: { type: string }) => n.type));
      cursor = page.meta.cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    // Same instant: newest id first.
    expect(seen).toEqual(['t6', 't5', 't4', 't3', 't2', 't1', 't0']);
    const wrong = await api.call(
      'GET',
      `/v1/notifications?pageSize=3&status=read&cursor=${(await api.call('GET', '/v1/notifications?pageSize=3', { token: key })).json().meta.cursor}`,
      { token: key },
    );
    expect(wrong.statusCode).toBe(422);

    const some = (await api.call('GET', '/v1/notifications?pageSize=2', { token: key })).json().data;
    await api.call('PATCH', `/v1/notifications/${some[0].id}/status`, { token: key, body: { status: 'archived' } });
    await api.call('PATCH', `/v1/notifications/${some[1].id}/status`, { token: key, body: { status: 'read' } });
    expect((await api.call('GET', '/v1/notifications?status=unread', { token: key })).json().data).toHaveLength(5);
    expect((await api.call('GET', '/v1/notifications?status=read&status=archived', { token: key })).json().data).toHaveLength(2);
  });

  it('changes one status → {data}; another user’s notification is 404', async () => {
    const { api, key, teamId, member } = await setup();
    const theirs = createNotification(api.db, teamId, { type: 'inbox_new', priority: 1, userId: member });
    const team = createNotification(api.db, teamId, { type: 'transactions_created', priority: 3 });
    const res = await api.call('PATCH', `/v1/notifications/${team.id}/status`, { token: key, body: { status: 'read' } });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json())).toEqual(['data']);
    expect(res.json().data).toMatchObject({ id: team.id, status: 'read' });
    expect(res.json().data.lastUsedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    const denied = await api.call('PATCH', `/v1/notifications/${theirs.id}/status`, { token: key, body: { status: 'read' } });
    expect(denied.statusCode).toBe(404);
    expect(
      (await api.call('PATCH', `/v1/notifications/${team.id}/status`, { token: key, body: { status: 'done' } })).statusCode,
    ).toBe(422);
    const other = api.key('Another Team');
    expect(
      (await api.call('PATCH', `/v1/notifications/${team.id}/status`, { token: other, body: { status: 'archived' } })).statusCode,
    ).toBe(404);
  });

  it('updates all of the caller’s notifications only, returning those it changed', async () => {
    const { api, key, teamId, owner, member } = await setup();
    const mine = createNotification(api.db, teamId, { type: 'invoice_overdue', priority: 2, userId: owner });
    const shared = createNotification(api.db, teamId, { type: 'transactions_created', priority: 3 });
    const already = createNotification(api.db, teamId, { type: 'invoice_sent', priority: 2, userId: owner });
    await api.call('PATCH', `/v1/notifications/${already.id}/status`, { token: key, body: { status: 'read' } });
    const theirs = createNotification(api.db, teamId, { type: 'inbox_new', priority: 1, userId: member });
    const otherTeam = api.team('Elsewhere').id;
    const foreign = createNotification(api.db, otherTeam, { type: 'inbox_new', priority: 1 });

    const res = await api.call('POST', '/v1/notifications/update-all-status', { token: key, body: { status: 'read' } });
    expect(res.statusCode).toBe(200);
    expect(
      res
        .json()
        .data.map((n: { id: string }) => n.id)
        .sort(),
    ).toEqual([mine.id, shared.id].sort());
    expect(res.json().data.every((n: { status: string }) => n.status === 'read')).toBe(true);
    const status = (id: string, team = teamId) =>
      api.db.prepare('SELECT status FROM notifications WHERE team_id = ? AND id = ?').pluck().get(team, id);
    expect(status(theirs.id)).toBe('unread');
    expect(status(foreign.id, otherTeam)).toBe('unread');
    expect(
      (await api.call('POST', '/v1/notifications/update-all-status', { token: key, body: { status: 'read' } })).json(),
    ).toEqual({
      data: [],
    });
    // The member archives theirs and the team's; the owner's stay read.
    const asMember = userToken(api, teamId, member);
    const archived = await api.call('POST', '/v1/notifications/update-all-status', {
      token: asMember,
      body: { status: 'archived' },
    });
    expect(
      archived
        .json()
        .data.map((n: { id: string }) => n.id)
        .sort(),
    ).toEqual([theirs.id, shared.id].sort());
    expect(status(mine.id)).toBe('read');
    expect((await api.call('POST', '/v1/notifications/update-all-status', { token: key, body: {} })).statusCode).toBe(422);
  });

  it('each member reads a team-wide notification for themselves; the record (what syncs) keeps its own status', async () => {
    const { api, key, teamId, member } = await setup();
    const shared = createNotification(api.db, teamId, { type: 'transactions_created', priority: 3 });
    const asMember = userToken(api, teamId, member);
    const listed = async (token: string, query = '') =>
      (await api.call('GET', `/v1/notifications${query}`, { token })).json().data.map((n: Notification) => [n.id, n.status]);
    const seqBefore = api.db.prepare('SELECT change_seq FROM teams WHERE id = ?').pluck().get(teamId) as number;

    // The owner (the API key acts for them) reads it: the member still sees it unread.
    const read = await api.call('PATCH', `/v1/notifications/${shared.id}/status`, { token: key, body: { status: 'read' } });
    expect(read.json().data).toMatchObject({ id: shared.id, status: 'read' });
    expect(read.json().data.lastUsedAt).not.toBeNull();
    expect(await listed(key)).toEqual([[shared.id, 'read']]);
    expect(await listed(asMember)).toEqual([[shared.id, 'unread']]);
    expect(await listed(asMember, '?status=unread')).toEqual([[shared.id, 'unread']]);
    expect(await listed(key, '?status=unread')).toEqual([]);
    // The record keeps its status; the change feed still tells live screens that it moved.
    const record = api.db.prepare('SELECT status, last_used_at FROM notifications WHERE id = ?').get(shared.id);
    expect(record).toEqual({ status: 'unread', last_used_at: null });
    const seqAfter = api.db.prepare('SELECT change_seq FROM teams WHERE id = ?').pluck().get(teamId) as number;
    expect(seqAfter).toBeGreaterThan(seqBefore);

    // The member archives it for themselves; the owner's read stays.
    const all = await api.call('POST', '/v1/notifications/update-all-status', { token: asMember, body: { status: 'archived' } });
    expect(all.json().data.map((n: Notification) => [n.id, n.status])).toEqual([[shared.id, 'archived']]);
    expect(await listed(key)).toEqual([[shared.id, 'read']]);
    // A change of the record itself (a sync pull: no member) is what members who never touched it see.
    const later = createNotification(api.db, teamId, { type: 'invoice_paid', priority: 2 });
    write(api.db, teamId, () => updateNotificationStatus(api.db, teamId, undefined, later.id, 'read'), { origin: 'sync' });
    expect(await listed(asMember, '?status=read')).toEqual([[later.id, 'read']]);
  });

  it('creates notifications through the write path, checking what other areas pass', async () => {
    const { api, teamId, member } = await setup();
    const n = createNotification(api.db, teamId, {
      type: 'transactions_created',
      priority: 3,
      userId: member,
      metadata: { count: 3 },
    });
    expect(api.db.prepare("SELECT op, origin FROM changes WHERE entity = 'notification' AND entity_id = ?").get(n.id)).toEqual({
      op: 'upsert',
      origin: 'local',
    });
    const fromImport = write(
      api.db,
      teamId,
      () => createNotification(api.db, teamId, { type: 'transactions_created', priority: 3 }),
      {
        origin: 'import',
      },
    );
    expect(
      api.db.prepare("SELECT origin FROM changes WHERE entity = 'notification' AND entity_id = ?").pluck().get(fromImport.id),
    ).toBe('import');
    expect(() => createNotification(api.db, teamId, { type: 'x', priority: 11 })).toThrow(/1 to 10/);
    expect(() => createNotification(api.db, teamId, { type: ' ', priority: 1 })).toThrow(/type/);
    expect(() => createNotification(api.db, teamId, { type: 'x', priority: 1, userId: 'stranger' })).toThrow(/not a member/);
    // Rolled back with the action that made it.
    expect(() =>
      write(api.db, teamId, () => {
        createNotification(api.db, teamId, { type: 'doomed', priority: 2 });
        throw new Error('the import failed');
      }),
    ).toThrow('the import failed');
    expect(api.db.prepare("SELECT count(*) FROM notifications WHERE type = 'doomed'").pluck().get()).toBe(0);
  });
});
