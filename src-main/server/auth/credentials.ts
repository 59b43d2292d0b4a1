import { expandScopes, type Scope } from '../../../src-shared/contract/scopes';
import { findActiveApiKey, touchApiKey } from '../../store/api-keys';
import type { Db } from '../../store/db';

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

const resolvers: BearerResolver[] = [resolveApiKey];

/** OAuth registers its access-token resolver here, keeping this module free of OAuth details. */
export function addBearerResolver(resolver: BearerResolver): void {
  if (!resolvers.includes(resolver)) resolvers.push(resolver);
}

export function resolveBearer(db: Db, token: string): Credential | undefined {
  for (const resolve of resolvers) {
    const credential = resolve(db, token);
    if (credential) return credential;
  }
  return undefined;
}
