import type { FastifyInstance, FastifyRequest } from 'fastify';
import { appSessionRoutes, type SessionInfo } from '../../../src-shared/contract/app-session';
import {
  createSession,
  listSessions,
  revokeSession,
  SESSION_MAX_AGE_MS,
  userTeams,
  type WebSession,
} from '../../store/auth/sessions';
import type { Db } from '../../store/db';
import { authenticateUser, getUser } from '../../store/users/users';
import { ApiError, forbidden, notFound } from '../errors';
import { registerRoute } from '../route';
import type { SessionAuth } from '../session/authenticator';
import { clearedSessionCookie, sessionCookie } from '../session/cookie';
import { csrfTokenFor } from '../session/csrf';
import { signInThrottle } from '../session/sign-in-throttle';

/**
 * Web sign-in under /app (contract/app-session.ts, docs/decisions/0110-web-sign-in-sessions.md): sign in, the
 * current session, sign out, and the user's other sessions.
 */
export interface AppSessionOptions {
  db: Db;
  sessions: SessionAuth;
  clock?: () => number;
}

const tooMany = (seconds: number) =>
  new ApiError(
    429,
    'Too Many Requests',
    `Too many failed sign-ins. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
    'Repeated wrong passwords are slowed down, per account and per address.',
    seconds,
    { 'Retry-After': String(seconds) },
  );

const wrongCredentials = () =>
  new ApiError(401, 'Unauthorized', 'The email or password is not right.', 'Check both and try again.');

function sessionInfo(db: Db, session: WebSession, token: string): SessionInfo {
  const user = getUser(db, session.userId);
  const teams = userTeams(db, session.userId);
  const team = teams.find((t) => t.id === session.teamId);
  return {
    id: session.id,
    csrfToken: csrfTokenFor(token),
    expiresAt: new Date(Math.min(session.expiresAt, session.idleExpiresAt)).toISOString(),
    user: { id: user.id, email: user.email, fullName: user.fullName, role: session.role },
    team: { id: session.teamId, name: team?.name ?? '' },
    teams: teams.map((t) => ({ id: t.id, name: t.name })),
  };
}

export async function appSessionRoutesPlugin(app: FastifyInstance, opts: AppSessionOptions): Promise<void> {
  const { db, sessions } = opts;
  const clock = opts.clock ?? Date.now;
  const throttle = signInThrottle(db, clock);

  /** The live session behind a session-authenticated request; 404 for bearer credentials (they have none). */
  const current = (request: FastifyRequest) => {
    const found = request.credential?.kind === 'session' ? sessions.session(request) : undefined;
    if (!found) throw notFound('No web session', 'This credential is not a signed-in web session.');
    return found;
  };

  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('Cache-Control', 'no-store');
    done(null, payload);
  });

  registerRoute(app, appSessionRoutes.signIn, async ({ body, request, reply }) => {
    const attempt = await throttle.attempt(
      body.email,
      request.ip,
      () => authenticateUser(db, body.email, body.password),
      (user) => user !== undefined,
    );
    if (attempt.kind === 'wait') throw tooMany(attempt.seconds);
    const user = attempt.value;
    if (!user) throw wrongCredentials();
    const teams = userTeams(db, user.id);
    const team = body.teamId ? teams.find((t) => t.id === body.teamId) : teams[0];
    if (!team) {
      throw forbidden(
        body.teamId ? 'You are not a member of that team.' : 'This account is not a member of any team.',
        'Ask a team owner to add you (finops user create --team TEAM --email EMAIL).',
      );
    }
    const { token, session } = createSession(
      db,
      { teamId: team.id, userId: user.id, userAgent: request.headers['user-agent'] ?? null, ip: request.ip },
      clock(),
    );
    reply.header('Set-Cookie', sessionCookie(request, token, SESSION_MAX_AGE_MS / 1000));
    return sessionInfo(db, session, token);
  });

  registerRoute(app, appSessionRoutes.current, ({ request }) => {
    const { session, token } = current(request);
    return sessionInfo(db, session, token);
  });

  registerRoute(app, appSessionRoutes.signOut, ({ request, reply }) => {
    const { session } = current(request);
    revokeSession(db, session.teamId, session.userId, session.id, clock());
    reply.header('Set-Cookie', clearedSessionCookie(request));
    return { signedOut: true as const };
  });

  registerRoute(app, appSessionRoutes.list, ({ request }) => {
    const { session } = current(request);
    return {
      data: listSessions(db, session.teamId, session.userId, clock()).map((s) => ({
        id: s.id,
        current: s.id === session.id,
        createdAt: s.createdAt,
        lastSeenAt: new Date(s.lastSeenAt).toISOString(),
        expiresAt: new Date(Math.min(s.expiresAt, s.idleExpiresAt)).toISOString(),
        userAgent: s.userAgent,
        ip: s.ip,
      })),
    };
  });

  registerRoute(app, appSessionRoutes.revoke, ({ request, reply, params }) => {
    const { session } = current(request);
    if (!revokeSession(db, session.teamId, session.userId, params.id, clock())) throw notFound('No such session', params.id);
    if (params.id === session.id) reply.header('Set-Cookie', clearedSessionCookie(request));
    return { revoked: true as const };
  });
}
