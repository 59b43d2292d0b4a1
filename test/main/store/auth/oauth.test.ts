/**
 * The OAuth rules as tables (redirect URIs, scopes, PKCE, HTTP Basic), passwords, users, and the store's grant
 * transitions on a real SQLite file.
 */
import { describe, expect, it } from 'vitest';
import {
  checkPkce,
  checkRedirectUri,
  isLoopbackHost,
  parseBasicAuth,
  resolveRequestedScopes,
  s256,
} from '../../../../src-main/store/auth/oauth/checks';
import { createClient } from '../../../../src-main/store/auth/oauth/clients';
import { createAuthorizationCode, exchangeAuthorizationCode } from '../../../../src-main/store/auth/oauth/codes';
import { purgeExpired } from '../../../../src-main/store/auth/oauth/grants';
import { findActiveAccessToken, issueClientCredentials, refreshTokens } from '../../../../src-main/store/auth/oauth/tokens';
import { openDatabase } from '../../../../src-main/store/db';
import { Conflict } from '../../../../src-main/store/errors';
import { ensureTeam } from '../../../../src-main/store/teams/teams';
import {
  authenticateUser,
  createUser,
  getMembership,
  hashPassword,
  verifyPassword,
} from '../../../../src-main/store/users/users';
import { tmpDir } from '../../../helpers/tmp';

describe('redirect URI rule', () => {
  it.each([
    ['https://books.example/cb', 'ok'],
    ['https://books.example:8443/cb?x=1', 'ok'],
    ['http://127.0.0.1:5173/callback', 'ok'],
    ['http://127.9.8.7/cb', 'ok'],
    ['http://[::1]:8080/cb', 'ok'],
    ['http://localhost:3000/cb', 'ok'],
    ['http://books.example/cb', 'insecure-http'],
    ['http://localhost.evil.example/cb', 'insecure-http'],
    ['http://127.0.0.1.nip.io/cb', 'insecure-http'],
    ['http://192.168.1.10/cb', 'insecure-http'],
    ['https://books.example/cb#frag', 'has-fragment'],
    ['https://user:pw@books.example/cb', 'has-credentials'],
    ['http://evil.example@127.0.0.1/cb', 'has-credentials'],
    ['javascript:alert(1)', 'bad-scheme'],
    ['data:text/html,hi', 'bad-scheme'],
    ['com.example.app:/cb', 'bad-scheme'],
    ['/relative/cb', 'not-absolute'],
    ['not a url', 'not-absolute'],
  ])('%s → %s', (uri, expected) => {
    expect(checkRedirectUri(uri)).toBe(expected);
  });

  it.each([
    ['127.0.0.1', true],
    ['127.255.255.255', true],
    ['127.0.0.256', false],
    ['128.0.0.1', false],
    ['localhost', true],
    ['[::1]', true],
    ['localhost.', false],
  ])('isLoopbackHost(%s) = %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });
});

describe('scope subset rule', () => {
  it.each([
    [undefined, ['customers.read', 'tags.read'], { ok: true, scopes: ['customers.read', 'tags.read'] }],
    ['', ['customers.read'], { ok: true, scopes: ['customers.read'] }],
    ['customers.read', ['customers.read', 'tags.read'], { ok: true, scopes: ['customers.read'] }],
    ['customers.read', ['apis.read'], { ok: true, scopes: ['customers.read'] }],
    ['customers.write', ['apis.read'], { ok: false, reason: 'not-allowed', scopes: ['customers.write'] }],
    ['apis.read', ['customers.read'], { ok: false, reason: 'not-allowed', scopes: ['apis.read'] }],
    ['apis.read', ['apis.all'], { ok: true, scopes: ['apis.read'] }],
    ['customers.read,invoices.read', ['customers.read'], { ok: false, reason: 'not-allowed', scopes: ['invoices.read'] }],
    ['customers.read bogus', ['apis.all'], { ok: false, reason: 'unknown-scope', scopes: ['bogus'] }],
  ])('request %j within %j', (requested, allowed, expected) => {
    expect(resolveRequestedScopes(requested, allowed as never)).toEqual(expected);
  });
});

describe('PKCE rule', () => {
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  it('matches the RFC 7636 appendix B vector', () => {
    expect(s256(verifier)).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });
  it.each([
    ['E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', verifier, 'ok'],
    ['E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', undefined, 'verifier-missing'],
    ['E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', 'short', 'verifier-malformed'],
    ['E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', `${verifier}x`, 'verifier-mismatch'],
    [null, undefined, 'ok'],
    [null, verifier, 'verifier-unexpected'],
  ])('challenge %s, verifier %s → %s', (challenge, v, expected) => {
    expect(checkPkce(challenge, v)).toBe(expected);
  });
});

describe('HTTP Basic client credentials', () => {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  it.each([
    [undefined, undefined],
    ['Bearer abc', undefined],
    [`Basic ${b64('id:secret')}`, { clientId: 'id', clientSecret: 'secret' }],
    [`basic ${b64('id%3Ax:se%3Acret')}`, { clientId: 'id:x', clientSecret: 'se:cret' }],
    [`Basic ${b64('id:')}`, { clientId: 'id', clientSecret: '' }],
    [`Basic ${b64('no-colon')}`, 'malformed'],
    ['Basic !!!', 'malformed'],
    [`Basic ${b64('id:%E0%A4%A')}`, 'malformed'],
  ])('%s', (header, expected) => {
    expect(parseBasicAuth(header)).toEqual(expected);
  });
});

describe('passwords and users', () => {
  it('hashes with scrypt, a fresh salt each time, parameters inside the string', async () => {
    const a = await hashPassword('s3cret-password');
    const b = await hashPassword('s3cret-password');
    expect(a).toMatch(/^scrypt\$15\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('s3cret-password', a)).toBe(true);
    expect(await verifyPassword('s3cret-passwore', a)).toBe(false);
    expect(await verifyPassword('s3cret-password', 'bcrypt$xyz')).toBe(false);
    expect(await verifyPassword('s3cret-password', 'scrypt$99$8$1$AAAA$AAAA')).toBe(false);
  });

  it('creates members (owner first), refuses a duplicate email case-insensitively, authenticates', async () => {
    const db = openDatabase(tmpDir());
    const team = ensureTeam(db, 'Acme');
    const hash = await hashPassword('password-1');
    const first = createUser(db, team.id, { email: 'Ana@Acme.test', passwordHash: hash });
    const second = createUser(db, team.id, { email: 'ben@acme.test', passwordHash: hash, fullName: 'Ben B' });
    expect(first.membership.role).toBe('owner');
    expect(second.membership.role).toBe('member');
    expect(second.user.fullName).toBe('Ben B');
    expect(() => createUser(db, team.id, { email: 'ana@acme.TEST', passwordHash: hash })).toThrow(Conflict);
    expect((await authenticateUser(db, 'ana@acme.test', 'password-1'))?.id).toBe(first.user.id);
    expect(await authenticateUser(db, 'ana@acme.test', 'password-2')).toBeUndefined();
    expect(await authenticateUser(db, 'nobody@acme.test', 'password-1')).toBeUndefined();
    expect(getMembership(db, team.id, first.user.id)?.role).toBe('owner');
    db.close();
  });
});

describe('grant transitions in the store', () => {
  async function fixture() {
    const db = openDatabase(tmpDir());
    const team = ensureTeam(db, 'Acme');
    const { user } = createUser(db, team.id, { email: 'ana@acme.test', passwordHash: await hashPassword('password-1') });
    const { client } = createClient(db, team.id, {
      name: 'App',
      scopes: ['customers.read'],
      redirectUris: ['https://app.example/cb'],
      isPublic: true,
    });
    return { db, team, user, client };
  }

  it('refuses invalid redirect URIs and a public client without one', async () => {
    const { db, team } = await fixture();
    const base = { name: 'x', scopes: ['customers.read' as const], isPublic: false };
    expect(() => createClient(db, team.id, { ...base, redirectUris: ['http://evil.example/cb'] })).toThrow(/loopback/);
    expect(() => createClient(db, team.id, { ...base, redirectUris: [], isPublic: true })).toThrow(/public client/);
    expect(createClient(db, team.id, { ...base, redirectUris: [] }).clientSecret).toMatch(/^finops_cs_[0-9a-f]{64}$/);
    db.close();
  });

  it('a code exchanged twice at once: exactly one succeeds, and the replay revokes its tokens', async () => {
    const { db, client, user } = await fixture();
    const verifier = 'v'.repeat(50);
    const { code } = createAuthorizationCode(db, {
      client,
      userId: user.id,
      scopes: ['customers.read'],
      redirectUri: 'https://app.example/cb',
      codeChallenge: s256(verifier),
    });
    const input = { client, code, redirectUri: 'https://app.example/cb', codeVerifier: verifier };
    const first = exchangeAuthorizationCode(db, input);
    const second = exchangeAuthorizationCode(db, input);
    expect(first.ok).toBe(true);
    expect(second).toMatchObject({ ok: false, error: 'invalid_grant' });
    if (!first.ok) throw new Error('unreachable');
    expect(findActiveAccessToken(db, first.accessToken)).toBeUndefined();
    const grant = db.prepare('SELECT revoked_reason FROM oauth_grants').get() as { revoked_reason: string };
    expect(grant.revoked_reason).toBe('authorization code reused');
    db.close();
  });

  it('tokens stop working when the user leaves the team, or after 2 hours', async () => {
    const { db, client, user, team } = await fixture();
    const { code } = createAuthorizationCode(db, {
      client,
      userId: user.id,
      scopes: ['customers.read'],
      redirectUri: 'https://app.example/cb',
      codeChallenge: s256('w'.repeat(43)),
    });
    const t = exchangeAuthorizationCode(db, {
      client,
      code,
      redirectUri: 'https://app.example/cb',
      codeVerifier: 'w'.repeat(43),
    });
    if (!t.ok) throw new Error(t.description);
    expect(findActiveAccessToken(db, t.accessToken)).toMatchObject({ teamId: team.id, userId: user.id });
    expect(findActiveAccessToken(db, t.accessToken, new Date(Date.now() + 2 * 3600_000 + 1000))).toBeUndefined();
    db.prepare('DELETE FROM team_members WHERE user_id = ?').run(user.id);
    expect(findActiveAccessToken(db, t.accessToken)).toBeUndefined();
    expect(refreshTokens(db, { client, refreshToken: t.refreshToken!, scope: undefined })).toMatchObject({
      ok: false,
      error: 'invalid_grant',
    });
    db.close();
  });

  it('purges codes a day after expiry and tokens 30 days after expiry, keeping live ones', async () => {
    const { db, client, user } = await fixture();
    const issue = () =>
      createAuthorizationCode(db, {
        client,
        userId: user.id,
        scopes: ['customers.read'],
        redirectUri: 'https://app.example/cb',
        codeChallenge: s256('x'.repeat(43)),
      });
    const { code } = issue();
    const t = exchangeAuthorizationCode(db, {
      client,
      code,
      redirectUri: 'https://app.example/cb',
      codeVerifier: 'x'.repeat(43),
    });
    if (!t.ok) throw new Error(t.description);
    const count = (table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    purgeExpired(db, new Date(Date.now() + 23 * 3600_000));
    expect([count('oauth_codes'), count('oauth_tokens')]).toEqual([1, 2]);
    purgeExpired(db, new Date(Date.now() + 25 * 3600_000));
    expect([count('oauth_codes'), count('oauth_tokens')]).toEqual([0, 2]);
    purgeExpired(db, new Date(Date.now() + 31 * 24 * 3600_000));
    expect(count('oauth_tokens')).toBe(1); // the access token (expired 2 h after issue) is gone; the refresh token stays
    purgeExpired(db, new Date(Date.now() + 61 * 24 * 3600_000));
    expect(count('oauth_tokens')).toBe(0);
    db.close();
  });

  it('client credentials are refused to public clients', async () => {
    const { db, client } = await fixture();
    expect(issueClientCredentials(db, { client, scope: undefined })).toMatchObject({ ok: false, error: 'unauthorized_client' });
    db.close();
  });
});
