import { z } from 'zod';
import { CONFLICT_RULE_CODES, ConflictRuleParams } from '../domain/sync/conflict-rules';
import { BooleanQuery } from './list';
import { defineRoute } from './route';

/**
 * The Sync screen's API (internal app API under /app; docs/decisions/0145-sync-screen.md): the team's remote
 * and its round state, the credential kept by the server (never in SQLite, never echoed back), a connection test,
 * "sync now", and the conflicts with both values. Reading the state is open to every member (the app frame shows
 * when the remote is unreachable); changing it is team administration: an owner, or a credential granted `apis.all`.
 */

const INTERNAL = 'Internal app API (under /app, not part of the public v1 contract).';
const ADMIN = `${INTERNAL} Team administration: a signed-in owner of the team, or a credential granted apis.all.`;

export const REMOTE_KINDS = ['finops', 'hosted'] as const;
export const REMOTE_STATES = ['idle', 'running', 'failed', 'credentials_expired', 'refused'] as const;
/**
 * What the team's sync comes to, as a person reads it first: `up_to_date` only when the last round finished and no
 * conflict waits for a choice (a round that ends with open conflicts is `open_conflicts`, never "up to date").
 */
export const SYNC_STANDINGS = [
  'not_connected',
  'never_synced',
  'up_to_date',
  'open_conflicts',
  'running',
  'failed',
  'credentials_expired',
  'refused',
] as const;
export type SyncStanding = (typeof SYNC_STANDINGS)[number];

/** A round running or failing says so first; then open conflicts; up to date only with none. */
export function syncStanding(
  remote: { state: (typeof REMOTE_STATES)[number]; lastSuccessAt: string | null } | null,
  openConflicts: number,
): SyncStanding {
  if (!remote) return 'not_connected';
  if (remote.state !== 'idle') return remote.state;
  if (openConflicts > 0) return 'open_conflicts';
  return remote.lastSuccessAt ? 'up_to_date' : 'never_synced';
}

/** `https://host/v1`: http or https, the path ending in `/v1`, nothing after it. */
export function isRemoteBaseUrl(url: string): boolean {
  try {
    const u = new URL(url.trim());
    return (u.protocol === 'http:' || u.protocol === 'https:') && /\/v1\/?$/.test(u.pathname) && !u.search && !u.hash;
  } catch {
    return false;
  }
}

export const RemoteBaseUrl = z
  .string()
  .trim()
  .max(2000)
  .refine(isRemoteBaseUrl, 'a base URL with http or https whose path ends in /v1, such as https://finops.example.com/v1');

export const SyncRemoteInfo = z
  .object({
    id: z.string(),
    name: z.string(),
    baseUrl: z.string(),
    kind: z.enum(REMOTE_KINDS),
    kindSource: z
      .enum(['chosen', 'found'])
      .describe('chosen: someone named the kind; found: a round found it by asking the remote for its change feed'),
    remoteTeamId: z.string().nullable().describe('the remote team the credential belongs to, once a round has seen it'),
    state: z.enum(REMOTE_STATES),
    lastSuccessAt: z.string().nullable(),
    lastError: z.string().nullable(),
    lastSummary: z
      .object({ pulled: z.number().int(), pushed: z.number().int(), conflicts: z.number().int(), finishedAt: z.string() })
      .nullable(),
    roundStartedAt: z.string().nullable(),
    progress: z.object({ phase: z.string().nullable(), done: z.number().int(), total: z.number().int() }),
  })
  .meta({ id: 'AppSyncRemote' });
export type SyncRemoteInfo = z.infer<typeof SyncRemoteInfo>;

export const SECRET_STORAGES = ['os-keychain', 'encrypted-file', 'session-only'] as const;

export const SyncStatusBody = z
  .object({
    remote: SyncRemoteInfo.nullable(),
    online: z.boolean().describe('false when the last round failed because the remote could not be reached'),
    pendingChanges: z.number().int(),
    openConflicts: z.number().int(),
    standing: z
      .enum(SYNC_STANDINGS)
      .describe('what it comes to: up_to_date only when the last round finished and no conflict is open'),
    credential: z.object({
      present: z.boolean(),
      from: z
        .enum(['environment', ...SECRET_STORAGES])
        .nullable()
        .describe('where rounds take it: $FINOPS_REMOTE_TOKEN, the OS keychain, or this server process until it restarts'),
    }),
    secretStorage: z.enum(SECRET_STORAGES).describe('where a credential entered now is kept'),
    scheduled: z.boolean().describe('this server runs rounds by itself (periodically and soon after local edits)'),
    canManage: z.boolean().describe('the caller may connect, test, sync and resolve'),
  })
  .meta({ id: 'AppSyncStatus' });
export type SyncStatusBody = z.infer<typeof SyncStatusBody>;

export const RemoteBody = z
  .object({
    baseUrl: RemoteBaseUrl,
    kind: z
      .enum(REMOTE_KINDS)
      .optional()
      .describe(
        'finops: another Finops Desk server; hosted: the hosted service (walked list by list); left out: the first round finds out',
      ),
    name: z.string().trim().min(1).max(100).optional(),
  })
  .strict();

export const CredentialBody = z.object({ apiKey: z.string().trim().min(1).max(4096) }).strict();

/** Starting an OAuth sign-in to the remote (authorization code + PKCE) with a client registered there. */
export const OAuthStartBody = z
  .object({
    baseUrl: RemoteBaseUrl,
    kind: z.enum(REMOTE_KINDS).optional().describe('left out: the first round finds out'),
    clientId: z.string().trim().min(1).max(200).describe("the OAuth client registered on the remote for this server's redirect"),
    scope: z.string().trim().max(1000).optional().describe('space-separated scopes to ask for (default: the client’s)'),
    redirect: z
      .enum(['web', 'loopback'])
      .default('web')
      .describe(
        "web: this server's /app/sync/oauth/callback; loopback (the desktop window only): the system browser's answer reaches a one-shot listener on 127.0.0.1 and the server finishes the sign-in",
      ),
    port: z
      .number()
      .int()
      .min(0)
      .max(65535)
      .optional()
      .describe("loopback: the listener's port registered with the client (default: any free one)"),
  })
  .strict();

export const OAuthStartResult = z
  .object({
    authorizeUrl: z.string().describe("the remote's page where the person signs in and allows the client"),
    redirectUri: z.string().describe('where the remote sends the answer; it must be registered with the client'),
    state: z.string().describe('names this sign-in (loopback: follow it at /app/sync/oauth/sign-ins/{state})'),
  })
  .meta({ id: 'AppSyncOAuthStart' });

export const OAuthSignInProgress = z
  .object({
    status: z.enum(['waiting', 'done', 'failed', 'cancelled']),
    message: z.string().nullable().describe('why it failed, said for people'),
  })
  .meta({ id: 'AppSyncOAuthSignIn' });

/** The callback's answer, as the Sync screen hands it back (with the session that started the sign-in). */
export const OAuthFinishBody = z.object({ state: z.string().min(1).max(200), code: z.string().min(1).max(2000) }).strict();

export const OAuthCallbackQuery = z.object({
  state: z.string().max(200).optional(),
  code: z.string().max(2000).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(1000).optional(),
});

export const ConnectionTestBody = z
  .object({
    baseUrl: RemoteBaseUrl,
    apiKey: z.string().trim().min(1).max(4096).optional().describe("default: the credential kept for the team's remote"),
  })
  .strict();

export const ConnectionTestResult = z
  .object({
    ok: z.boolean(),
    reason: z.string().nullable().describe('why the remote cannot be synced with, said for people'),
    reachable: z.boolean(),
    team: z.object({ id: z.string(), name: z.string().nullable(), baseCurrency: z.string().nullable() }).nullable(),
    baseCurrency: z.string().describe("this team's base currency"),
  })
  .meta({ id: 'AppSyncConnectionTest' });
export type ConnectionTestResult = z.infer<typeof ConnectionTestResult>;

const Values = z.record(z.string(), z.unknown()).nullable();

export const SyncConflictInfo = z
  .object({
    id: z.string(),
    entity: z.string(),
    recordId: z.string().describe('the local record'),
    kind: z.enum(['fields', 'delete', 'refused']),
    group: z.string(),
    fields: z.array(z.string()).describe('the fields in conflict (empty: the whole record)'),
    base: Values,
    local: Values.describe("this replica's values (null: deleted here)"),
    remote: Values.describe("the remote's values (null: deleted there)"),
    rule: z.string().describe('the stated rule that decided, in English (as the CLI shows it)'),
    ruleCode: z
      .enum(CONFLICT_RULE_CODES)
      .nullable()
      .describe('the rule as a code screens translate (null: recorded before codes; show `rule`)'),
    ruleParams: ConflictRuleParams.nullable().describe("the rule sentence's variable parts; `message` is said as it was"),
    kept: z.enum(['local', 'remote']).describe('the side the stated rule kept'),
    createdAt: z.string(),
    resolvedAt: z.string().nullable(),
    took: z.enum(['local', 'remote']).nullable().describe("a person's choice, once resolved"),
  })
  .meta({ id: 'AppSyncConflict' });
export type SyncConflictInfo = z.infer<typeof SyncConflictInfo>;

export const appSyncRoutes = {
  oauthStart: defineRoute({
    method: 'POST',
    path: '/sync/oauth/start',
    mount: '/app',
    tag: 'app: sync',
    summary: "Start signing in to the remote with OAuth: the remote's authorization page for this team's sign-in",
    description: `${ADMIN} The PKCE verifier stays on the server; the state is single-use, expires after ten minutes and belongs to this credential (docs/decisions/0145-sync-screen.md).`,
    scopes: ['teams.write'],
    body: OAuthStartBody,
    responses: { 200: OAuthStartResult },
  }),
  oauthCallback: defineRoute({
    method: 'GET',
    path: '/sync/oauth/callback',
    mount: '/app',
    tag: 'app: sync',
    summary: "The remote's redirect after a sign-in: hands its answer to the Sync screen (303 to /sync), which finishes it",
    description: `${INTERNAL} Public: it changes nothing; the answer counts only when the session that started the sign-in finishes it.`,
    scopes: [],
    public: true,
    query: OAuthCallbackQuery,
    responses: { 303: z.null() },
  }),
  oauthFinish: defineRoute({
    method: 'POST',
    path: '/sync/oauth/finish',
    mount: '/app',
    tag: 'app: sync',
    summary: 'Finish an OAuth sign-in: exchange the code, keep the grant in the secret store and connect the remote',
    description: `${ADMIN} Only the credential (the web session) that started the sign-in can finish it.`,
    scopes: ['teams.write'],
    body: OAuthFinishBody,
    responses: { 200: SyncStatusBody },
  }),
  oauthProgress: defineRoute({
    method: 'GET',
    path: '/sync/oauth/sign-ins/:state',
    mount: '/app',
    tag: 'app: sync',
    summary: 'Where a loopback sign-in stands: waiting for the browser, done (the remote is connected), failed or cancelled',
    description: `${ADMIN} Only the credential that started the sign-in can follow it.`,
    scopes: ['teams.write'],
    params: z.object({ state: z.string().max(200) }),
    responses: { 200: OAuthSignInProgress },
  }),
  oauthCancel: defineRoute({
    method: 'DELETE',
    path: '/sync/oauth/sign-ins/:state',
    mount: '/app',
    tag: 'app: sync',
    summary: 'Stop waiting for the browser in a loopback sign-in (one that ended keeps its outcome)',
    description: `${ADMIN} Only the credential that started the sign-in can cancel it.`,
    scopes: ['teams.write'],
    params: z.object({ state: z.string().max(200) }),
    responses: { 200: OAuthSignInProgress },
  }),
  status: defineRoute({
    method: 'GET',
    path: '/sync/status',
    mount: '/app',
    tag: 'app: sync',
    summary: "The team's remote, its round state and progress, pending changes, open conflicts, whether it is online",
    description: INTERNAL,
    scopes: ['teams.read'],
    responses: { 200: SyncStatusBody },
  }),
  putRemote: defineRoute({
    method: 'PUT',
    path: '/sync/remote',
    mount: '/app',
    tag: 'app: sync',
    summary: 'Connect the team to a remote (or change its name or kind); a team keeps one remote',
    description: ADMIN,
    scopes: ['teams.write'],
    body: RemoteBody,
    responses: { 200: SyncStatusBody },
  }),
  deleteRemote: defineRoute({
    method: 'DELETE',
    path: '/sync/remote',
    mount: '/app',
    tag: 'app: sync',
    summary: 'Disconnect the remote: its bookkeeping and the kept credential go; the local data stays',
    description: ADMIN,
    scopes: ['teams.write'],
    responses: { 200: SyncStatusBody },
  }),
  putCredential: defineRoute({
    method: 'PUT',
    path: '/sync/credential',
    mount: '/app',
    tag: 'app: sync',
    summary: "Keep an API key of the remote for the team's rounds (in the server's secret store, never in the database)",
    description: ADMIN,
    scopes: ['teams.write'],
    body: CredentialBody,
    responses: { 200: SyncStatusBody },
  }),
  test: defineRoute({
    method: 'POST',
    path: '/sync/test',
    mount: '/app',
    tag: 'app: sync',
    summary: 'Test a connection: which team and base currency the remote answers for with this credential, or why not',
    description: ADMIN,
    scopes: ['teams.write'],
    body: ConnectionTestBody,
    responses: { 200: ConnectionTestResult },
  }),
  syncNow: defineRoute({
    method: 'POST',
    path: '/sync/run',
    mount: '/app',
    tag: 'app: sync',
    summary: 'Start a round now; poll the status for its progress',
    description: ADMIN,
    scopes: ['teams.write'],
    responses: { 202: SyncStatusBody },
  }),
  conflicts: defineRoute({
    method: 'GET',
    path: '/sync/conflicts',
    mount: '/app',
    tag: 'app: sync',
    summary: 'The conflicts rounds met, newest first, each with both values and the side its rule kept',
    description: INTERNAL,
    scopes: ['teams.read'],
    query: z.object({ all: BooleanQuery.describe('resolved ones too') }),
    responses: { 200: z.object({ data: z.array(SyncConflictInfo) }) },
  }),
  resolve: defineRoute({
    method: 'POST',
    path: '/sync/conflicts/:id/resolve',
    mount: '/app',
    tag: 'app: sync',
    summary: 'Take one side of a conflict; the value taken syncs like any local edit',
    description: ADMIN,
    scopes: ['teams.write'],
    params: z.object({ id: z.string() }),
    body: z.object({ take: z.enum(['local', 'remote']) }).strict(),
    responses: { 200: SyncConflictInfo },
  }),
  resolveMany: defineRoute({
    method: 'POST',
    path: '/sync/conflicts/resolve',
    mount: '/app',
    tag: 'app: sync',
    summary: 'Take one side of several open conflicts at once (a first round can meet dozens)',
    description: `${ADMIN} Each conflict is taken in its own write, as one by one would: one that cannot be taken (already resolved, gone, or a record the store still refuses) is listed under \`failed\` with its reason, and the others are taken.`,
    scopes: ['teams.write'],
    body: z
      .object({
        take: z.enum(['local', 'remote']),
        ids: z.array(z.string().min(1)).min(1).max(500).describe('open conflicts of this team, at most 500'),
      })
      .strict(),
    responses: {
      200: z
        .object({
          resolved: z.array(SyncConflictInfo),
          failed: z.array(z.object({ id: z.string(), message: z.string() })),
        })
        .meta({ id: 'AppSyncConflictsResolved' }),
    },
  }),
};
