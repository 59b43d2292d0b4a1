import { describe, expect, it } from 'vitest';
import { sessionSecretStore } from '../../../src-main/infra/secret-store';
import { openDatabase } from '../../../src-main/store/db';
import { ensureRemote } from '../../../src-main/store/sync/remotes';
import { type OAuthGrant, parseStoredSecret, resolveCredential } from '../../../src-main/sync/credentials';
import { oauthSignIn, SignInFailed } from '../../../src-main/sync/oauth-sign-in';
import { runRound } from '../../../src-main/sync/round';
import { addClient, addUser, driveAuthorize } from '../server/oauth-helpers';
import { freePort, remoteReplica, replica } from './helpers';

/** The person in the browser: signs in on the remote's page and lets the redirect reach the loopback listener. */
function browser(email: string, decision: 'approve' | 'deny' = 'approve') {
  return async (url: string) => {
    const u = new URL(url);
    const drive = await driveAuthorize(u.origin, Object.fromEntries(u.searchParams), { email, decision });
    await fetch(drive.location);
  };
}

describe('OAuth sign-in to a sync remote', () => {
  it('signs in with PKCE through a loopback redirect; rounds use the grant and refresh it, saving the new one first', async () => {
    const r = await remoteReplica();
    const port = await freePort();
    await addUser(r.api.db, 'Acme', 'owner@acme.test');
    const { clientId } = addClient(r.api.db, 'Acme', {
      isPublic: true,
      scopes: ['apis.all'],
      redirectUris: [`http://127.0.0.1:${port}/callback`],
    });
    const grant = await oauthSignIn({ baseUrl: r.url, clientId, port, open: browser('owner@acme.test') });
    expect(grant).toMatchObject({ kind: 'oauth', clientId, tokenUrl: `${new URL(r.url).origin}/v1/oauth/token` });
    expect(grant.refreshToken).toBeTruthy();

    const a = await replica();
    const store = sessionSecretStore();
    const account = 'sync-token:test';
    await store.set(account, JSON.stringify(grant));
    const remote = ensureRemote(a.api.db, a.teamId, { baseUrl: r.url, credentialRef: account, authKind: 'oauth' });
    const round = async () =>
      runRound({ db: a.api.db, remote, credential: (await resolveCredential(r.url, { store, account, env: {} })).credential });

    await a.call('POST', '/v1/tags', { name: 'Via OAuth' });
    await round();
    expect((await r.call('GET', '/v1/tags')).body.data.map((t: { name: string }) => t.name)).toContain('Via OAuth');

    // An expired access token is refreshed before the round uses it, and the rotated grant is in the keychain.
    await store.set(account, JSON.stringify({ ...grant, expiresAt: 0 }));
    await a.call('POST', '/v1/tags', { name: 'After refresh' });
    await round();
    const saved = parseStoredSecret((await store.get(account))!) as OAuthGrant;
    expect(saved.accessToken).not.toBe(grant.accessToken);
    expect(saved.refreshToken).not.toBe(grant.refreshToken);
    expect(saved.expiresAt).toBeGreaterThan(Date.now());
    expect((await r.call('GET', '/v1/tags')).body.data.map((t: { name: string }) => t.name)).toContain('After refresh');
  });

  it('two processes refreshing one grant at once take turns: one refresh, both get the new token, the grant lives', async () => {
    const r = await remoteReplica();
    const port = await freePort();
    await addUser(r.api.db, 'Acme', 'owner@acme.test');
    const { clientId } = addClient(r.api.db, 'Acme', {
      isPublic: true,
      scopes: ['apis.all'],
      redirectUris: [`http://127.0.0.1:${port}/callback`],
    });
    const grant = await oauthSignIn({ baseUrl: r.url, clientId, port, open: browser('owner@acme.test') });
    const a = await replica();
    // A second connection to the same database file: the CLI's round beside the server's relayed call.
    const beside = openDatabase(a.api.dataDir);
    const store = sessionSecretStore();
    const account = 'sync-token:test';
    await store.set(account, JSON.stringify({ ...grant, expiresAt: 0 }));
    try {
      const [server, cli] = await Promise.all([
        resolveCredential(r.url, { store, account, env: {}, db: a.api.db }),
        resolveCredential(r.url, { store, account, env: {}, db: beside }),
      ]);
      // Both find the access token expired at once; a rotating remote revokes the grant when a refresh token is reused.
      const [t1, t2] = await Promise.all([server.credential.token(), cli.credential.token()]);
      expect(t1).not.toBe(grant.accessToken);
      expect(t2).toBe(t1);
      const saved = parseStoredSecret((await store.get(account))!) as OAuthGrant;
      expect(saved.accessToken).toBe(t1);
      for (const token of [t1, t2]) {
        const res = await fetch(`${r.url}/tags`, { headers: { authorization: `Bearer ${token}` } });
        expect(res.status).toBe(200);
      }
      // A credential still holding that grant meets a 401 after another process refreshed again: it takes the grant
      // saved there and spends no refresh token (its own is spent: the remote would revoke the grant for it).
      const holder = await resolveCredential(r.url, { store, account, env: {}, db: beside });
      const other = await resolveCredential(r.url, { store, account, env: {}, db: a.api.db });
      expect(await other.credential.refresh?.()).toBe(true);
      const third = parseStoredSecret((await store.get(account))!) as OAuthGrant;
      expect(third.accessToken).not.toBe(t1);
      expect(await holder.credential.refresh?.()).toBe(true);
      expect(await holder.credential.token()).toBe(third.accessToken);
      expect((parseStoredSecret((await store.get(account))!) as OAuthGrant).refreshToken).toBe(third.refreshToken);
      const res = await fetch(`${r.url}/tags`, { headers: { authorization: `Bearer ${third.accessToken}` } });
      expect(res.status).toBe(200);
    } finally {
      beside.close();
    }
  });

  it('a refused sign-in is a clear failure, and nothing is stored', async () => {
    const r = await remoteReplica();
    const port = await freePort();
    await addUser(r.api.db, 'Acme', 'owner@acme.test');
    const { clientId } = addClient(r.api.db, 'Acme', {
      isPublic: true,
      scopes: ['apis.all'],
      redirectUris: [`http://127.0.0.1:${port}/callback`],
    });
    await expect(oauthSignIn({ baseUrl: r.url, clientId, port, open: browser('owner@acme.test', 'deny') })).rejects.toThrow(
      SignInFailed,
    );
  });
});
