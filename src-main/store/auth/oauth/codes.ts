import { isScope, type Scope } from '../../../../src-shared/contract/scopes';
import type { Db } from '../../db';
import { newId } from '../../ids';
import { hashSecret } from '../api-keys';
import { checkPkce } from './checks';
import type { OAuthClient } from './clients';
import { fail, insertGrant, isMember, issue, purgeExpired, revokeGrant, type TokenOutcome } from './grants';
import { CODE_PREFIX, CODE_TTL_SECONDS, hasShape, isoIn, newSecret } from './secrets';

/** The authorization code grant (RFC 6749 §4.1 with PKCE, RFC 7636): a user's consent, then its code's exchange. */

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
