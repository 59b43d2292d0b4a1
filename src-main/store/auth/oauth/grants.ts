import type { Scope } from '../../../../src-shared/contract/scopes';
import type { Db } from '../../db';
import { newId } from '../../ids';
import { bumpAuthSeq } from '../../team-versions';
import { hashSecret } from '../api-keys';
import type { OAuthClient } from './clients';
import {
  ACCESS_TOKEN_PREFIX,
  ACCESS_TOKEN_TTL_SECONDS,
  isoIn,
  newSecret,
  REFRESH_TOKEN_PREFIX,
  REFRESH_TOKEN_TTL_SECONDS,
} from './secrets';

/**
 * Grants and the tokens issued under them. Each grant (one consent, or one client-credentials issue) owns its codes
 * and tokens. Every state change of a token request — consuming a code, rotating a refresh token, issuing tokens,
 * revoking a grant on replay — happens in one SQLite transaction, so two racing requests can never both succeed
 * with the same code or refresh token. Failures are returned as values (`OAuthFailure`), not thrown, because some
 * must still commit (a replayed code revokes its grant; a wrong PKCE verifier still consumes the code).
 */

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

/** A failed token request, as the token endpoint answers it. */
export const fail = (error: OAuthErrorCode, description: string): { ok: false } & OAuthFailure => ({
  ok: false,
  error,
  description,
});

function insertToken(db: Db, grantId: string, kind: 'access' | 'refresh', scopes: readonly Scope[], now: Date): string {
  const token = newSecret(kind === 'access' ? ACCESS_TOKEN_PREFIX : REFRESH_TOKEN_PREFIX);
  const ttl = kind === 'access' ? ACCESS_TOKEN_TTL_SECONDS : REFRESH_TOKEN_TTL_SECONDS;
  db.prepare(
    `INSERT INTO oauth_tokens (id, grant_id, kind, token_hash, scopes, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(newId(), grantId, kind, hashSecret(token), scopes.join(' '), isoIn(now, ttl), now.toISOString());
  return token;
}

/** A fresh access token, and a refresh token unless `refreshScopes` is null, under the grant. */
export function issue(
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

/** A new grant of the client's team: one consent (authorization code) or one client-credentials issue. */
export function insertGrant(
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

/** A grant made for a user holds only while the user stays a member of the client's team. */
export function isMember(db: Db, teamId: string, userId: string): boolean {
  return !!db.prepare('SELECT 1 FROM team_members WHERE team_id = ? AND user_id = ?').get(teamId, userId);
}

export function scopeFailure(reason: 'unknown-scope' | 'not-allowed', scopes: string[], allowed: readonly Scope[]) {
  return reason === 'unknown-scope'
    ? fail('invalid_scope', `Unknown scope(s): ${scopes.join(' ')}`)
    : fail('invalid_scope', `Scope(s) not allowed for this client: ${scopes.join(' ')}. Allowed: ${allowed.join(' ')}`);
}
