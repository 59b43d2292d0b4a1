import { isScope, type Scope } from '../../../../src-shared/contract/scopes';
import type { Db } from '../../db';
import { bumpAuthSeq } from '../../team-versions';
import { hashSecret } from '../api-keys';
import { resolveRequestedScopes } from './checks';
import type { OAuthClient } from './clients';
import { fail, insertGrant, isMember, issue, purgeExpired, revokeGrant, scopeFailure, type TokenOutcome } from './grants';
import { ACCESS_TOKEN_PREFIX, hasShape, REFRESH_TOKEN_PREFIX } from './secrets';

/** Tokens after the first issue: refresh rotation, the client-credentials grant, bearer lookup and revocation. */

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
