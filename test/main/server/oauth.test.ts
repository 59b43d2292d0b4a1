/**
 * The OAuth 2.0 authorization server end to end over real HTTP on loopback: the authorize page's forms, the token
 * and revocation endpoints, and the tokens used on a scoped contract route.
 */
import { describe, expect, it } from 'vitest';
import { makeTestApi, type TestApi } from '../../helpers/api';
import { addClient, addUser, CookieJar, csrfFrom, driveAuthorize, pkcePair, postOAuth, startProbe } from './oauth-helpers';

const REDIRECT = 'http://127.0.0.1:9/callback';

async function setup(opts: { isPublic?: boolean } = {}) {
  const api = await makeTestApi({ rateLimit: { oauth: { limit: 100_000, windowMs: 60_000 } } });
  const base = await api.listen();
  const user = await addUser(api.db, 'Acme', 'ana@acme.test');
  const c = addClient(api.db, 'Acme', { isPublic: opts.isPublic, redirectUris: [REDIRECT] });
  return { api, base, user, ...c };
}

function authParams(clientId: string, extra: Record<string, string> = {}) {
  return {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    state: 'st-123',
    scope: 'customers.read',
    ...extra,
  };
}

async function codeFor(s: Awaited<ReturnType<typeof setup>>, extra: Record<string, string> = {}) {
  const pkce = pkcePair();
  const { location } = await driveAuthorize(
    s.base,
    authParams(s.clientId, { code_challenge: pkce.challenge, code_challenge_method: 'S256', ...extra }),
    { email: 'ana@acme.test' },
  );
  const code = location.searchParams.get('code');
  if (!code) throw new Error(`no code: ${location}`);
  return { code, verifier: pkce.verifier, location };
}

function exchange(s: { base: string; clientId: string; clientSecret: string | null }, code: string, verifier?: string) {
  return postOAuth(s.base, 'token', {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    ...(verifier ? { code_verifier: verifier } : {}),
    client_id: s.clientId,
    ...(s.clientSecret ? { client_secret: s.clientSecret } : {}),
  });
}

async function probe(base: string, token: string) {
  const res = await fetch(`${base}/v1/probe`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.json() };
}

describe('authorization code flow with PKCE', () => {
  it('signs in, approves, exchanges the code and calls a scoped route with the token', async () => {
    const s = await setup({ isPublic: true });
    const { code, verifier, location } = await codeFor(s);
    expect(location.origin + location.pathname).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('st-123');
    expect(location.searchParams.get('iss')).toBe(s.base);
    expect(code).toMatch(/^finops_ac_[0-9a-f]{64}$/);

    const res = await exchange(s, code, verifier);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      access_token: expect.stringMatching(/^finops_at_[0-9a-f]{64}$/),
      token_type: 'Bearer',
      expires_in: 7200,
      refresh_token: expect.stringMatching(/^finops_rt_[0-9a-f]{64}$/),
      scope: 'customers.read',
    });

    const probeBase = await startProbe(s.api.db);
    const ok = await probe(probeBase, res.body.access_token as string);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ kind: 'oauth', teamId: s.teamId, userId: s.user.id });

    // Only hashes are stored.
    const stored = s.api.db.prepare('SELECT token_hash FROM oauth_tokens').all() as { token_hash: string }[];
    expect(stored.length).toBe(2);
    for (const row of stored) expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(res.body.access_token);
  });

  it('a token without the route scope gets 403 naming it; an unknown token 401', async () => {
    const s = await setup({ isPublic: true });
    const { code, verifier } = await codeFor(s, { scope: 'tags.read' });
    const res = await exchange(s, code, verifier);
    expect(res.body.scope).toBe('tags.read');
    const probeBase = await startProbe(s.api.db);
    const denied = await probe(probeBase, res.body.access_token as string);
    expect(denied.status).toBe(403);
    expect(denied.body.description).toContain('customers.read');
    const unknown = await probe(probeBase, `finops_at_${'0'.repeat(64)}`);
    expect(unknown.status).toBe(401);
  });

  it('refuses a wrong code_verifier, and the code is spent afterwards', async () => {
    const s = await setup({ isPublic: true });
    const { code, verifier } = await codeFor(s);
    const wrong = await exchange(s, code, pkcePair().verifier);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: 'invalid_grant', message: expect.stringContaining('code_verifier') });
    expect(wrong.body.error_description).toBe(wrong.body.message);
    expect(wrong.body.requestId).toBe(wrong.headers.get('x-request-id'));
    expect((await exchange(s, code, verifier)).status).toBe(400);
  });

  it('refuses an authorization request of a public client without PKCE (redirects with invalid_request)', async () => {
    const s = await setup({ isPublic: true });
    const res = await fetch(`${s.base}/v1/oauth/authorize?${new URLSearchParams(authParams(s.clientId))}`, {
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get('location')!);
    expect(to.searchParams.get('error')).toBe('invalid_request');
    expect(to.searchParams.get('error_description')).toMatch(/PKCE/);
    expect(to.searchParams.get('state')).toBe('st-123');
  });

  it('refuses the plain PKCE method', async () => {
    const s = await setup({ isPublic: true });
    const params = authParams(s.clientId, { code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' });
    const res = await fetch(`${s.base}/v1/oauth/authorize?${new URLSearchParams(params)}`, { redirect: 'manual' });
    expect(new URL(res.headers.get('location')!).searchParams.get('error_description')).toMatch(/S256/);
  });

  it('a confidential client may skip PKCE but must authenticate; a verifier without a challenge is refused', async () => {
    const s = await setup();
    const { location } = await driveAuthorize(s.base, authParams(s.clientId), { email: 'ana@acme.test' });
    const code = location.searchParams.get('code')!;
    const noSecret = await exchange({ ...s, clientSecret: null }, code);
    expect(noSecret.status).toBe(401);
    expect(noSecret.body.error).toBe('invalid_client');
    expect(noSecret.headers.get('www-authenticate')).toMatch(/^Basic/);
    const ok = await postOAuth(
      s.base,
      'token',
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT },
      { basic: [s.clientId, s.clientSecret!] },
    );
    expect(ok.status).toBe(200);

    const second = await driveAuthorize(s.base, authParams(s.clientId), { email: 'ana@acme.test' });
    const withVerifier = await exchange(s, second.location.searchParams.get('code')!, pkcePair().verifier);
    expect(withVerifier.body).toMatchObject({ error: 'invalid_grant' });
  });

  it('verifies PKCE for a confidential client that used it', async () => {
    const s = await setup();
    const { code } = await codeFor(s);
    const missing = await exchange(s, code);
    expect(missing.body).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/code_verifier is required/),
    });
  });

  it('shows an error page (no redirect) for an unregistered redirect_uri or unknown client', async () => {
    const s = await setup({ isPublic: true });
    const bad = await fetch(
      `${s.base}/v1/oauth/authorize?${new URLSearchParams(authParams(s.clientId, { redirect_uri: 'http://127.0.0.1:9/callback/other' }))}`,
      { redirect: 'manual' },
    );
    expect(bad.status).toBe(400);
    expect(bad.headers.get('location')).toBeNull();
    expect(await bad.text()).toMatch(/redirect_uri is not registered/);
    const unknown = await fetch(`${s.base}/v1/oauth/authorize?${new URLSearchParams(authParams('finops_ci_nope'))}`, {
      redirect: 'manual',
    });
    expect(unknown.status).toBe(400);
  });

  it('refuses a token request whose redirect_uri differs from the authorization request', async () => {
    const s = await setup({ isPublic: true });
    const { code, verifier } = await codeFor(s);
    const res = await postOAuth(s.base, 'token', {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: s.clientId,
      redirect_uri: 'http://127.0.0.1:9/other',
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
    expect(res.body.error_description).toMatch(/redirect_uri/);
  });

  it('requires state', async () => {
    const s = await setup({ isPublic: true });
    const { state: _omit, ...noState } = authParams(s.clientId, {
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
    });
    const res = await fetch(`${s.base}/v1/oauth/authorize?${new URLSearchParams(noState)}`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get('location')!);
    expect(to.searchParams.get('error')).toBe('invalid_request');
    expect(to.searchParams.get('error_description')).toMatch(/state/);
    expect(to.searchParams.get('code')).toBeNull();
  });

  it('a reused code fails and revokes every token issued from it', async () => {
    const s = await setup({ isPublic: true });
    const { code, verifier } = await codeFor(s);
    const first = await exchange(s, code, verifier);
    expect(first.status).toBe(200);
    const probeBase = await startProbe(s.api.db);
    expect((await probe(probeBase, first.body.access_token as string)).status).toBe(200);

    const replay = await exchange(s, code, verifier);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await probe(probeBase, first.body.access_token as string)).status).toBe(401);
    const refresh = await postOAuth(s.base, 'token', {
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token as string,
      client_id: s.clientId,
    });
    expect(refresh.body.error).toBe('invalid_grant');
  });

  it('an expired code is refused', async () => {
    const s = await setup({ isPublic: true });
    const { code, verifier } = await codeFor(s);
    s.api.db.prepare('UPDATE oauth_codes SET expires_at = ?').run(new Date(Date.now() - 1000).toISOString());
    const res = await exchange(s, code, verifier);
    expect(res.body).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/expired/) });
  });

  it('codes live 5 minutes', async () => {
    const s = await setup({ isPublic: true });
    const before = Date.now();
    await codeFor(s);
    const row = s.api.db.prepare('SELECT expires_at FROM oauth_codes').get() as { expires_at: string };
    const ttl = Date.parse(row.expires_at) - before;
    expect(ttl).toBeGreaterThan(290_000);
    expect(ttl).toBeLessThanOrEqual(300_000 + 5_000);
  });

  it('deny redirects with access_denied and the state', async () => {
    const s = await setup({ isPublic: true });
    const { location } = await driveAuthorize(
      s.base,
      authParams(s.clientId, { code_challenge: pkcePair().challenge, code_challenge_method: 'S256' }),
      { email: 'ana@acme.test', decision: 'deny' },
    );
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('st-123');
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('scopes must be a subset of the client’s; no scope means all of them', async () => {
    const s = await setup({ isPublic: true });
    const pk = { code_challenge: pkcePair().challenge, code_challenge_method: 'S256' };
    for (const scope of ['customers.read invoices.read', 'apis.read', 'no.such']) {
      const res = await fetch(`${s.base}/v1/oauth/authorize?${new URLSearchParams(authParams(s.clientId, { ...pk, scope }))}`, {
        redirect: 'manual',
      });
      expect(new URL(res.headers.get('location')!).searchParams.get('error'), scope).toBe('invalid_scope');
    }
    const { scope: _all, ...noScope } = authParams(s.clientId);
    const pkce = pkcePair();
    const { location } = await driveAuthorize(
      s.base,
      { ...noScope, code_challenge: pkce.challenge, code_challenge_method: 'S256' },
      { email: 'ana@acme.test' },
    );
    const res = await exchange(s, location.searchParams.get('code')!, pkce.verifier);
    expect(res.body.scope).toBe('customers.read customers.write tags.read');
  });
});

describe('the authorize page', () => {
  it('rejects a wrong password and a user of another team', async () => {
    const s = await setup({ isPublic: true });
    await addUser(s.api.db, 'Other Co', 'olga@other.test');
    const params = authParams(s.clientId, { code_challenge: pkcePair().challenge, code_challenge_method: 'S256' });
    await expect(driveAuthorize(s.base, params, { email: 'ana@acme.test', password: 'wrong password!' })).rejects.toThrow(
      /login answered 401/,
    );
    await expect(driveAuthorize(s.base, params, { email: 'olga@other.test' })).rejects.toThrow(/login answered 403/);
    await expect(driveAuthorize(s.base, params, { email: 'nobody@acme.test' })).rejects.toThrow(/login answered 401/);
  });

  it('slows down wrong passwords as the web sign-in does: from the 6th on the account, 429 with Retry-After', async () => {
    const s = await setup({ isPublic: true });
    const params = authParams(s.clientId, { code_challenge: pkcePair().challenge, code_challenge_method: 'S256' });
    const statuses: string[] = [];
    for (let i = 0; i < 10; i++) {
      const outcome = await driveAuthorize(s.base, params, { email: 'ana@acme.test', password: `wrong password ${i}!` }).catch(
        (err: Error) => err.message,
      );
      statuses.push(String(outcome).match(/login answered (\d+)/)?.[1] ?? String(outcome));
    }
    expect(statuses.slice(0, 5)).toEqual(['401', '401', '401', '401', '401']);
    expect(statuses.slice(6)).toEqual(['429', '429', '429', '429']);
    // The right password waits too while the account is throttled (guessing cannot tell a hit from a wait).
    await expect(driveAuthorize(s.base, params, { email: 'ana@acme.test' })).rejects.toThrow(/login answered 429/);
  });

  it('refuses a form post without the CSRF cookie/token pair or from another origin', async () => {
    const s = await setup({ isPublic: true });
    const params = authParams(s.clientId, { code_challenge: pkcePair().challenge, code_challenge_method: 'S256' });
    const jar = new CookieJar();
    const page = await fetch(`${s.base}/v1/oauth/authorize?${new URLSearchParams(params)}`);
    jar.take(page);
    const html = await page.text();
    expect(html).toContain('Books Sync');
    expect(html).toContain('customers.read');
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    // same-origin, not no-referrer: with no-referrer Chromium sends `Origin: null` on the form posts.
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    expect(html).not.toMatch(/<script|src="http/);
    const csrf = csrfFrom(html);
    const submit = (headers: Record<string, string>, token: string) =>
      fetch(`${s.base}/v1/oauth/authorize`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams({
          ...params,
          csrf_token: token,
          action: 'login',
          email: 'ana@acme.test',
          password: 'x'.repeat(20),
        }),
      });
    expect((await submit({}, csrf)).status).toBe(403); // no cookie
    expect((await submit({ cookie: jar.header() }, 'A'.repeat(43))).status).toBe(403); // token mismatch
    expect((await submit({ cookie: jar.header(), origin: 'http://evil.example' }, csrf)).status).toBe(403);
    expect((await submit({ cookie: jar.header(), origin: 'null' }, csrf)).status).toBe(403);
    expect((await submit({ cookie: jar.header(), origin: s.base }, csrf)).status).toBe(401); // checks pass; wrong password
  });

  it('keeps the sign-in session: a second authorization goes straight to consent', async () => {
    const s = await setup({ isPublic: true });
    const params = authParams(s.clientId, { code_challenge: pkcePair().challenge, code_challenge_method: 'S256' });
    const first = await driveAuthorize(s.base, params, { email: 'ana@acme.test' });
    const again = await fetch(`${s.base}/v1/oauth/authorize?${new URLSearchParams(params)}`, {
      headers: { cookie: first.jar.header() },
    });
    const html = await again.text();
    expect(html).toContain('value="approve"');
    expect(html).toContain('ana@acme.test');
  });
});

async function tokensFor(s: Awaited<ReturnType<typeof setup>>) {
  const { code, verifier } = await codeFor(s);
  const res = await exchange(s, code, verifier);
  expect(res.status).toBe(200);
  return res.body as { access_token: string; refresh_token: string };
}

function refresh(s: { base: string; clientId: string }, refreshToken: string, extra: Record<string, string> = {}) {
  return postOAuth(
    s.base,
    'token',
    { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: s.clientId, ...extra },
    { json: true },
  );
}

describe('refresh tokens', () => {
  it('rotate: each refresh gives a new pair, and the old access token keeps working until it expires', async () => {
    const s = await setup({ isPublic: true });
    const t1 = await tokensFor(s);
    const r = await refresh(s, t1.refresh_token);
    expect(r.status).toBe(200);
    expect(r.body.refresh_token).not.toBe(t1.refresh_token);
    expect(r.body.access_token).not.toBe(t1.access_token);
    expect(r.body.scope).toBe('customers.read');
    const row = s.api.db.prepare("SELECT expires_at FROM oauth_tokens WHERE kind = 'refresh' AND rotated_at IS NULL").get() as {
      expires_at: string;
    };
    expect(Date.parse(row.expires_at) - Date.now()).toBeGreaterThan(29.9 * 24 * 3600_000);
    const probeBase = await startProbe(s.api.db);
    expect((await probe(probeBase, r.body.access_token as string)).status).toBe(200);
    expect((await probe(probeBase, t1.access_token)).status).toBe(200);
  });

  it('reuse of a rotated refresh token revokes the grant', async () => {
    const s = await setup({ isPublic: true });
    const t1 = await tokensFor(s);
    const t2 = (await refresh(s, t1.refresh_token)).body;
    const replay = await refresh(s, t1.refresh_token);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    const probeBase = await startProbe(s.api.db);
    expect((await probe(probeBase, t2.access_token as string)).status).toBe(401);
    expect((await refresh(s, t2.refresh_token as string)).body.error).toBe('invalid_grant');
  });

  it('may narrow the scope, never widen it; belongs to its client', async () => {
    const s = await setup({ isPublic: true });
    const { code, verifier } = await codeFor(s, { scope: 'customers.read tags.read' });
    const t = (await exchange(s, code, verifier)).body;
    const wider = await refresh(s, t.refresh_token as string, { scope: 'customers.read customers.write' });
    expect(wider.body.error).toBe('invalid_scope');
    const other = addClient(s.api.db, 'Acme', { isPublic: true, redirectUris: [REDIRECT] });
    expect((await refresh({ ...other, base: s.base }, t.refresh_token as string)).body.error).toBe('invalid_grant');
    const narrow = await refresh(s, t.refresh_token as string, { scope: 'tags.read' });
    expect(narrow.status).toBe(200);
    expect(narrow.body.scope).toBe('tags.read');
    // The new refresh token still carries the whole grant.
    expect((await refresh(s, narrow.body.refresh_token as string)).body.scope).toBe('customers.read tags.read');
  });

  it('an expired refresh token is refused', async () => {
    const s = await setup({ isPublic: true });
    const t = await tokensFor(s);
    s.api.db.prepare("UPDATE oauth_tokens SET expires_at = ? WHERE kind = 'refresh'").run(new Date(Date.now() - 1).toISOString());
    expect((await refresh(s, t.refresh_token)).body.error_description).toMatch(/expired/);
  });
});

describe('client credentials', () => {
  it('issues a team-bound access token without refresh token to a confidential client', async () => {
    const s = await setup();
    const res = await postOAuth(
      s.base,
      'token',
      { grant_type: 'client_credentials', scope: 'customers.read' },
      { basic: [s.clientId, s.clientSecret!] },
    );
    expect(res.status).toBe(200);
    expect(res.body.refresh_token).toBeUndefined();
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 7200, scope: 'customers.read' });
    const probeBase = await startProbe(s.api.db);
    const ok = await probe(probeBase, res.body.access_token as string);
    expect(ok.body).toMatchObject({ kind: 'oauth', teamId: s.teamId, userId: null });
  });

  it('accepts body credentials as JSON, and refuses a wrong secret, both methods at once, a public client, a wider scope', async () => {
    const s = await setup();
    const json = await postOAuth(
      s.base,
      'token',
      { grant_type: 'client_credentials', client_id: s.clientId, client_secret: s.clientSecret! },
      { json: true },
    );
    expect(json.status).toBe(200);
    expect(json.body.scope).toBe('customers.read customers.write tags.read');

    const wrong = await postOAuth(
      s.base,
      'token',
      { grant_type: 'client_credentials' },
      { basic: [s.clientId, `finops_cs_${'0'.repeat(64)}`] },
    );
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ error: 'invalid_client', requestId: expect.any(String) });

    const both = await postOAuth(
      s.base,
      'token',
      { grant_type: 'client_credentials', client_secret: s.clientSecret! },
      { basic: [s.clientId, s.clientSecret!] },
    );
    expect(both.body.error).toBe('invalid_request');

    const pub = addClient(s.api.db, 'Acme', { isPublic: true });
    const pubRes = await postOAuth(s.base, 'token', { grant_type: 'client_credentials', client_id: pub.clientId });
    expect(pubRes.body.error).toBe('unauthorized_client');

    const wider = await postOAuth(
      s.base,
      'token',
      { grant_type: 'client_credentials', scope: 'invoices.read' },
      { basic: [s.clientId, s.clientSecret!] },
    );
    expect(wider.body.error).toBe('invalid_scope');
  });

  it('answers RFC errors for a missing or unknown grant type and a malformed body', async () => {
    const s = await setup();
    const none = await postOAuth(s.base, 'token', {}, { basic: [s.clientId, s.clientSecret!] });
    expect(none.status).toBe(400);
    expect(none.body.error).toBe('invalid_request');
    const pw = await postOAuth(s.base, 'token', { grant_type: 'password' }, { basic: [s.clientId, s.clientSecret!] });
    expect(pw.body.error).toBe('unsupported_grant_type');
    const bad = await fetch(`${s.base}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: 'invalid_request', message: expect.any(String) });
    const repeated = await fetch(`${s.base}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&grant_type=client_credentials',
    });
    expect((await repeated.json()).error).toBe('invalid_request');
  });
});

describe('revocation (RFC 7009)', () => {
  it('revoking an access token ends it; revoking a refresh token ends the whole grant', async () => {
    const s = await setup({ isPublic: true });
    const probeBase = await startProbe(s.api.db);
    const t = await tokensFor(s);
    const r1 = await postOAuth(s.base, 'revoke', { token: t.access_token, client_id: s.clientId });
    expect(r1.status).toBe(200);
    expect((await probe(probeBase, t.access_token)).status).toBe(401);
    const t2 = (await refresh(s, t.refresh_token)).body;
    expect((await probe(probeBase, t2.access_token as string)).status).toBe(200);
    await postOAuth(s.base, 'revoke', {
      token: t2.refresh_token as string,
      token_type_hint: 'refresh_token',
      client_id: s.clientId,
    });
    expect((await probe(probeBase, t2.access_token as string)).status).toBe(401);
    expect((await refresh(s, t2.refresh_token as string)).body.error).toBe('invalid_grant');
  });

  it('answers 200 for unknown tokens and other clients’ tokens without revoking them; needs client authentication', async () => {
    const s = await setup({ isPublic: true });
    const probeBase = await startProbe(s.api.db);
    const t = await tokensFor(s);
    const other = addClient(s.api.db, 'Acme', { isPublic: true });
    expect((await postOAuth(s.base, 'revoke', { token: 'garbage', client_id: s.clientId })).status).toBe(200);
    expect((await postOAuth(s.base, 'revoke', { token: t.access_token, client_id: other.clientId })).status).toBe(200);
    expect((await probe(probeBase, t.access_token)).status).toBe(200);
    const anon = await postOAuth(s.base, 'revoke', { token: t.access_token });
    expect(anon.status).toBe(401);
    expect(anon.body.error).toBe('invalid_client');
  });
});

describe('metadata and OpenAPI', () => {
  it('serves RFC 8414 metadata with absolute URLs of the host the client used', async () => {
    const api: TestApi = await makeTestApi();
    const base = await api.listen();
    const res = await fetch(`${base}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/v1/oauth/authorize`,
      token_endpoint: `${base}/v1/oauth/token`,
      revocation_endpoint: `${base}/v1/oauth/revoke`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
    });
    expect(doc.scopes_supported).toContain('customers.read');
    const other = await api.call('GET', '/.well-known/oauth-authorization-server', { headers: { host: 'books.example:8443' } });
    expect(other.json().token_endpoint).toBe('http://books.example:8443/v1/oauth/token');
  });

  it('documents token and revoke as public operations', async () => {
    const api = await makeTestApi();
    const doc = (await api.call('GET', '/v1/openapi.json')).json();
    expect(doc.paths['/v1/oauth/token'].post.security).toEqual([]);
    expect(doc.paths['/v1/oauth/revoke'].post.security).toEqual([]);
    expect(doc.paths['/v1/oauth/authorize']).toBeUndefined();
  });
});
