/**
 * CSRF protection of cookie-authenticated writes (docs/decisions/0110-web-sign-in-sessions.md). Every request that
 * is not GET or HEAD and is authenticated by the session cookie must carry `X-CSRF-Token` with the session's token.
 * The token is derived from the session token (a hash under a fixed label), so nothing more is stored, and only a
 * page that can read the server's answers — the same origin — can learn it (the UI reads it from GET /app/session).
 */
import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';

export const CSRF_HEADER = 'x-csrf-token';

export function csrfTokenFor(sessionToken: string): string {
  return crypto.createHash('sha256').update(`finops-csrf\0${sessionToken}`).digest('base64url');
}

export function csrfHeaderMatches(request: Pick<FastifyRequest, 'headers'>, sessionToken: string): boolean {
  const sent = request.headers[CSRF_HEADER];
  if (typeof sent !== 'string' || sent.length === 0) return false;
  const expected = Buffer.from(csrfTokenFor(sessionToken));
  const actual = Buffer.from(sent);
  return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
}

/** Methods that change nothing, which need no CSRF token. */
export function isSafeMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}
