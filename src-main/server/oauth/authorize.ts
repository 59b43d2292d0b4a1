import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { oauthRoutes } from '../../../src-shared/contract/oauth';
import type { Scope } from '../../../src-shared/contract/scopes';
import { isValidCodeChallenge, resolveRequestedScopes, safeEqual } from '../../store/auth/oauth/checks';
import { findClient, type OAuthClient } from '../../store/auth/oauth/clients';
import { createAuthorizationCode } from '../../store/auth/oauth/codes';
import { createSession, deleteSession, findSessionUser } from '../../store/auth/oauth/login-sessions';
import type { Db } from '../../store/db';
import { getTeam } from '../../store/teams/teams';
import { authenticateUser, getMembership, getUser, type User } from '../../store/users/users';
import { registerRoute } from '../route';
import { signInThrottle } from '../session/sign-in-throttle';
import type { OAuthErrorHandler } from './errors';
import {
  AUTHORIZE_PARAM_NAMES,
  type AuthorizeParams,
  consentPage,
  errorPage,
  loginPage,
  type RenderedPage,
  type ViewContext,
} from './page';

/**
 * GET /v1/oauth/authorize shows the sign-in or consent page for an authorization request (RFC 6749 §4.1.1);
 * POST /v1/oauth/authorize receives its forms (action = login | approve | deny | switch).
 *
 * Errors before the client and its redirect URI are known are shown on the page, never redirected (§4.1.2.1);
 * later errors go back to the client as `error=…&state=…`. Every POST is CSRF-checked (double-submit cookie with
 * a token in the form, plus the Origin header when the browser sends one) and re-validates the whole request.
 */

export const CSRF_COOKIE = 'finops_oauth_csrf';
export const SESSION_COOKIE = 'finops_oauth_session';
const COOKIE_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) out.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return out;
}

function origin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

function cookie(
  request: FastifyRequest,
  name: string,
  value: string,
  opts: { sameSite: 'Strict' | 'Lax'; maxAge?: number },
): string {
  const parts = [`${name}=${value}`, 'Path=/v1/oauth', 'HttpOnly', `SameSite=${opts.sameSite}`];
  if (opts.maxAge !== undefined) parts.push(`Max-Age=${opts.maxAge}`);
  if (request.protocol === 'https') parts.push('Secure');
  return parts.join('; ');
}

type Validated =
  | { kind: 'page'; status: number; title: string; message: string }
  | { kind: 'redirect'; redirectUri: string; state: string | undefined; error: string; description: string }
  | {
      kind: 'ok';
      params: AuthorizeParams;
      client: OAuthClient;
      teamName: string;
      scopes: Scope[];
      redirectUri: string;
      state: string;
      codeChallenge: string | null;
    };

/** Single-valued parameters; names given more than once are reported (RFC 6749 §3.1 forbids repeats). */
function readParams(source: unknown): { params: AuthorizeParams; repeated: string[] } {
  const raw = (source && typeof source === 'object' ? source : {}) as Record<string, unknown>;
  const params = {} as AuthorizeParams;
  const repeated: string[] = [];
  for (const name of AUTHORIZE_PARAM_NAMES) {
    const v = raw[name];
    if (Array.isArray(v)) repeated.push(name);
    else if (typeof v === 'string' && v !== '') params[name] = v;
  }
  return { params, repeated };
}

export function validateAuthorizeRequest(db: Db, source: unknown): Validated {
  const { params, repeated } = readParams(source);
  const page = (message: string) => ({ kind: 'page' as const, status: 400, title: 'This link cannot be used', message });
  if (repeated.includes('client_id') || !params.client_id) return page('The authorization request names no client_id.');
  const client = findClient(db, params.client_id);
  if (!client) return page('The application asking for access is not registered here (unknown client_id).');
  if (repeated.includes('redirect_uri') || !params.redirect_uri) return page('The authorization request has no redirect_uri.');
  if (!client.redirectUris.includes(params.redirect_uri)) {
    return page(`The redirect_uri is not registered for ${client.name}; the request was not sent by that application.`);
  }
  const redirectUri = params.redirect_uri;
  const back = (error: string, description: string) =>
    ({
      kind: 'redirect',
      redirectUri,
      state: repeated.includes('state') ? undefined : params.state,
      error,
      description,
    }) as const;
  if (repeated.length) return back('invalid_request', `Parameter(s) given more than once: ${repeated.join(', ')}`);
  if (!params.state) return back('invalid_request', 'state is required');
  if (params.response_type !== 'code') return back('unsupported_response_type', 'Only response_type=code is supported');
  let codeChallenge: string | null = null;
  if (params.code_challenge !== undefined || params.code_challenge_method !== undefined) {
    if (params.code_challenge_method !== 'S256') return back('invalid_request', 'code_challenge_method must be S256');
    if (!params.code_challenge || !isValidCodeChallenge(params.code_challenge)) {
      return back('invalid_request', 'code_challenge must be the 43-character base64url SHA-256 of the code_verifier');
    }
    codeChallenge = params.code_challenge;
  } else if (client.isPublic) {
    return back('invalid_request', 'PKCE is required for public clients: send code_challenge and code_challenge_method=S256');
  }
  const scopes = resolveRequestedScopes(params.scope, client.scopes);
  if (!scopes.ok) {
    return back(
      'invalid_scope',
      scopes.reason === 'unknown-scope'
        ? `Unknown scope(s): ${scopes.scopes.join(' ')}`
        : `Scope(s) not allowed for this client: ${scopes.scopes.join(' ')}`,
    );
  }
  const teamName = getTeam(db, client.teamId).name;
  return { kind: 'ok', params, client, teamName, scopes: scopes.scopes, redirectUri, state: params.state, codeChallenge };
}

function redirectTo(redirectUri: string, values: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(values)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

function sendPage(reply: FastifyReply, status: number, rendered: RenderedPage): FastifyReply {
  return reply
    .code(status)
    .header('Content-Type', 'text/html; charset=utf-8')
    .header('Content-Security-Policy', rendered.csp)
    .header('Cache-Control', 'no-store')
    .header('X-Frame-Options', 'DENY')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'same-origin')
    .send(rendered.html);
}

/** `errorHandler` answers errors that escape the page (a body too large, a wrong media type, the rate limit). */
export function registerAuthorizeRoutes(app: FastifyInstance, db: Db, errorHandler: OAuthErrorHandler): void {
  const throttle = signInThrottle(db);
  const selfUrl = (request: FastifyRequest) => request.url.split('?')[0] ?? request.url;

  /** The CSRF token of this browser: the cookie's value, set now if it has none. */
  const csrfToken = (request: FastifyRequest, reply: FastifyReply): string => {
    const existing = parseCookies(request.headers.cookie).get(CSRF_COOKIE);
    if (existing && COOKIE_TOKEN.test(existing)) return existing;
    const token = crypto.randomBytes(32).toString('base64url');
    reply.header('Set-Cookie', cookie(request, CSRF_COOKIE, token, { sameSite: 'Strict' }));
    return token;
  };

  const sessionUser = (request: FastifyRequest): User | undefined => {
    const token = parseCookies(request.headers.cookie).get(SESSION_COOKIE);
    const userId = token && COOKIE_TOKEN.test(token) ? findSessionUser(db, token) : undefined;
    return userId ? getUser(db, userId) : undefined;
  };

  const view = (request: FastifyRequest, reply: FastifyReply, v: Extract<Validated, { kind: 'ok' }>): ViewContext => ({
    action: selfUrl(request),
    params: v.params,
    csrfToken: csrfToken(request, reply),
    clientName: v.client.name,
    teamName: v.teamName,
    scopes: v.scopes,
    redirectOrigin: new URL(v.redirectUri).origin,
  });

  const notMember = (user: User, teamName: string) =>
    `${user.email} is not a member of the team ${teamName}. Sign in with an account of that team.`;

  const answerInvalid = (request: FastifyRequest, reply: FastifyReply, v: Exclude<Validated, { kind: 'ok' }>, status: number) => {
    if (v.kind === 'page') return sendPage(reply, v.status, errorPage(v.title, v.message));
    return reply
      .code(status)
      .header('Cache-Control', 'no-store')
      .redirect(
        redirectTo(v.redirectUri, { error: v.error, error_description: v.description, state: v.state, iss: origin(request) }),
        status,
      );
  };

  registerRoute(
    app,
    oauthRoutes.authorize,
    ({ query, request, reply }) => {
      const v = validateAuthorizeRequest(db, query);
      if (v.kind !== 'ok') return answerInvalid(request, reply, v, 302);
      const user = sessionUser(request);
      const ctx = view(request, reply, v);
      if (user && getMembership(db, v.client.teamId, user.id))
        return sendPage(reply, 200, consentPage({ ...ctx, userEmail: user.email }));
      return sendPage(reply, 200, loginPage({ ...ctx, notice: user ? notMember(user, v.teamName) : undefined }));
    },
    { errorHandler },
  );

  registerRoute(
    app,
    oauthRoutes.authorizeSubmit,
    async ({ body, request, reply }) => {
      const form: Readonly<Record<string, unknown>> = body ?? {};
      const cookieToken = parseCookies(request.headers.cookie).get(CSRF_COOKIE);
      const formToken = typeof form.csrf_token === 'string' ? form.csrf_token : '';
      const requestOrigin = request.headers.origin;
      if (
        !cookieToken ||
        !COOKIE_TOKEN.test(cookieToken) ||
        !safeEqual(cookieToken, formToken) ||
        (requestOrigin !== undefined && requestOrigin !== origin(request))
      ) {
        return sendPage(
          reply,
          403,
          errorPage(
            'This form has expired',
            'The form could not be verified. Go back to the application and start signing in again.',
          ),
        );
      }
      const v = validateAuthorizeRequest(db, form);
      if (v.kind !== 'ok') return answerInvalid(request, reply, v, 303);
      const back = (values: Record<string, string | undefined>) =>
        reply
          .header('Cache-Control', 'no-store')
          .redirect(redirectTo(v.redirectUri, { ...values, state: v.state, iss: origin(request) }), 303);
      const again = () => reply.redirect(`${selfUrl(request)}?${new URLSearchParams(v.params as Record<string, string>)}`, 303);

      switch (form.action) {
        case 'deny':
          return back({ error: 'access_denied', error_description: 'The user denied the request' });
        case 'switch': {
          const token = parseCookies(request.headers.cookie).get(SESSION_COOKIE);
          if (token) deleteSession(db, token);
          reply.header('Set-Cookie', cookie(request, SESSION_COOKIE, '', { sameSite: 'Lax', maxAge: 0 }));
          return again();
        }
        case 'login': {
          const email = typeof form.email === 'string' ? form.email : '';
          const password = typeof form.password === 'string' ? form.password : '';
          // Wrong passwords are slowed down as on the web sign-in: the same counters, per account and per address.
          const attempt =
            email && password
              ? await throttle.attempt(
                  email,
                  request.ip,
                  () => authenticateUser(db, email, password),
                  (u) => u !== undefined,
                )
              : ({ kind: 'done', value: undefined } as const);
          const ctx = view(request, reply, v);
          if (attempt.kind === 'wait') {
            const s = attempt.seconds;
            reply.header('Retry-After', String(s));
            const notice = `Too many failed sign-ins. Try again in ${s} second${s === 1 ? '' : 's'}.`;
            return sendPage(reply, 429, loginPage({ ...ctx, email, notice }));
          }
          const user = attempt.value;
          if (!user) return sendPage(reply, 401, loginPage({ ...ctx, email, notice: 'The email or password is not right.' }));
          if (!getMembership(db, v.client.teamId, user.id)) {
            return sendPage(reply, 403, loginPage({ ...ctx, email, notice: notMember(user, v.teamName) }));
          }
          const session = createSession(db, user.id);
          reply.header('Set-Cookie', cookie(request, SESSION_COOKIE, session, { sameSite: 'Lax' }));
          return again();
        }
        case 'approve': {
          const user = sessionUser(request);
          if (!user || !getMembership(db, v.client.teamId, user.id)) {
            const ctx = view(request, reply, v);
            return sendPage(reply, 401, loginPage({ ...ctx, notice: user ? notMember(user, v.teamName) : 'Sign in first.' }));
          }
          const { code } = createAuthorizationCode(db, {
            client: v.client,
            userId: user.id,
            scopes: v.scopes,
            redirectUri: v.redirectUri,
            codeChallenge: v.codeChallenge,
          });
          return back({ code });
        }
        default:
          return sendPage(reply, 400, errorPage('Unknown action', 'The form was not submitted by this page.'));
      }
    },
    { errorHandler },
  );
}
