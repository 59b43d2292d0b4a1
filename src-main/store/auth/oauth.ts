import crypto from 'node:crypto';
import { isScope, type Scope } from '../../../src-shared/contract/scopes';
import type { Db } from '../db';
import { InvalidReference } from '../errors';
import { newId } from '../ids';
import { bumpAuthSeq } from '../team-versions';
import { hashSecret } from './api-keys';
import { checkPkce, checkRedirectUri, REDIRECT_URI_PROBLEMS, resolveRequestedScopes } from './oauth-checks';

/**
 * OAuth 2.0 clients, grants, codes and tokens (schema: migrations/003-oauth.ts; design:
 * docs/decisions/0030-oauth-authorization-server.md).
 *
 * Every secret is 256 random bits behind a prefix naming its kind, so a secret scanner (and our bearer resolver)
 * tells them apart at a glance; only SHA-256 hashes are stored (full-entropy secrets need no slow hash):
 *   client id `finops_ci_…` (public, stored as is)   client secret `finops_cs_…`
 *   authorization code `finops_ac_…`   access token `finops_at_…`   refresh token `finops_rt_…`
 *
 * Each grant (one consent, or one client-credentials issue) owns its codes and tokens. Every state change of a
 * token request — consuming a code, rotating a refresh token, issuing tokens, revoking a grant on replay — happens
 * in one SQLite transaction, so two racing requests can never both succeed with the same code or refresh token.
 * Failures are returned as values (`OAuthFailure`), not thrown, because some must still commit (a replayed code
 * revokes its grant; a wrong PKCE verifier still consumes the code).
 */
export const CLIENT_ID_PREFIX = 'finops_ci_';
export const CLIENT_SECRET_PREFIX = 'finops_cs_';
export const CODE_PREFIX = 'finops_ac_';
export const ACCESS_TOKEN_PREFIX = 'finops_at_';
export const REFRESH_TOKEN_PREFIX = 'finops_rt_';

export const CODE_TTL_SECONDS = 5 * 60;
export const ACCESS_TOKEN_TTL_SECONDS = 2 * 60 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
export const SESSION_TTL_SECONDS = 8 * 60 * 60;

const SECRET_PATTERN = /^finops_(cs|ac|at|rt)_[0-9a-f]{64}$/;

function newSecret(prefix: string): string {
  return prefix + crypto.randomBytes(32).toString('hex');
}

function hasShape(secret: string, prefix: string): boolean {
  return secret.startsWith(prefix) && SECRET_PATTERN.test(secret);
}

const isoIn = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();

// ---------------------------------------------------------------------------------------------------- clients

export interface OAuthClient {
  /** Internal row id. */
  id: string;
  /** The public `client_id`. */
  clientId: string;
  teamId: string;
  name: string;
  /** No secret: PKCE is then required, and the client-credentials grant is refused. */
  isPublic: boolean;
  redirectUris: string[];
  scopes: Scope[];
  createdAt: string;
  revokedAt: string | null;
}

interface ClientRow {
  id: string;
  client_id: string;
  team_id: string;
  name: string;
  secret_hash: string | null;
  redirect_uris: string;
  scopes: string;
  created_at: string;
  revoked_at: string | null;
}

const toClient = (r: ClientRow): OAuthClient => ({
  id: r.id,
  clientId: r.client_id,
  teamId: r.team_id,
  name: r.name,
  isPublic: r.secret_hash === null,
  redirectUris: JSON.parse(r.redirect_uris) as string[],
  scopes: r.scopes.split(' ').filter(isScope),
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

/**
 * Registers a client for the team. Redirect URIs must pass `checkRedirectUri`; a public client needs at least one
 * (it can only use the code flow). Returns the client secret once (null for a public client).
 */
export function createClient(
  db: Db,
  teamId: string,
  input: { name: string; scopes: readonly Scope[]; redirectUris: readonly string[]; isPublic: boolean },
  now = new Date(),
): { client: OAuthClient; clientSecret: string | null } {
  for (const uri of input.redirectUris) {
    const check = checkRedirectUri(uri);
    if (check !== 'ok') throw new InvalidReference('redirect_uri', `redirect URI ${uri} ${REDIRECT_URI_PROBLEMS[check]}`);
  }
  if (input.isPublic && input.redirectUris.length === 0) {
    throw new InvalidReference('redirect_uri', 'a public client needs at least one redirect URI');
  }
  if (input.scopes.length === 0) throw new InvalidReference('scopes', 'a client needs at least one scope');
  const id = newId();
  const clientId = CLIENT_ID_PREFIX + crypto.randomBytes(16).toString('hex');
  const clientSecret = input.isPublic ? null : newSecret(CLIENT_SECRET_PREFIX);
  db.prepare(
    `INSERT INTO oauth_clients (id, client_id, team_id, name, secret_hash, redirect_uris, scopes, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    clientId,
    teamId,
    input.name,
    clientSecret ? hashSecret(clientSecret) : null,
    JSON.stringify([...new Set(input.redirectUris)]),
    [...new Set(input.scopes)].join(' '),
    now.toISOString(),
  );
  return { client: toClient(db.prepare('SELECT * FROM oauth_clients WHERE id = ?').get(id) as ClientRow), clientSecret };
}

export function listClients(db: Db, teamId: string): OAuthClient[] {
  return (db.prepare('SELECT * FROM oauth_clients WHERE team_id = ? ORDER BY created_at').all(teamId) as ClientRow[]).map(
    toClient,
  );
}

/** The active (not revoked) client with this public client_id. */
export function findClient(db: Db, clientId: string): OAuthClient | undefined {
  const row = db.prepare('SELECT * FROM oauth_clients WHERE client_id = ? AND revoked_at IS NULL').get(clientId) as
    | ClientRow
    | undefined;
  return row ? toClient(row) : undefined;
}

export type ClientAuthentication =
  | { ok: true; client: OAuthClient }
  | { ok: false; reason: 'unknown-client' | 'secret-required' | 'secret-wrong' | 'secret-unexpected' };

/**
 * Authenticates a client at the token or revocation endpoint: a confidential client must present its secret; a
 * public client must present none (it proves possession through PKCE instead).
 */
export function authenticateClient(db: Db, clientId: string, clientSecret: string | undefined): ClientAuthentication {
  const row = db.prepare('SELECT * FROM oauth_clients WHERE client_id = ? AND revoked_at IS NULL').get(clientId) as
    | ClientRow
    | undefined;
  if (!row) return { ok: false, reason: 'unknown-client' };
  if (row.secret_hash === null) {
    return clientSecret ? { ok: false, reason: 'secret-unexpected' } : { ok: true, client: toClient(row) };
  }
  if (!clientSecret) return { ok: false, reason: 'secret-required' };
  const a = Buffer.from(hashSecret(clientSecret));
  const b = Buffer.from(row.secret_hash);
  if (!hasShape(clientSecret, CLIENT_SECRET_PREFIX) || !crypto.timingSafeEqual(a, b))
    return { ok: false, reason: 'secret-wrong' };
  return { ok: true, client: toClient(row) };
}

// ----------------------------------------------------------------------------------------------- token issue

export interface IssuedTokens {
  grantId: string;
  accessToken: string;
  /** Null for the client-credentials grant. */
  refreshToken: string | null;
  expiresIn: number;
  scopes: Scope[];
}

export type OAuthErrorCode = 'invalid_grant' | 'invalid_scope' | 'unauthorized_client' | 'invalid_request';
export interface OAuthFailure {
  error: OAuthErrorCode;
  description: string;
}
export type TokenOutcome = ({ ok: true } & IssuedTokens) | ({ ok: false } & OAuthFailure);

const fail = (error: OAuthErrorCode, description: string): { ok: false } & OAuthFailure => ({ ok: false, error, description });

function insertToken(db: Db, grantId: string, kind: 'access' | 'refresh', scopes: readonly Scope[], now: Date): string {
  const token = newSecret(kind === 'access' ? ACCESS_TOKEN_PREFIX : REFRESH_TOKEN_PREFIX);
  const ttl = kind === 'access' ? ACCESS_TOKEN_TTL_SECONDS : REFRESH_TOKEN_TTL_SECONDS;
  db.prepare(
    `INSERT INTO oauth_tokens (id, grant_id, kind, token_hash, scopes, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(newId(), grantId, kind, hashSecret(token), scopes.join(' '), isoIn(now, ttl), now.toISOString());
  return token;
}

function issue(
  db: Db,
  grantId: string,
  accessScopes: readonly Scope[],
  refreshScopes: readonly Scope[] | null,
  now: Date,
): { ok: true } & IssuedTokens {
  return {
    ok: true,
    grantId,
    accessToken: insertToken(db, grantId, 'access', accessScopes, now),
    refreshToken: refreshScopes ? insertToken(db, grantId, 'refresh', refreshScopes, now) : null,
    expiresIn: ACCESS_TOKEN_TTL_SECONDS,
    scopes: [...accessScopes],
  };
}

function insertGrant(
  db: Db,
  client: OAuthClient,
  kind: 'authorization_code' | 'client_credentials',
  userId: string | null,
  scopes: readonly Scope[],
  now: Date,
): string {
  const id = newId();
  db.prepare(
    'INSERT INTO oauth_grants (id, team_id, client_id, user_id, kind, scopes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run(id, client.teamId, client.id, userId, kind, scopes.join(' '), now.toISOString());
  return id;
}

/**
 * Revokes a grant and every code and token issued under it, and marks the team's cached credentials stale, in one
 * transaction. Idempotent; the first reason is kept.
 */
export function revokeGrant(db: Db, grantId: string, reason: string, now = new Date()): void {
  const at = now.toISOString();
  db.transaction(() => {
    const grant = db.prepare('SELECT team_id FROM oauth_grants WHERE id = ?').get(grantId) as { team_id: string } | undefined;
    if (!grant) return;
    bumpAuthSeq(db, grant.team_id);
    db.prepare('UPDATE oauth_grants SET revoked_at = ?, revoked_reason = ? WHERE id = ? AND revoked_at IS NULL').run(
      at,
      reason,
      grantId,
    );
    db.prepare('UPDATE oauth_tokens SET revoked_at = ? WHERE grant_id = ? AND revoked_at IS NULL').run(at, grantId);
    db.prepare('UPDATE oauth_codes SET used_at = COALESCE(used_at, ?) WHERE grant_id = ?').run(at, grantId);
  })();
}

/**
 * Deletes codes expired for more than a day and tokens expired for more than 30 days. Spent codes and rotated
 * refresh tokens are kept that long so that a replay still revokes its grant; past that a replay is merely
 * "invalid". Runs inside the issuing transactions, so the tables stay small without a timer.
 */
export function purgeExpired(db: Db, now = new Date()): void {
  db.prepare('DELETE FROM oauth_codes WHERE expires_at < ?').run(isoIn(now, -24 * 60 * 60));
  db.prepare('DELETE FROM oauth_tokens WHERE expires_at < ?').run(isoIn(now, -REFRESH_TOKEN_TTL_SECONDS));
}

function isMember(db: Db, teamId: string, userId: string): boolean {
  return !!db.prepare('SELECT 1 FROM team_members WHERE team_id = ? AND user_id = ?').get(teamId, userId);
}

// ------------------------------------------------------------------------------------ authorization code grant

/**
 * Records a user's consent: a new grant and its authorization code (5 minutes, single use). `scopes` must already
 * be checked against the client (resolveRequestedScopes), `redirectUri` against its registered list.
 */
export function createAuthorizationCode(
  db: Db,
  input: { client: OAuthClient; userId: string; scopes: readonly Scope[]; redirectUri: string; codeChallenge: string | null },
  now = new Date(),
): { code: string; grantId: string } {
  const code = newSecret(CODE_PREFIX);
  const grantId = db
    .transaction(() => {
      purgeExpired(db, now);
      const grantId = insertGrant(db, input.client, 'authorization_code', input.userId, input.scopes, now);
      db.prepare(
        `INSERT INTO oauth_codes (id, grant_id, code_hash, redirect_uri, code_challenge, code_challenge_method, expires_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        newId(),
        grantId,
        hashSecret(code),
        input.redirectUri,
        input.codeChallenge,
        input.codeChallenge ? 'S256' : null,
        isoIn(now, CODE_TTL_SECONDS),
        now.toISOString(),
      );
      return grantId;
    })
    .immediate();
  return { code, grantId };
}

interface CodeRow {
  id: string;
  grant_id: string;
  redirect_uri: string;
  code_challenge: string | null;
  expires_at: string;
  used_at: string | null;
  client_id: string;
  team_id: string;
  user_id: string | null;
  scopes: string;
  grant_revoked_at: string | null;
}

const PKCE_PROBLEMS = {
  'verifier-missing': 'code_verifier is required: the authorization request carried a code_challenge',
  'verifier-malformed': 'code_verifier must be 43-128 characters of A-Z a-z 0-9 - . _ ~',
  'verifier-mismatch': 'code_verifier does not match the code_challenge',
  'verifier-unexpected': 'code_verifier was sent but the authorization request carried no code_challenge',
} as const;

/**
 * Exchanges an authorization code (RFC 6749 §4.1.3 + RFC 7636). The code is consumed by the first attempt that
 * presents it for the right client, even if that attempt then fails (a wrong verifier cannot be retried). A code
 * presented again is a replay: the grant and every token issued from the code are revoked (RFC 6749 §4.1.2).
 */
export function exchangeAuthorizationCode(
  db: Db,
  input: { client: OAuthClient; code: string; redirectUri: string | undefined; codeVerifier: string | undefined },
  now = new Date(),
): TokenOutcome {
  if (!hasShape(input.code, CODE_PREFIX)) return fail('invalid_grant', 'The authorization code is invalid');
  return db
    .transaction((): TokenOutcome => {
      const row = db
        .prepare(
          `SELECT c.id, c.grant_id, c.redirect_uri, c.code_challenge, c.expires_at, c.used_at,
                  g.client_id, g.team_id, g.user_id, g.scopes, g.revoked_at AS grant_revoked_at
           FROM oauth_codes c JOIN oauth_grants g ON g.id = c.grant_id WHERE c.code_hash = ?`,
        )
        .get(hashSecret(input.code)) as CodeRow | undefined;
      if (!row || row.client_id !== input.client.id) return fail('invalid_grant', 'The authorization code is invalid');
      if (row.used_at !== null) {
        revokeGrant(db, row.grant_id, 'authorization code reused', now);
        return fail('invalid_grant', 'The authorization code was already used; every token issued from it has been revoked');
      }
      db.prepare('UPDATE oauth_codes SET used_at = ? WHERE id = ?').run(now.toISOString(), row.id);
      if (row.grant_revoked_at !== null) return fail('invalid_grant', 'The authorization was revoked');
      if (row.expires_at <= now.toISOString()) return fail('invalid_grant', 'The authorization code has expired');
      if (input.redirectUri !== row.redirect_uri) {
        return fail('invalid_grant', 'redirect_uri must be identical to the one of the authorization request');
      }
      if (input.client.isPublic && !row.code_challenge) return fail('invalid_grant', 'PKCE is required for public clients');
      const pkce = checkPkce(row.code_challenge, input.codeVerifier);
      if (pkce !== 'ok') return fail('invalid_grant', PKCE_PROBLEMS[pkce]);
      if (row.user_id && !isMember(db, row.team_id, row.user_id)) {
        revokeGrant(db, row.grant_id, 'user left the team', now);
        return fail('invalid_grant', "The user is no longer a member of the client's team");
      }
      const scopes = row.scopes.split(' ').filter(isScope);
      return issue(db, row.grant_id, scopes, scopes, now);
    })
    .immediate();
}

// ------------------------------------------------------------------------------------------ refresh token grant

interface RefreshRow {
  id: string;
  grant_id: string;
  scopes: string;
  expires_at: string;
  rotated_at: string | null;
  revoked_at: string | null;
  client_id: string;
  team_id: string;
  user_id: string | null;
  grant_revoked_at: string | null;
}

/**
 * Rotates a refresh token (RFC 6749 §6): the presented token is spent and a new access + refresh pair is issued
 * for the same grant; the new refresh token lives another 30 days. Presenting a spent refresh token again means
 * it was copied: the grant and every token of it are revoked. `scope` may narrow the new access token.
 */
export function refreshTokens(
  db: Db,
  input: { client: OAuthClient; refreshToken: string; scope: string | undefined },
  now = new Date(),
): TokenOutcome {
  if (!hasShape(input.refreshToken, REFRESH_TOKEN_PREFIX)) return fail('invalid_grant', 'The refresh token is invalid');
  return db
    .transaction((): TokenOutcome => {
      const row = db
        .prepare(
          `SELECT t.id, t.grant_id, t.scopes, t.expires_at, t.rotated_at, t.revoked_at,
                  g.client_id, g.team_id, g.user_id, g.revoked_at AS grant_revoked_at
           FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id WHERE t.token_hash = ? AND t.kind = 'refresh'`,
        )
        .get(hashSecret(input.refreshToken)) as RefreshRow | undefined;
      if (!row || row.client_id !== input.client.id) return fail('invalid_grant', 'The refresh token is invalid');
      if (row.grant_revoked_at !== null || row.revoked_at !== null) return fail('invalid_grant', 'The refresh token was revoked');
      if (row.rotated_at !== null) {
        revokeGrant(db, row.grant_id, 'refresh token reused', now);
        return fail('invalid_grant', 'The refresh token was already used; the authorization has been revoked');
      }
      if (row.expires_at <= now.toISOString()) return fail('invalid_grant', 'The refresh token has expired');
      const granted = row.scopes.split(' ').filter(isScope);
      const requested = resolveRequestedScopes(input.scope, granted);
      if (!requested.ok) {
        return fail(
          'invalid_scope',
          `scope must be within the original grant (${granted.join(' ')}): ${requested.scopes.join(' ')}`,
        );
      }
      if (row.user_id && !isMember(db, row.team_id, row.user_id)) {
        revokeGrant(db, row.grant_id, 'user left the team', now);
        return fail('invalid_grant', "The user is no longer a member of the client's team");
      }
      db.prepare('UPDATE oauth_tokens SET rotated_at = ? WHERE id = ?').run(now.toISOString(), row.id);
      return issue(db, row.grant_id, requested.scopes, granted, now);
    })
    .immediate();
}

// ------------------------------------------------------------------------------------ client credentials grant

/** RFC 6749 §4.4: a confidential client's own access token, bound to its team, without a user or refresh token. */
export function issueClientCredentials(
  db: Db,
  input: { client: OAuthClient; scope: string | undefined },
  now = new Date(),
): TokenOutcome {
  if (input.client.isPublic) return fail('unauthorized_client', 'A public client cannot use the client_credentials grant');
  const requested = resolveRequestedScopes(input.scope, input.client.scopes);
  if (!requested.ok) return scopeFailure(requested.reason, requested.scopes, input.client.scopes);
  return db
    .transaction(() => {
      purgeExpired(db, now);
      const grantId = insertGrant(db, input.client, 'client_credentials', null, requested.scopes, now);
      return issue(db, grantId, requested.scopes, null, now);
    })
    .immediate();
}

export function scopeFailure(reason: 'unknown-scope' | 'not-allowed', scopes: string[], allowed: readonly Scope[]) {
  return reason === 'unknown-scope'
    ? fail('invalid_scope', `Unknown scope(s): ${scopes.join(' ')}`)
    : fail('invalid_scope', `Scope(s) not allowed for this client: ${scopes.join(' ')}. Allowed: ${allowed.join(' ')}`);
}

// --------------------------------------------------------------------------------------- access & revocation

export interface ActiveAccessToken {
  tokenId: string;
  grantId: string;
  clientId: string;
  teamId: string;
  userId: string | null;
  scopes: Scope[];
  expiresAt: string;
  /** The team's auth_seq read in the same statement: a cache of this token is current while it stays (team-versions.ts). */
  teamAuthSeq: number;
}

/**
 * The live access token with this value, or undefined when it is unknown, malformed, expired or revoked — or its
 * grant or client is revoked, or its user has left the team.
 */
export function findActiveAccessToken(db: Db, token: string, now = new Date()): ActiveAccessToken | undefined {
  if (!hasShape(token, ACCESS_TOKEN_PREFIX)) return undefined;
  const row = db
    .prepare(
      `SELECT t.id AS tokenId, g.id AS grantId, c.client_id AS clientId, g.team_id AS teamId, g.user_id AS userId, t.scopes,
              t.expires_at AS expiresAt, tm.auth_seq AS teamAuthSeq
       FROM oauth_tokens t
       JOIN oauth_grants g ON g.id = t.grant_id
       JOIN oauth_clients c ON c.id = g.client_id
       JOIN teams tm ON tm.id = g.team_id
       WHERE t.token_hash = ? AND t.kind = 'access' AND t.revoked_at IS NULL AND t.expires_at > ?
         AND g.revoked_at IS NULL AND c.revoked_at IS NULL
         AND (g.user_id IS NULL OR EXISTS (SELECT 1 FROM team_members m WHERE m.team_id = g.team_id AND m.user_id = g.user_id))`,
    )
    .get(hashSecret(token), now.toISOString()) as (Omit<ActiveAccessToken, 'scopes'> & { scopes: string }) | undefined;
  return row ? { ...row, scopes: row.scopes.split(' ').filter(isScope) } : undefined;
}

/**
 * RFC 7009 revocation by the client the token was issued to. Revoking a refresh token revokes its whole grant
 * (every access token issued under it, §2.1); revoking an access token revokes that token alone. Unknown tokens,
 * and tokens of another client, change nothing (the endpoint answers 200 either way, revealing nothing).
 */
export function revokeToken(db: Db, client: OAuthClient, token: string, now = new Date()): 'revoked' | 'ignored' {
  if (!hasShape(token, ACCESS_TOKEN_PREFIX) && !hasShape(token, REFRESH_TOKEN_PREFIX)) return 'ignored';
  return db
    .transaction(() => {
      const row = db
        .prepare(
          `SELECT t.id, t.kind, t.grant_id, g.client_id, g.team_id FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id
           WHERE t.token_hash = ?`,
        )
        .get(hashSecret(token)) as
        | { id: string; kind: 'access' | 'refresh'; grant_id: string; client_id: string; team_id: string }
        | undefined;
      if (!row || row.client_id !== client.id) return 'ignored' as const;
      if (row.kind === 'refresh') revokeGrant(db, row.grant_id, 'refresh token revoked by the client', now);
      else {
        db.prepare('UPDATE oauth_tokens SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?').run(now.toISOString(), row.id);
        bumpAuthSeq(db, row.team_id);
      }
      return 'revoked' as const;
    })
    .immediate();
}

// ------------------------------------------------------------------------------- authorize-page login sessions

export function createSession(db: Db, userId: string, now = new Date()): string {
  const token = crypto.randomBytes(32).toString('base64url');
  db.prepare('DELETE FROM oauth_sessions WHERE expires_at <= ?').run(now.toISOString());
  db.prepare('INSERT INTO oauth_sessions (id, session_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)').run(
    newId(),
    hashSecret(token),
    userId,
    now.toISOString(),
    isoIn(now, SESSION_TTL_SECONDS),
  );
  return token;
}

/** The user id of a live session, or undefined. */
export function findSessionUser(db: Db, token: string, now = new Date()): string | undefined {
  const row = db
    .prepare('SELECT user_id FROM oauth_sessions WHERE session_hash = ? AND expires_at > ?')
    .get(hashSecret(token), now.toISOString()) as { user_id: string } | undefined;
  return row?.user_id;
}

export function deleteSession(db: Db, token: string): void {
  db.prepare('DELETE FROM oauth_sessions WHERE session_hash = ?').run(hashSecret(token));
}
