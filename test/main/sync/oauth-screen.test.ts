/**
 * OAuth sign-in to a sync remote from the Sync screen's API (docs/decisions/0145-sync-screen.md, "OAuth sign-in"):
 * two real servers on loopback, the remote being the authorization server; the redirect comes back to this server's
 * /app/sync/oauth/callback, and the credential that started the sign-in finishes it.
 */
import { describe, expect, it } from 'vitest';
import { addClient, addUser, driveAuthorize } from '../server/oauth-helpers';
import { remoteReplica, roundThenRemoteTags, screenApi } from './helpers';

async function setup() {
  const r = await remoteReplica();
  const local = await remoteReplica();
  const origin = new URL(local.url).origin;
  await addUser(r.api.db, 'Acme', 'owner@acme.test');
  const { clientId } = addClient(r.api.db, 'Acme', {
    isPublic: true,
    scopes: ['apis.all'],
    redirectUris: [`${origin}/app/sync/oauth/callback`],
  });
  const app = screenApi(origin);
  return { r, local, origin, clientId, app };
}

/** The person on the remote's page: signs in, allows (or denies), and the browser follows the redirect home. */
async function authorize(authorizeUrl: string, decision: 'approve' | 'deny' = 'approve') {
  const u = new URL(authorizeUrl);
  const drive = await driveAuthorize(u.origin, Object.fromEntries(u.searchParams), { email: 'owner@acme.test', decision });
  const back = await fetch(drive.location, { redirect: 'manual' });
  expect(back.status).toBe(303);
  const screen = new URL(back.headers.get('location')!, drive.location);
  expect(screen.pathname).toBe('/sync');
  return screen.searchParams;
}

describe('OAuth sign-in from the Sync screen', () => {
  it('signs in with PKCE through this server’s callback; only the starting credential finishes it, once; rounds use the grant', async () => {
    const { r, local, origin, clientId, app } = await setup();
    const start = await app('POST', '/app/sync/oauth/start', local.token, { baseUrl: r.url, clientId });
    expect(start.status).toBe(200);
    expect(start.body.redirectUri).toBe(`${origin}/app/sync/oauth/callback`);
    const asked = new URL(start.body.authorizeUrl);
    expect(asked.searchParams.get('code_challenge_method')).toBe('S256');
    expect(asked.searchParams.get('code_challenge')).toBeTruthy();
    // The verifier never leaves the server.
    expect(JSON.stringify(start.body)).not.toContain('verifier');

    const answer = await authorize(start.body.authorizeUrl);
    const state = answer.get('oauth_state')!;
    const code = answer.get('oauth_code')!;
    expect(state).toBe(asked.searchParams.get('state'));

    // Another credential of the same team (an owner's other session, a key with apis.all) cannot finish it.
    const other = await app('POST', '/app/sync/oauth/finish', local.api.key('Acme', ['apis.all']), { state, code });
    expect(other.status).toBe(403);
    expect(other.body.message).toContain('another session');

    const done = await app('POST', '/app/sync/oauth/finish', local.token, { state, code });
    expect(done.status).toBe(200);
    expect(done.body.remote).toMatchObject({ baseUrl: r.url, kind: 'finops' });
    expect(done.body.credential.present).toBe(true);
    // The grant is in the secret store, never in SQLite.
    const dump = JSON.stringify(local.api.db.prepare('SELECT * FROM sync_remotes').all());
    expect(dump).not.toMatch(/access|refresh/i);

    // Single use.
    const again = await app('POST', '/app/sync/oauth/finish', local.token, { state, code });
    expect(again.status).toBe(422);

    // A round with the grant pushes a local tag to the remote.
    await local.call('POST', '/v1/tags', { name: 'Signed in from the screen' });
    const tags = await roundThenRemoteTags(app, local.token, r);
    expect(tags).toContain('Signed in from the screen');
  }, 60_000);

  it('a denied sign-in comes back as an error and connects nothing; an unknown state is refused', async () => {
    const { r, local, clientId, app } = await setup();
    const start = await app('POST', '/app/sync/oauth/start', local.token, { baseUrl: r.url, clientId });
    const answer = await authorize(start.body.authorizeUrl, 'deny');
    expect(answer.get('oauth_error')).toBe('access_denied');
    expect(answer.get('oauth_code')).toBeNull();
    const unknown = await app('POST', '/app/sync/oauth/finish', local.token, { state: 'made-up', code: 'x' });
    expect(unknown.status).toBe(422);
    expect((await app('GET', '/app/sync/status', local.token)).body.remote).toBeNull();
  }, 60_000);

  it('a member who is not an owner, or a key without apis.all, cannot start one', async () => {
    const { r, local, clientId, app } = await setup();
    const res = await app('POST', '/app/sync/oauth/start', local.api.key('Acme', ['teams.write']), { baseUrl: r.url, clientId });
    expect(res.status).toBe(403);
  }, 60_000);
});
