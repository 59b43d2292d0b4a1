/**
 * Shared pieces of the OAuth tests: fixtures (a team, a user with a password, clients), PKCE values, a cookie jar
 * and a fetch-based driver of the authorize page (the same forms a browser submits), and a probe app: a real
 * fastify app over the same database with the real auth hook and a contract route requiring `customers.read`.
 */
import crypto from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterEach } from 'vitest';
import { z } from 'zod';
import { resolveApiKey } from '../../../src-main/server/auth/credentials';
import { authPlugin } from '../../../src-main/server/auth/plugin';
import { installErrorHandling } from '../../../src-main/server/errors';
import { resolveOAuthAccessToken } from '../../../src-main/server/oauth/plugin';
import { registerRoute } from '../../../src-main/server/route';
import { createClient } from '../../../src-main/store/auth/oauth/clients';
import type { Db } from '../../../src-main/store/db';
import { ensureTeam } from '../../../src-main/store/teams/teams';
import { createUser, hashPassword } from '../../../src-main/store/users/users';
import { defineRoute } from '../../../src-shared/contract/route';
import type { Scope } from '../../../src-shared/contract/scopes';

export const PASSWORD = 'correct horse battery staple';

export async function addUser(db: Db, team: string, email: string, password = PASSWORD) {
  const t = ensureTeam(db, team);
  return createUser(db, t.id, { email, passwordHash: await hashPassword(password) }).user;
}

export function addClient(
  db: Db,
  team: string,
  opts: { scopes?: Scope[]; redirectUris?: string[]; isPublic?: boolean; name?: string } = {},
) {
  const t = ensureTeam(db, team);
  const { client, clientSecret } = createClient(db, t.id, {
    name: opts.name ?? 'Books Sync',
    scopes: opts.scopes ?? ['customers.read', 'customers.write', 'tags.read'],
    redirectUris: opts.redirectUris ?? ['http://127.0.0.1:9/callback'],
    isPublic: opts.isPublic ?? false,
  });
  return { client, clientId: client.clientId, clientSecret, teamId: t.id };
}

export function pkcePair() {
  const verifier = crypto.randomBytes(32).toString('base64url');
  const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

export class CookieJar {
  readonly cookies = new Map<string, string>();
  take(res: Response): void {
    for (const c of res.headers.getSetCookie()) {
      const [pair = ''] = c.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/Max-Age=0/i.test(c) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

export function csrfFrom(html: string): string {
  const m = /name="csrf_token" value="([^"]+)"/.exec(html);
  if (!m?.[1]) throw new Error(`no csrf_token in page: ${html.slice(0, 500)}`);
  return m[1];
}

export interface AuthorizeDrive {
  /** Final redirect target (the client's redirect_uri with code or error). */
  location: URL;
  jar: CookieJar;
}

/**
 * Drives the authorize page like a browser: GET the page, sign in, GET the consent page, submit `decision`.
 * Returns the redirect back to the client. When the GET itself redirects (a rejected request), returns that.
 */
export async function driveAuthorize(
  base: string,
  params: Record<string, string>,
  opts: { email: string; password?: string; decision?: 'approve' | 'deny'; jar?: CookieJar },
): Promise<AuthorizeDrive> {
  const jar = opts.jar ?? new CookieJar();
  const url = `${base}/v1/oauth/authorize?${new URLSearchParams(params)}`;
  const get = async () => {
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.take(res);
    return res;
  };
  const post = async (fields: Record<string, string>) => {
    const res = await fetch(`${base}/v1/oauth/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded', origin: base },
      body: new URLSearchParams({ ...params, ...fields }),
    });
    jar.take(res);
    return res;
  };
  let page = await get();
  if (page.status === 302) return { location: new URL(page.headers.get('location')!), jar };
  let html = await page.text();
  if (page.status !== 200) throw new Error(`authorize page answered ${page.status}: ${html}`);
  if (html.includes('value="login"')) {
    const login = await post({
      csrf_token: csrfFrom(html),
      action: 'login',
      email: opts.email,
      password: opts.password ?? PASSWORD,
    });
    if (login.status !== 303) throw new Error(`login answered ${login.status}: ${await login.text()}`);
    page = await get();
    html = await page.text();
  }
  if (!html.includes('value="approve"')) throw new Error(`no consent page: ${html}`);
  const decided = await post({ csrf_token: csrfFrom(html), action: opts.decision ?? 'approve' });
  if (decided.status !== 303) throw new Error(`decision answered ${decided.status}: ${await decided.text()}`);
  return { location: new URL(decided.headers.get('location')!), jar };
}

/** POST a form (or JSON with `json: true`) to an OAuth endpoint, optionally with HTTP Basic client credentials. */
export async function postOAuth(
  base: string,
  endpoint: 'token' | 'revoke',
  fields: Record<string, string>,
  opts: { basic?: [string, string]; json?: boolean } = {},
) {
  const headers: Record<string, string> = {
    'content-type': opts.json ? 'application/json' : 'application/x-www-form-urlencoded',
  };
  if (opts.basic) {
    const [id, secret] = opts.basic.map(encodeURIComponent) as [string, string];
    headers.authorization = `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
  }
  const res = await fetch(`${base}/v1/oauth/${endpoint}`, {
    method: 'POST',
    headers,
    body: opts.json ? JSON.stringify(fields) : new URLSearchParams(fields),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

export const probeRoute = defineRoute({
  method: 'GET',
  path: '/probe',
  tag: 'test',
  summary: 'test-only route requiring customers.read',
  scopes: ['customers.read'],
  responses: { 200: z.object({ kind: z.string(), teamId: z.string(), userId: z.string().nullable(), id: z.string() }) },
});

const probes: FastifyInstance[] = [];

/**
 * A second app over the same database with the production auth hook, given the API-key and OAuth access-token
 * resolvers, and one contract route requiring `customers.read` that echoes the caller's credential.
 */
export async function startProbe(db: Db): Promise<string> {
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  await app.register(authPlugin, { db, resolvers: [resolveApiKey, resolveOAuthAccessToken] });
  await app.register(
    async (v1) => {
      registerRoute(v1, probeRoute, ({ auth }) => ({ kind: auth.kind, teamId: auth.teamId, userId: auth.userId, id: auth.id }));
    },
    { prefix: '/v1' },
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  probes.push(app);
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

afterEach(async () => {
  for (const app of probes.splice(0)) await app.close();
});
