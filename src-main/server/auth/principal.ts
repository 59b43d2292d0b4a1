import type { Credential } from './credentials';

/**
 * Who acts behind a credential, as a run records who started it and an approval who decided
 * (store/workflows/runs/approvals.ts): a person whatever credential of theirs they use (`user:<id>` — their web
 * session, their own API key, an OAuth grant they authorised), else the API key (`api-key:<id>`), else the OAuth
 * client (`oauth-client:<client id>`: a client-credentials token is a new grant each time, its client stays).
 */
export function principalOf(auth: Credential): string {
  if (auth.userId) return `user:${auth.userId}`;
  if (auth.kind === 'oauth' && auth.clientId) return `oauth-client:${auth.clientId}`;
  return `${auth.kind === 'api_key' ? 'api-key' : auth.kind}:${auth.id}`;
}
