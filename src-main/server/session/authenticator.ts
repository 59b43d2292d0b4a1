/**
 * The session cookie as a credential (docs/decisions/0110-web-sign-in-sessions.md): a signed-in person acts for
 * themselves in the session's team with every scope (`apis.all`), as the owner of a key would. Cookie-authenticated
 * requests that change something must also carry the session's CSRF token.
 */
import type { FastifyRequest } from 'fastify';
import { expandScopes, type Scope } from '../../../src-shared/contract/scopes';
import { findSession, touchSession, type WebSession } from '../../store/auth/sessions';
import type { Db } from '../../store/db';
import type { Credential } from '../auth/credentials';
import { type ApiError, forbidden, unauthorized } from '../errors';
import { readCookie } from './cookie';
import { CSRF_HEADER, csrfHeaderMatches, isSafeMethod } from './csrf';

const GRANTED: readonly Scope[] = ['apis.all'];
const SCOPES = expandScopes(GRANTED);

export interface SessionAuth {
  /**
   * The request's session credential; undefined when it sends no session cookie (the caller then says
   * "authentication required"); an ApiError for a cookie that is no longer valid (401) or a write without the CSRF
   * token (403).
   */
  authenticate(request: FastifyRequest): Credential | ApiError | undefined;
  /** The credential while the request's session is still live (re-checks of long-lived streams); no CSRF check. */
  recheck(request: FastifyRequest): Credential | undefined;
  /** The live session behind a request, for the session routes. */
  session(request: FastifyRequest): { session: WebSession; token: string } | undefined;
}

export function credentialOf(session: WebSession): Credential {
  return {
    kind: 'session',
    id: session.id,
    teamId: session.teamId,
    userId: session.userId,
    granted: GRANTED,
    scopes: SCOPES,
    // Streams end here and reconnect: a session idle past this point is signed out by then.
    expiresAt: Math.min(session.expiresAt, session.idleExpiresAt),
  };
}

export function sessionAuthenticator(db: Db, clock: () => number = Date.now): SessionAuth {
  const live = (request: FastifyRequest) => {
    const token = readCookie(request);
    if (!token) return undefined;
    const session = findSession(db, token, clock());
    return session ? { session, token } : null;
  };
  return {
    authenticate(request) {
      const found = live(request);
      if (found === undefined) return undefined;
      if (found === null)
        return unauthorized('Your session has ended. Sign in again.', 'The session expired, was signed out or was revoked.');
      if (!isSafeMethod(request.method) && !csrfHeaderMatches(request, found.token)) {
        return forbidden(
          'The request was refused: its CSRF token is missing or wrong',
          `Requests authenticated by the session cookie that change something must send the ${CSRF_HEADER} header from GET /app/session.`,
        );
      }
      return credentialOf(touchSession(db, found.session, clock()));
    },
    recheck(request) {
      const found = live(request);
      return found ? credentialOf(found.session) : undefined;
    },
    session(request) {
      return live(request) ?? undefined;
    },
  };
}
