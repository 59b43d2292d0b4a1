/**
 * The session cookie (docs/decisions/0110-web-sign-in-sessions.md): `finops_session`, HttpOnly (no script can read
 * it), SameSite=Strict (never sent by a request another site starts), Path=/, Secure when the page came over https.
 * Its Max-Age is the session's absolute lifetime; the server ends it sooner when it sits idle or is revoked.
 */
import type { FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'finops_session';

/** The value of one cookie of the request's Cookie header, or undefined. */
export function readCookie(request: Pick<FastifyRequest, 'headers'>, name: string = SESSION_COOKIE): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    return value === '' ? undefined : value;
  }
  return undefined;
}

function secure(request: Pick<FastifyRequest, 'protocol'>): boolean {
  return request.protocol === 'https';
}

export function sessionCookie(request: Pick<FastifyRequest, 'protocol'>, token: string, maxAgeSeconds: number): string {
  return [
    `${SESSION_COOKIE}=${token}`,
    'Path=/',
    `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(secure(request) ? ['Secure'] : []),
  ].join('; ');
}

/** Tells the browser to forget the cookie (sign-out, or a cookie the server no longer accepts). */
export function clearedSessionCookie(request: Pick<FastifyRequest, 'protocol'>): string {
  return [
    `${SESSION_COOKIE}=`,
    'Path=/',
    'Max-Age=0',
    'HttpOnly',
    'SameSite=Strict',
    ...(secure(request) ? ['Secure'] : []),
  ].join('; ');
}
