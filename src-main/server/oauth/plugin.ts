import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthorizationServerMetadata } from '../../../src-shared/contract/oauth';
import { ALL_SCOPES, expandScopes } from '../../../src-shared/contract/scopes';
import { ACCESS_TOKEN_PREFIX } from '../../store/auth/oauth/secrets';
import { findActiveAccessToken } from '../../store/auth/oauth/tokens';
import type { Db } from '../../store/db';
import type { BearerResolver } from '../auth/credentials';
import { registerAuthorizeRoutes } from './authorize';
import { oauthErrorHandler } from './errors';
import { registerTokenRoutes } from './token';

/**
 * The OAuth 2.0 authorization server (design: docs/decisions/0030-oauth-authorization-server.md).
 * - `oauthPlugin`, registered inside /v1: /oauth/authorize (HTML), /oauth/token, /oauth/revoke, contract routes
 *   (src-shared/contract/oauth.ts) taking form bodies and answering errors in RFC 6749 form. Its access-token
 *   resolver is handed to the auth plugin by app.ts.
 * - `oauthMetadataPlugin`, registered at the root: /.well-known/oauth-authorization-server (RFC 8414).
 */

/**
 * Access tokens authenticate like API keys. The credential id is the grant id, not the token id: it stays the
 * same across refreshes, so rate limits and idempotency keys (scoped by credential) survive a token rotation.
 */
export const resolveOAuthAccessToken: BearerResolver = (db, token) => {
  if (!token.startsWith(ACCESS_TOKEN_PREFIX)) return undefined;
  const found = findActiveAccessToken(db, token);
  if (!found) return undefined;
  return {
    credential: {
      kind: 'oauth',
      id: found.grantId,
      teamId: found.teamId,
      userId: found.userId,
      clientId: found.clientId,
      granted: found.scopes,
      scopes: expandScopes(found.scopes),
      expiresAt: Date.parse(found.expiresAt),
    },
    authSeq: found.teamAuthSeq,
  };
};

export async function oauthPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  registerAuthorizeRoutes(app, opts.db, oauthErrorHandler);
  registerTokenRoutes(app, opts.db, oauthErrorHandler);
}

/** The issuer is the server's own origin as the client reached it (scheme + Host), so metadata URLs are absolute. */
export function issuerOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

export function authorizationServerMetadata(issuer: string): AuthorizationServerMetadata {
  return {
    issuer,
    authorization_endpoint: `${issuer}/v1/oauth/authorize`,
    token_endpoint: `${issuer}/v1/oauth/token`,
    revocation_endpoint: `${issuer}/v1/oauth/revoke`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    scopes_supported: [...ALL_SCOPES],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${issuer}/v1/docs`,
  };
}

export async function oauthMetadataPlugin(app: FastifyInstance): Promise<void> {
  app.get('/.well-known/oauth-authorization-server', { schema: { hide: true } }, async (request, reply) => {
    reply.header('Cache-Control', 'no-cache');
    return authorizationServerMetadata(issuerOf(request));
  });
}
