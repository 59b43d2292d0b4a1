import { expandScopes, type Scope } from '../../../src-shared/contract/scopes';
import { findActiveApiKey, touchApiKey } from '../../store/api-keys';
import { changeStamp, type Db } from '../../store/db';

/** Who is calling: an API key or an OAuth access token, always bound to exactly one team. */
export interface Credential {
  kind: 'api_key' | 'oauth';
  /** The api key id or the OAuth token id: the rate-limit and idempotency keys are scoped by it. */
  id: string;
  teamId: string;
  userId: string | null;
  /** Scopes as granted (umbrellas kept), for messages. */
  granted: readonly Scope[];
  /** Scopes in force, umbrellas expanded. */
  scopes: ReadonlySet<Scope>;
  /** When the credential stops being valid by itself (OAuth access tokens), in epoch ms. */
  expiresAt?: number;
}

/**
 * Resolves a bearer token to its credential, or undefined when it is unknown, malformed, expired or revoked.
 * Each kind of token has a distinct prefix, so at most one lookup by hash runs per request.
 */
export type BearerResolver = (db: Db, token: string) => Credential | undefined;

export const resolveApiKey: BearerResolver = (db, token) => {
  const key = findActiveApiKey(db, token);
  if (!key) return undefined;
  touchApiKey(db, key);
  return { kind: 'api_key', id: key.id, teamId: key.teamId, userId: null, granted: key.scopes, scopes: expandScopes(key.scopes) };
};

interface CacheEntry {
  credential: Credential;
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
 * such as OAuth access tokens), and resolved credentials are remembered. A client sends the same token on every
 * request, so a credential is remembered only while the database is unchanged since (see changeStamp): any commit
 * voids every entry at once, whether made through the server (an OAuth revocation, a rotated token) or by another
 * process (`finops token revoke` beside the running server). Expiring tokens stop at their expiry. Checking the
 * stamp (~4 µs) replaces the hash lookup, the key's row and its scopes on most authenticated requests.
 */
export function credentialResolver(db: Db, resolvers: readonly BearerResolver[]): CredentialLookup {
  const cache = new Map<string, CacheEntry>();
  return (token, now = Date.now()) => {
    const stamp = changeStamp(db);
    const hit = cache.get(token);
    if (
      hit &&
      hit.stamp === stamp &&
      now - hit.resolvedAt < CACHE_MAX_AGE_MS &&
      (hit.credential.expiresAt === undefined || now < hit.credential.expiresAt)
    ) {
      return hit.credential;
    }
    cache.delete(token);
    for (const resolve of resolvers) {
      const credential = resolve(db, token);
      if (!credential) continue;
      // Remembered only if nothing was committed while resolving (a write of ours, or a revocation racing it).
      if (changeStamp(db) === stamp) {
        if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
        cache.set(token, { credential, stamp, resolvedAt: now });
      }
      return credential;
    }
    return undefined;
  };
}
