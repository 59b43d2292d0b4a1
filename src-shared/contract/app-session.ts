import { z } from 'zod';
import { idParams } from './list';
import { defineRoute } from './route';

/**
 * Web sign-in (internal app API under /app; docs/decisions/0110-web-sign-in-sessions.md). The web build of the UI
 * signs a local user in with email and password; the server answers with an HttpOnly, SameSite=Strict session
 * cookie and a CSRF token that the UI sends as `X-CSRF-Token` on every request that changes something. No API key
 * is ever handed to the browser.
 */

const INTERNAL = 'Internal app API (under /app, not part of the public v1 contract).';

export const SignInBody = z.strictObject({
  email: z.string().trim().min(1, 'Enter your email address').max(320),
  password: z.string().min(1, 'Enter your password').max(1000),
  teamId: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('the team to sign in to, for a user in several; default the team the user joined first'),
});
export type SignInBody = z.infer<typeof SignInBody>;

export const SessionInfo = z
  .object({
    id: z.string().describe('the session id (not its secret)'),
    csrfToken: z.string().describe('send as X-CSRF-Token on every request that is not GET or HEAD'),
    expiresAt: z.string().describe('the latest the session lasts; it ends sooner after 12 hours unused'),
    user: z.object({ id: z.string(), email: z.string(), fullName: z.string(), role: z.enum(['owner', 'member']) }),
    team: z.object({ id: z.string(), name: z.string() }),
    teams: z.array(z.object({ id: z.string(), name: z.string() })).describe('every team the user may sign in to'),
  })
  .meta({ id: 'AppSessionInfo' });
export type SessionInfo = z.infer<typeof SessionInfo>;

export const SessionSummary = z
  .object({
    id: z.string(),
    current: z.boolean().describe('the session making this request'),
    createdAt: z.string(),
    lastSeenAt: z.string(),
    expiresAt: z.string(),
    userAgent: z.string().nullable(),
    ip: z.string().nullable(),
  })
  .meta({ id: 'AppSessionSummary' });
export type SessionSummary = z.infer<typeof SessionSummary>;

const tag = 'app: session';

export const appSessionRoutes = {
  signIn: defineRoute({
    method: 'POST',
    path: '/session',
    mount: '/app',
    tag,
    summary: 'Sign in with email and password: sets the session cookie',
    description: `${INTERNAL} Repeated wrong passwords are slowed down per account and per address (429 with Retry-After).`,
    public: true,
    scopes: [],
    body: SignInBody,
    responses: { 201: SessionInfo },
  }),
  current: defineRoute({
    method: 'GET',
    path: '/session',
    mount: '/app',
    tag,
    summary: 'The signed-in session (401 when there is none)',
    description: INTERNAL,
    scopes: [],
    responses: { 200: SessionInfo },
  }),
  signOut: defineRoute({
    method: 'DELETE',
    path: '/session',
    mount: '/app',
    tag,
    summary: 'Sign out: ends this session and clears its cookie',
    description: INTERNAL,
    scopes: [],
    responses: { 200: z.object({ signedOut: z.literal(true) }) },
  }),
  list: defineRoute({
    method: 'GET',
    path: '/sessions',
    mount: '/app',
    tag,
    summary: "The signed-in user's live sessions in this team, newest first",
    description: INTERNAL,
    scopes: [],
    responses: { 200: z.object({ data: z.array(SessionSummary) }) },
  }),
  revoke: defineRoute({
    method: 'DELETE',
    path: '/sessions/:id',
    mount: '/app',
    tag,
    summary: "Sign out one of the user's sessions (another browser, a lost laptop)",
    description: INTERNAL,
    scopes: [],
    params: idParams(),
    responses: { 200: z.object({ revoked: z.literal(true) }) },
  }),
};
