/**
 * Teams and users over the real app: the credential's team only (another team's id is 404), owners-only changes for
 * user credentials, members, and /users/me for a user's own OAuth token and for an API key (which acts for the
 * team owner: the acting-user rule).
 */
import { describe, expect, it } from 'vitest';
import { createApiKey } from '../../../../src-main/store/auth/api-keys';
import { createClient } from '../../../../src-main/store/auth/oauth/clients';
import { createAuthorizationCode, exchangeAuthorizationCode } from '../../../../src-main/store/auth/oauth/codes';
import type { Db } from '../../../../src-main/store/db';
import { createUser } from '../../../../src-main/store/users/users';
import { Team, type TeamMember } from '../../../../src-shared/contract/teams';
import { User } from '../../../../src-shared/contract/users';
import { makeTestApi, type TestApi } from '../../../helpers/api';

/** An OAuth access token granted by this user (authorization code flow, run through the store). */
function userToken(db: Db, teamId: string, userId: string): string {
  const { client } = createClient(db, teamId, {
    name: 'App',
    scopes: ['apis.all'],
    redirectUris: ['http://127.0.0.1/callback'],
    isPublic: false,
  });
  const { code } = createAuthorizationCode(db, {
    client,
    userId,
    scopes: ['apis.all'],
    redirectUri: 'http://127.0.0.1/callback',
    codeChallenge: null,
  });
  const issued = exchangeAuthorizationCode(db, {
    client,
    code,
    redirectUri: 'http://127.0.0.1/callback',
    codeVerifier: undefined,
  });
  if (!issued.ok) throw new Error(issued.description);
  return issued.accessToken;
}

async function setup(): Promise<{ api: TestApi; key: string; teamId: string; ownerId: string; memberId: string }> {
  const api = await makeTestApi();
  const key = api.key('Acme');
  const teamId = api.team('Acme').id;
  const owner = createUser(api.db, teamId, { email: 'olga@acme.test', passwordHash: 'x', fullName: 'Olga Owner' });
  const member = createUser(api.db, teamId, { email: 'max@acme.test', passwordHash: 'x', fullName: 'Max Member' });
  return { api, key, teamId, ownerId: owner.user.id, memberId: member.user.id };
}

describe('teams', () => {
  it("lists and reads only the credential's team; another team's id is 404", async () => {
    const { api, key, teamId } = await setup();
    const otherId = api.team('Other').id;
    const list = await api.call('GET', '/v1/teams', { token: key });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((t: Team) => t.id)).toEqual([teamId]);
    expect(Team.parse((await api.call('GET', `/v1/teams/${teamId}`, { token: key })).json())).toMatchObject({
      name: 'Acme',
      baseCurrency: 'EUR',
      fiscalYearStartMonth: 1,
    });
    for (const [method, path] of [
      ['GET', `/v1/teams/${otherId}`],
      ['GET', `/v1/teams/${otherId}/members`],
      ['PATCH', `/v1/teams/${otherId}`],
    ] as const) {
      const res = await api.call(method, path, { token: key, body: method === 'PATCH' ? { name: 'Taken over' } : undefined });
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.body).not.toContain('Other');
    }
    expect(api.team('Other').name).toBe('Other');
  });

  it('patches base currency, country and fiscal year start; validates; a taken name is 409', async () => {
    const { api, key, teamId } = await setup();
    api.team('Rival');
    const res = await api.call('PATCH', `/v1/teams/${teamId}`, {
      token: key,
      body: { baseCurrency: 'chf', countryCode: 'ch', fiscalYearStartMonth: 4, logoUrl: 'https://acme.test/logo.png' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ baseCurrency: 'CHF', countryCode: 'CH', fiscalYearStartMonth: 4, name: 'Acme' });
    for (const body of [{ fiscalYearStartMonth: 13 }, { baseCurrency: 'EURO' }, { countryCode: 'XX' }, { plan: 'pro' }]) {
      expect((await api.call('PATCH', `/v1/teams/${teamId}`, { token: key, body })).statusCode, JSON.stringify(body)).toBe(422);
    }
    const taken = await api.call('PATCH', `/v1/teams/${teamId}`, { token: key, body: { name: 'Rival' } });
    expect(taken.statusCode).toBe(409);
  });

  it('members are listed owners first; a member’s own credential may read but not change the team', async () => {
    const { api, key, teamId, memberId, ownerId } = await setup();
    const members = (await api.call('GET', `/v1/teams/${teamId}/members`, { token: key })).json().data as TeamMember[];
    expect(members.map((m) => [m.id, m.role, m.fullName])).toEqual([
      [ownerId, 'owner', 'Olga Owner'],
      [memberId, 'member', 'Max Member'],
    ]);
    const memberToken = userToken(api.db, teamId, memberId);
    expect((await api.call('GET', `/v1/teams/${teamId}`, { token: memberToken })).statusCode).toBe(200);
    const denied = await api.call('PATCH', `/v1/teams/${teamId}`, { token: memberToken, body: { name: 'Mine now' } });
    expect(denied.statusCode).toBe(403);
    const ownerToken = userToken(api.db, teamId, ownerId);
    expect((await api.call('PATCH', `/v1/teams/${teamId}`, { token: ownerToken, body: { name: 'Acme AG' } })).json().name).toBe(
      'Acme AG',
    );
  });
});

describe('users/me', () => {
  it("a user's token reads and changes that user; an API key acts for the team owner", async () => {
    const { api, key, teamId, ownerId, memberId } = await setup();
    const memberToken = userToken(api.db, teamId, memberId);
    const mine = User.parse((await api.call('GET', '/v1/users/me', { token: memberToken })).json());
    expect(mine).toMatchObject({ id: memberId, role: 'member', locale: 'en', timezone: 'UTC', timeFormat: 24, teamId });
    const viaKey = User.parse((await api.call('GET', '/v1/users/me', { token: key })).json());
    expect(viaKey).toMatchObject({ id: ownerId, role: 'owner', fullName: 'Olga Owner' });

    const patched = await api.call('PATCH', '/v1/users/me', {
      token: memberToken,
      body: { locale: 'de-at', timezone: 'Europe/Vienna', dateFormat: 'dd.MM.yyyy', timeFormat: 12, weekStartsOnMonday: false },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({
      id: memberId,
      locale: 'de-AT',
      timezone: 'Europe/Vienna',
      dateFormat: 'dd.MM.yyyy',
      timeFormat: 12,
      weekStartsOnMonday: false,
    });
    // The owner is untouched.
    expect((await api.call('GET', '/v1/users/me', { token: key })).json().locale).toBe('en');
    for (const body of [
      { timezone: 'Mars/Olympus' },
      { locale: '!!' },
      { timeFormat: 13 },
      { dateFormat: 'yy' },
      { email: 'x@y.z' },
    ]) {
      expect((await api.call('PATCH', '/v1/users/me', { token: memberToken, body })).statusCode, JSON.stringify(body)).toBe(422);
    }
  });

  it('a key bound to a member (finops token create --user) acts for that member, not the owner', async () => {
    const { api, teamId, ownerId, memberId } = await setup();
    const { key } = createApiKey(api.db, { teamId, userId: memberId, name: 'max', scopes: ['apis.all'] });
    const me = await api.call('GET', '/v1/users/me', { token: key });
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json()).toMatchObject({ id: memberId, role: 'member', email: 'max@acme.test' });
    const patched = await api.call('PATCH', '/v1/users/me', { token: key, body: { timezone: 'Europe/Vienna' } });
    expect(patched.json()).toMatchObject({ id: memberId, timezone: 'Europe/Vienna' });
    const owner = await api.call('GET', '/v1/users/me', { token: api.key('Acme') });
    expect(owner.json()).toMatchObject({ id: ownerId, timezone: 'UTC' });
    // Once the member has left the team, the key acts for no one (not for the owner in their place).
    api.db.prepare('DELETE FROM team_members WHERE team_id = ? AND user_id = ?').run(teamId, memberId);
    const gone = await api.call('GET', '/v1/users/me', { token: key });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().description).toBe("The credential's user is no longer a member of its team");
  });

  it('a team without members has no user: 404 saying how to make one', async () => {
    const api = await makeTestApi();
    const res = await api.call('GET', '/v1/users/me', { token: api.key('Empty') });
    expect(res.statusCode).toBe(404);
    expect(res.json().description).toContain('finops user create');
  });
});
