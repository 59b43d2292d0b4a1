/**
 * OAuth sign-in from the desktop window's Sync screen (docs/decisions/0145-sync-screen.md, "OAuth sign-in in the
 * desktop window"): two real servers on loopback, the remote being the authorization server; a plain HTTP client
 * stands in for the system browser and follows the remote's redirect to this server's one-shot loopback listener,
 * and the screen follows the sign-in by its state until the server has connected the remote.
 */
import { describe, expect, it } from 'vitest';
import { addClient, addUser, driveAuthorize } from '../server/oauth-helpers';
import { freePort, remoteReplica, roundThenRemoteTags, screenApi } from './helpers';

async function setup(desktop = true) {
  const r = await remoteReplica();
  const local = await remoteReplica('Acme', { ownHostOnly: desktop });
  const port = await freePort();
  await addUser(r.api.db, 'Acme', 'owner@acme.test');
  const { clientId } = addClient(r.api.db, 'Acme', {
    isPublic: true,
    scopes: ['apis.all'],
    redirectUris: [`http://127.0.0.1:${port}/callback`],
  });
  const origin = new URL(local.url).origin;
  const app = screenApi(origin);
  const start = () => app('POST', '/app/sync/oauth/start', local.token, { baseUrl: r.url, clientId, redirect: 'loopback', port });
  return { r, local, port, app, start };
}

/** The system browser: the person signs in on the remote's page, and the redirect reaches the loopback listener. */
async function browser(authorizeUrl: string, decision: 'approve' | 'deny' = 'approve') {
  const u = new URL(authorizeUrl);
  const drive = await driveAuthorize(u.origin, Object.fromEntries(u.searchParams), { email: 'owner@acme.test', decision });
  const back = await fetch(drive.location);
  expect(back.status).toBe(200);
  return back.text();
}

async function settled(app: Awaited<ReturnType<typeof setup>>['app'], token: string, state: string) {
  for (let i = 0; i < 100; i++) {
    const p = (await app('GET', `/app/sync/oauth/sign-ins/${state}`, token)).body;
    if (p.status !== 'waiting') return p;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error('the sign-in never ended');
}

describe('OAuth sign-in from the desktop window (system browser, loopback redirect)', () => {
  it('the server receives the answer on 127.0.0.1, exchanges the code with PKCE and connects the remote', async () => {
    const { r, local, port, app, start } = await setup();
    const started = await start();
    expect(started.status).toBe(200);
    expect(started.body.redirectUri).toBe(`http://127.0.0.1:${port}/callback`);
    const asked = new URL(started.body.authorizeUrl);
    expect(asked.searchParams.get('redirect_uri')).toBe(started.body.redirectUri);
    expect(asked.searchParams.get('code_challenge_method')).toBe('S256');
    expect(asked.searchParams.get('state')).toBe(started.body.state);
    expect(JSON.stringify(started.body)).not.toContain('verifier');
    const { state } = started.body;

    const follow = (token: string) => app('GET', `/app/sync/oauth/sign-ins/${state}`, token);
    expect((await follow(local.token)).body).toEqual({ status: 'waiting', message: null });
    // Another credential of the team can neither follow nor cancel it; an unknown state is not found.
    const other = local.api.key('Acme', ['apis.all']);
    expect((await follow(other)).status).toBe(403);
    expect((await app('DELETE', `/app/sync/oauth/sign-ins/${state}`, other)).status).toBe(403);
    expect((await app('GET', '/app/sync/oauth/sign-ins/made-up', local.token)).status).toBe(404);

    expect(await browser(started.body.authorizeUrl)).toContain('Signed in');
    expect(await settled(app, local.token, state)).toEqual({ status: 'done', message: null });

    const status = (await app('GET', '/app/sync/status', local.token)).body;
    expect(status.remote).toMatchObject({ baseUrl: r.url, kind: 'finops' });
    expect(status.credential.present).toBe(true);
    const dump = JSON.stringify(local.api.db.prepare('SELECT * FROM sync_remotes').all());
    expect(dump).not.toMatch(/access|refresh/i);
    // The listener was one-shot: the port is closed again.
    await expect(fetch(`http://127.0.0.1:${port}/callback?state=${state}&code=x`)).rejects.toThrow();

    // (Over HTTP: the desktop host's server answers only requests addressed to its own host.)
    expect((await app('POST', '/v1/tags', local.token, { name: 'Signed in from the desktop' })).status).toBe(201);
    const tags = await roundThenRemoteTags(app, local.token, r);
    expect(tags).toContain('Signed in from the desktop');
  }, 60_000);

  it('a denied sign-in fails with the remote’s reason and connects nothing', async () => {
    const { app, local, start } = await setup();
    const started = await start();
    expect(await browser(started.body.authorizeUrl, 'deny')).toContain('not completed');
    const p = await settled(app, local.token, started.body.state);
    expect(p.status).toBe('failed');
    expect(p.message).toContain('refused');
    expect((await app('GET', '/app/sync/status', local.token)).body.remote).toBeNull();
  }, 60_000);

  it('cancelling stops the listener; a later answer connects nothing', async () => {
    const { app, local, port, start } = await setup();
    const started = await start();
    const cancelled = await app('DELETE', `/app/sync/oauth/sign-ins/${started.body.state}`, local.token);
    expect(cancelled.body).toEqual({ status: 'cancelled', message: null });
    await expect(fetch(`http://127.0.0.1:${port}/callback?state=${started.body.state}&code=x`)).rejects.toThrow();
    // Starting again reuses the port: the earlier listener is gone.
    const again = await start();
    expect(again.status).toBe(200);
    const first = await app('DELETE', `/app/sync/oauth/sign-ins/${again.body.state}`, local.token);
    expect(first.body.status).toBe('cancelled');
    expect((await app('GET', '/app/sync/status', local.token)).body.remote).toBeNull();
  }, 60_000);

  it('a server that stops closes the listener of a sign-in still waiting', async () => {
    const { local, port, start } = await setup();
    const started = await start();
    await expect(fetch(`http://127.0.0.1:${port}/`)).resolves.toMatchObject({ status: 404 });
    await local.api.app.close();
    await expect(fetch(`http://127.0.0.1:${port}/callback?state=${started.body.state}&code=x`)).rejects.toThrow();
  }, 60_000);

  it('a server that does not serve the desktop window (finops serve) refuses a loopback sign-in', async () => {
    const { app, local, r, start } = await setup(false);
    const refused = await start();
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('desktop window');
    const web = await app('POST', '/app/sync/oauth/start', local.token, { baseUrl: r.url, clientId: 'c', port: 4000 });
    expect(web.status).toBe(422);
  }, 60_000);
});
