/**
 * Web sign-in over the real app (fastify inject over a real SQLite file, and real HTTP for the change stream): the
 * cookie's attributes, the cookie as a credential with the CSRF check on writes, sign-out, idle expiry, revocation of
 * another session, leaving the team, bearer auth unchanged by a cookie, and the slowing down of wrong passwords per
 * account and per address.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT_THROTTLE, ADDRESS_THROTTLE } from '../../../../src-main/store/auth/sessions';
import { createUser, hashPassword } from '../../../../src-main/store/users/users';
import { makeTestApi, type TestApi } from '../../../helpers/api';

const PASSWORD = 'correct horse battery';
let api: TestApi;
let passwordHash: string;

beforeEach(async () => {
  api = await makeTestApi({ rateLimitPerMinute: 100_000 });
  passwordHash ??= await hashPassword(PASSWORD);
  createUser(api.db, api.team('Signin Co').id, { email: 'ada@example.com', passwordHash, fullName: 'Ada Lovelace' });
});

interface SignedIn {
  cookie: string;
  csrf: string;
  id: string;
  setCookie: string;
}

async function signIn(email = 'ada@example.com', password = PASSWORD, headers: Record<string, string> = {}): Promise<SignedIn> {
  const res = await api.call('POST', '/app/session', { body: { email, password }, headers });
  expect(res.statusCode, res.body).toBe(201);
  const setCookie = String(res.headers['set-cookie']);
  const cookie = setCookie.split(';')[0]!;
  return { cookie, csrf: res.json().csrfToken, id: res.json().id, setCookie };
}

const withCookie = (s: SignedIn, extra: Record<string, string> = {}) => ({ cookie: s.cookie, ...extra });

describe('signing in', () => {
  it('sets an HttpOnly, SameSite=Strict session cookie and answers who is signed in, without any API key', async () => {
    const res = await api.call('POST', '/app/session', { body: { email: 'ADA@example.com ', password: PASSWORD } });
    expect(res.statusCode).toBe(201);
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/^finops_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=604800; HttpOnly; SameSite=Strict$/);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body.user).toMatchObject({ email: 'ada@example.com', fullName: 'Ada Lovelace', role: 'owner' });
    expect(body.team.name).toBe('Signin Co');
    expect(body.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.body).not.toMatch(/finops_[0-9a-f]{64}/);
    // The session secret itself is only in the cookie, never in the body.
    expect(res.body).not.toContain(setCookie.split(';')[0]!.split('=')[1]!);

    const me = await api.call('GET', '/app/session', { headers: { cookie: setCookie.split(';')[0]! } });
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(body.id);
    expect(me.json().csrfToken).toBe(body.csrfToken);
  });

  it('refuses a wrong password and an unknown email alike, with the Error payload', async () => {
    const wrong = await api.call('POST', '/app/session', { body: { email: 'ada@example.com', password: 'nope-nope' } });
    const unknown = await api.call('POST', '/app/session', { body: { email: 'nobody@example.com', password: 'nope-nope' } });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ error: 'Unauthorized', message: 'The email or password is not right.' });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const empty = await api.call('POST', '/app/session', { body: { email: '', password: '' } });
    expect(empty.statusCode).toBe(422);
    expect(
      empty
        .json()
        .fields.map((f: { path: string }) => f.path)
        .sort(),
    ).toEqual(['email', 'password']);
  });

  it('signs in to the team asked for, and refuses a team the user is not in', async () => {
    api.team('Other Co');
    const other = await api.call('POST', '/app/session', {
      body: { email: 'ada@example.com', password: PASSWORD, teamId: api.team('Other Co').id },
    });
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe('You are not a member of that team.');
  });
});

describe('the session cookie as a credential', () => {
  it('reads and writes v1 data for the team; writes need the CSRF token', async () => {
    const s = await signIn();
    const list = await api.call('GET', '/v1/customers', { headers: withCookie(s) });
    expect(list.statusCode).toBe(200);

    const noCsrf = await api.call('POST', '/v1/customers', { body: { name: 'Cookie Co' }, headers: withCookie(s) });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().message).toMatch(/CSRF token/);
    // One character off; which one replaces the last depends on it, so the token is never accidentally right.
    const altered = `${s.csrf.slice(0, -1)}${s.csrf.endsWith('A') ? 'B' : 'A'}`;
    expect(altered).not.toBe(s.csrf);
    const badCsrf = await api.call('POST', '/v1/customers', {
      body: { name: 'Cookie Co' },
      headers: withCookie(s, { 'x-csrf-token': altered }),
    });
    expect(badCsrf.statusCode).toBe(403);

    const ok = await api.call('POST', '/v1/customers', {
      body: { name: 'Cookie Co' },
      headers: withCookie(s, { 'x-csrf-token': s.csrf }),
    });
    expect(ok.statusCode).toBe(201);
    const key = api.key('Signin Co');
    const seen = await api.call('GET', `/v1/customers/${ok.json().id}`, { token: key });
    expect(seen.json().name).toBe('Cookie Co');
    // Another team's records stay invisible to the session.
    const foreign = (await api.call('POST', '/v1/customers', { token: api.key('Else Co'), body: { name: 'Else' } })).json().id;
    expect((await api.call('GET', `/v1/customers/${foreign}`, { headers: withCookie(s) })).statusCode).toBe(404);
  });

  it('acts for the signed-in user (/users/me)', async () => {
    const s = await signIn();
    const me = await api.call('GET', '/v1/users/me', { headers: withCookie(s) });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe('ada@example.com');
  });

  it('leaves bearer auth as it was: a bad bearer token fails even beside a valid cookie', async () => {
    const s = await signIn();
    const res = await api.call('GET', '/v1/customers', { token: 'garbage', headers: withCookie(s) });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Invalid, expired or revoked credential');
    const key = api.key('Signin Co');
    // A bearer write needs no CSRF token.
    expect((await api.call('POST', '/v1/customers', { token: key, body: { name: 'Bearer Co' } })).statusCode).toBe(201);
    // A bearer credential has no web session.
    expect((await api.call('GET', '/app/session', { token: key })).statusCode).toBe(404);
  });

  it('no cookie, a made-up cookie: 401 with the Error payload', async () => {
    expect((await api.call('GET', '/app/session')).statusCode).toBe(401);
    const res = await api.call('GET', '/v1/customers', { headers: { cookie: `finops_session=${'A'.repeat(43)}` } });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Your session has ended. Sign in again.');
  });
});

describe('ending sessions', () => {
  it('sign-out ends the session and clears the cookie', async () => {
    const s = await signIn();
    const noCsrf = await api.call('DELETE', '/app/session', { headers: withCookie(s) });
    expect(noCsrf.statusCode).toBe(403);
    const out = await api.call('DELETE', '/app/session', { headers: withCookie(s, { 'x-csrf-token': s.csrf }) });
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/^finops_session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Strict/);
    expect((await api.call('GET', '/v1/customers', { headers: withCookie(s) })).statusCode).toBe(401);
  });

  it('a session unused for 12 hours has ended; use pushes the idle expiry forward', async () => {
    const s = await signIn();
    const row = () =>
      api.db.prepare('SELECT last_seen_at, idle_expires_at, expires_at FROM web_sessions WHERE id = ?').get(s.id) as {
        last_seen_at: number;
        idle_expires_at: number;
        expires_at: number;
      };
    // Pretend it was last used two minutes ago: the next request moves the idle expiry.
    api.db
      .prepare(
        'UPDATE web_sessions SET last_seen_at = last_seen_at - 120000, idle_expires_at = idle_expires_at - 120000 WHERE id = ?',
      )
      .run(s.id);
    const before = row().idle_expires_at;
    expect((await api.call('GET', '/v1/customers', { headers: withCookie(s) })).statusCode).toBe(200);
    expect(row().idle_expires_at).toBeGreaterThan(before + 100_000);
    expect(row().idle_expires_at).toBeLessThanOrEqual(row().expires_at);

    api.db.prepare('UPDATE web_sessions SET idle_expires_at = ? WHERE id = ?').run(Date.now() - 1, s.id);
    expect((await api.call('GET', '/v1/customers', { headers: withCookie(s) })).statusCode).toBe(401);
  });

  it('another of my sessions can be listed and signed out; another user’s cannot', async () => {
    const laptop = await signIn();
    const phone = await signIn('ada@example.com', PASSWORD, { 'user-agent': 'Phone Browser' });
    createUser(api.db, api.team('Signin Co').id, { email: 'bob@example.com', passwordHash });
    const bob = await signIn('bob@example.com');

    const list = await api.call('GET', '/app/sessions', { headers: withCookie(laptop) });
    expect(list.json().data.map((x: { id: string; current: boolean }) => [x.id, x.current])).toEqual([
      [phone.id, false],
      [laptop.id, true],
    ]);
    expect(list.json().data[0].userAgent).toBe('Phone Browser');

    const notMine = await api.call('DELETE', `/app/sessions/${bob.id}`, {
      headers: withCookie(laptop, { 'x-csrf-token': laptop.csrf }),
    });
    expect(notMine.statusCode).toBe(404);
    const revoke = await api.call('DELETE', `/app/sessions/${phone.id}`, {
      headers: withCookie(laptop, { 'x-csrf-token': laptop.csrf }),
    });
    expect(revoke.statusCode).toBe(200);
    expect((await api.call('GET', '/app/session', { headers: withCookie(phone) })).statusCode).toBe(401);
    expect((await api.call('GET', '/app/session', { headers: withCookie(laptop) })).statusCode).toBe(200);
    expect((await api.call('GET', '/app/session', { headers: withCookie(bob) })).statusCode).toBe(200);
  });

  it('a user removed from the team is signed out of it', async () => {
    const s = await signIn();
    api.db.prepare('DELETE FROM team_members WHERE user_id = (SELECT id FROM users WHERE email = ?)').run('ada@example.com');
    expect((await api.call('GET', '/v1/customers', { headers: withCookie(s) })).statusCode).toBe(401);
  });

  it('the change stream of a signed-out session ends', async () => {
    const s = await signIn();
    const url = await api.listen();
    const controller = new AbortController();
    const res = await fetch(`${url}/app/changes/stream`, { headers: { cookie: s.cookie }, signal: controller.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const text = async () => new TextDecoder().decode((await reader.read()).value);
    expect(await text()).toContain('event: ready');
    await fetch(`${url}/app/session`, { method: 'DELETE', headers: { cookie: s.cookie, 'x-csrf-token': s.csrf } });
    // The next change makes the stream re-check its credential: it ends without sending the change.
    await api.call('POST', '/v1/customers', { token: api.key('Signin Co'), body: { name: 'After Sign-out' } });
    let rest = '';
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      rest += new TextDecoder().decode(chunk.value);
    }
    expect(rest).not.toContain('customer');
    controller.abort();
  });
});

describe('slowing down repeated wrong passwords', () => {
  it('per account: after the free tries each further try waits, doubling; a right password then still waits', async () => {
    const attempt = (password: string) => api.call('POST', '/app/session', { body: { email: 'ada@example.com', password } });
    for (let i = 0; i < ACCOUNT_THROTTLE.free + 1; i++) expect((await attempt('wrong-password')).statusCode).toBe(401);
    const blocked = await attempt(PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBe('1');
    expect(blocked.json()).toMatchObject({ retryAfterSeconds: 1, message: 'Too many failed sign-ins. Try again in 1 second.' });
    await new Promise((r) => setTimeout(r, 1100));
    expect((await attempt('wrong-password')).statusCode).toBe(401);
    const longer = await attempt(PASSWORD);
    expect(longer.statusCode).toBe(429);
    expect(Number(longer.headers['retry-after'])).toBe(2);
    await new Promise((r) => setTimeout(r, 2100));
    expect((await attempt(PASSWORD)).statusCode).toBe(201);
    // Success clears the account's counter.
    expect((await attempt('wrong-password')).statusCode).toBe(401);
    expect((await attempt(PASSWORD)).statusCode).toBe(201);
  });

  it('per address: many accounts guessed from one address are slowed down too', async () => {
    for (let i = 0; i < ADDRESS_THROTTLE.free + 1; i++) {
      const res = await api.call('POST', '/app/session', {
        body: { email: `guess${i}@example.com`, password: 'wrong-password' },
      });
      expect(res.statusCode).toBe(401);
    }
    const res = await api.call('POST', '/app/session', { body: { email: 'ada@example.com', password: PASSWORD } });
    expect(res.statusCode).toBe(429);
  });

  it('parallel guesses at one account are not checked at once', async () => {
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        api.call('POST', '/app/session', { body: { email: 'ada@example.com', password: 'wrong-password' } }),
      ),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(1);
  });
});
