import type { FastifyInstance, FastifyRequest } from 'fastify';
import { oauthRoutes, type TokenResponse } from '../../../src-shared/contract/oauth';
import { parseBasicAuth } from '../../store/auth/oauth/checks';
import { authenticateClient, type OAuthClient } from '../../store/auth/oauth/clients';
import { exchangeAuthorizationCode } from '../../store/auth/oauth/codes';
import type { TokenOutcome } from '../../store/auth/oauth/grants';
import { issueClientCredentials, refreshTokens, revokeToken } from '../../store/auth/oauth/tokens';
import type { Db } from '../../store/db';
import { registerRoute } from '../route';
import { invalidClient, invalidRequest, type OAuthErrorHandler, OAuthHttpError } from './errors';

/**
 * POST /v1/oauth/token and POST /v1/oauth/revoke. Bodies arrive as form or JSON (the contract schema has already
 * refused non-string and repeated parameters); the grant logic lives in store/oauth.ts, one transaction each.
 */

type Params = Readonly<Record<string, unknown>>;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

const CLIENT_AUTH_PROBLEMS = {
  'unknown-client': 'Client authentication failed: unknown client_id',
  'secret-required': 'Client authentication failed: this client is confidential and must send its client_secret',
  'secret-wrong': 'Client authentication failed: wrong client_secret',
  'secret-unexpected': 'Client authentication failed: a public client has no client_secret; use PKCE instead',
} as const;

/** RFC 6749 §2.3: HTTP Basic or body parameters, never both; a public client identifies itself by client_id alone. */
export function authenticateTokenClient(db: Db, request: FastifyRequest, body: Params): OAuthClient {
  const basic = parseBasicAuth(request.headers.authorization);
  if (basic === 'malformed') throw invalidClient('Client authentication failed: malformed HTTP Basic credentials');
  let clientId: string | undefined;
  let clientSecret: string | undefined;
  if (basic) {
    if (str(body.client_secret))
      throw invalidRequest('Use one client authentication method: HTTP Basic or client_secret in the body');
    if (str(body.client_id) && body.client_id !== basic.clientId)
      throw invalidRequest('client_id differs from the HTTP Basic user');
    clientId = basic.clientId;
    clientSecret = basic.clientSecret || undefined;
  } else {
    clientId = str(body.client_id);
    clientSecret = str(body.client_secret);
  }
  if (!clientId) throw invalidClient('Client authentication failed: send HTTP Basic credentials or client_id in the body');
  const auth = authenticateClient(db, clientId, clientSecret);
  if (!auth.ok) throw invalidClient(CLIENT_AUTH_PROBLEMS[auth.reason]);
  return auth.client;
}

function tokenResponse(outcome: TokenOutcome): TokenResponse {
  if (!outcome.ok) throw new OAuthHttpError(400, outcome.error, outcome.description);
  return {
    access_token: outcome.accessToken,
    token_type: 'Bearer',
    expires_in: outcome.expiresIn,
    ...(outcome.refreshToken ? { refresh_token: outcome.refreshToken } : {}),
    scope: outcome.scopes.join(' '),
  };
}

/** `errorHandler` answers every error of these routes in RFC 6749 form. */
export function registerTokenRoutes(app: FastifyInstance, db: Db, errorHandler: OAuthErrorHandler): void {
  registerRoute(
    app,
    oauthRoutes.token,
    ({ body, request, reply }) => {
      reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
      const grantType = str(body.grant_type);
      if (!grantType) throw invalidRequest('grant_type is required');
      if (!['authorization_code', 'refresh_token', 'client_credentials'].includes(grantType)) {
        throw new OAuthHttpError(400, 'unsupported_grant_type', `grant_type ${grantType} is not supported`);
      }
      const client = authenticateTokenClient(db, request, body);
      switch (grantType) {
        case 'authorization_code': {
          const code = str(body.code);
          if (!code) throw invalidRequest('code is required');
          return tokenResponse(
            exchangeAuthorizationCode(db, {
              client,
              code,
              redirectUri: str(body.redirect_uri),
              codeVerifier: str(body.code_verifier),
            }),
          );
        }
        case 'refresh_token': {
          const refreshToken = str(body.refresh_token);
          if (!refreshToken) throw invalidRequest('refresh_token is required');
          return tokenResponse(refreshTokens(db, { client, refreshToken, scope: str(body.scope) }));
        }
        default:
          return tokenResponse(issueClientCredentials(db, { client, scope: str(body.scope) }));
      }
    },
    { errorHandler },
  );

  registerRoute(
    app,
    oauthRoutes.revoke,
    ({ body, request, reply }) => {
      reply.header('Cache-Control', 'no-store');
      const client = authenticateTokenClient(db, request, body);
      const value = str(body.token);
      if (!value) throw invalidRequest('token is required');
      revokeToken(db, client, value);
      return {};
    },
    { errorHandler },
  );
}
