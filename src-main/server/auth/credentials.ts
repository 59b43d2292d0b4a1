import { expandScopes, type Scope } from '../../../src-shared/contract/scopes';
import { findActiveApiKey, touchApiKey } from '../../store/auth/api-keys';
import { changeStamp, type Db } from '../../store/db';
import { teamVersions } from '../../store/team-versions';

/**
 * Who is calling: an API key, an OAuth access token or a signed-in web session (the session cookie,
 * server/session/), always bound to exactly one team.
 */
export interface Credential {
  kind: 'api_key' | 'oauth' | 'session';
  /** The api key id, the OAuth token id or the session id: the rate-limit and idempotency keys are scoped by it. */
  id: string;
  teamId: string;
  userId: string | null;
  /** The OAuth client's public id (OAuth access tokens): who acts when no person does. */
  clientId?: string;
  /** Scopes as granted (umbrellas kept), for messages. */
  granted: readonly Scope[];
  /** Scopes in force, umbrellas expanded. */
  scopes: ReadonlySet<Scope>;
  /** When the credential stops being valid by itself (OAuth access tokens), in epoch ms. */
  expiresAt?: number;
}

/** A resolved credential with the auth_seq of its team read in the same statement (store/team-versions.ts). */
export interface Resolved {
  credential: Credential;
  authSeq: number;
}

/**
 * Resolves a bearer token to its credential, or undefined when it is unknown, malformed, expired or revoked.
 * Each kind of token has a distinct prefix, so at most one lookup by hash runs per request.
 */
export type BearerResolver = (db: Db, token: string) => Resolved | undefined;

export const resolveApiKey: BearerResolver = (db, token) => {
  const key = findActiveApiKey(db, token);
  if (!key) return undefined;
  touchApiKey(db, key);
  return {
    credential: {
      kind: 'api_key',
      id: key.id,
      teamId: key.teamId,
      userId: key.userId,
      granted: key.scopes,
      scopes: expandScopes(key.scopes),
    },
    authSeq: key.teamAuthSeq,
  };
};

interface CacheEntry {
  credential: Credential;
  /** The team's auth_seq when the credential was resolved. */
  authSeq: number;
  /** The last change stamp under which the entry was known current. */
  stamp: string;
  resolvedAt: number;
}

const CACHE_SIZE = 256;
/** Entries are resolved afresh at least this often, which also keeps API keys' lastUsedAt within a minute. */
const CACHE_MAX_AGE_MS = 60_000;

/** Resolves a bearer token to its credential (see `credentialResolver`); `now` is injectable for tests. */
export type CredentialLookup = (token: string, now?: number) => Credential | undefined;

/**
 * The credential lookup of one server: the resolvers are tried in order (API keys, then whatever the app passes,
 * such as OAuth access tokens), and resolved credentials are remembered, since a client sends the same token on
 * every request. An entry stays current while its team's auth_seq has not moved (docs/decisions/0012): every
 * revocation bumps it in its own transaction, whether made through the server (an OAuth revocation, a replayed
 * code) or by another process (`finops token revoke` beside the running server). Other teams' writes and
 * bookkeeping writes (lastUsedAt) leave it alone. While the database's change stamp has not moved at all, not even
 * that one point read is needed (~4 µs instead of the hash lookup, the key's row and its scopes). Expiring tokens
 * stop at their expiry.
 */
export function credentialResolver(db: Db, resolvers: readonly BearerResolver[]): CredentialLookup {
  const cache = new Map<string, CacheEntry>();

  const isCurrent = (entry: CacheEntry, stamp: string): boolean => {
    if (entry.stamp === stamp) return true;
    if (teamVersions(db, entry.credential.teamId, stamp)?.authSeq !== entry.authSeq) return false;
    entry.stamp = stamp;
    return true;
  };

  return (token, now = Date.now()) => {
    const stamp = changeStamp(db);
    const hit = cache.get(token);
    if (
      hit &&
      now - hit.resolvedAt < CACHE_MAX_AGE_MS &&
      (hit.credential.expiresAt === undefined || now < hit.credential.expiresAt) &&
      isCurrent(hit, stamp)
    ) {
      return hit.credential;
    }
    cache.delete(token);
    for (const resolve of resolvers) {
      const resolved = resolve(db, token);
      if (!resolved) continue;
      // The auth_seq came with the credential from one statement: a revocation committed after it moves it on.
      if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      cache.set(token, { credential: resolved.credential, authSeq: resolved.authSeq, stamp, resolvedAt: now });
      return resolved.credential;
    }
    return undefined;
  };
}
