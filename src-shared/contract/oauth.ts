import { z } from 'zod';
import { defineRoute } from './route';

/**
 * The OAuth 2.0 endpoints that machines call, as public contract routes (no bearer credential; the client
 * authenticates itself with HTTP Basic or body parameters). The browser endpoints (`GET|POST /oauth/authorize`,
 * an HTML login and consent page) and the RFC 8414 metadata document are served outside the contract.
 *
 * Error bodies follow RFC 6749 §5.2 (`error`, `error_description`) and also carry the spec's Error payload fields
 * `message` and `requestId`, so clients of either kind read them. Design: docs/decisions/0030-oauth-authorization-server.md.
 */

/** Form or JSON parameters are single strings; a repeated parameter is refused (RFC 6749 §3.1). */
const Param = z.string();

export const TokenRequest = z
  .looseObject({
    grant_type: Param.describe('authorization_code, refresh_token or client_credentials'),
    code: Param.optional(),
    redirect_uri: Param.optional(),
    code_verifier: Param.optional().describe('PKCE (RFC 7636), S256 only'),
    refresh_token: Param.optional(),
    scope: Param.optional().describe('space-separated; must be within what the client (or the grant) allows'),
    client_id: Param.optional().describe('when not using HTTP Basic'),
    client_secret: Param.optional().describe('when not using HTTP Basic; confidential clients only'),
  })
  .meta({ id: 'OAuthTokenRequest' });

export const TokenResponse = z
  .object({
    access_token: z.string().describe('finops_at_…, valid for expires_in seconds (2 h)'),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int(),
    refresh_token: z.string().optional().describe('finops_rt_…, single use, rotating, 30 days; absent for client_credentials'),
    scope: z.string().describe('the granted scopes, space-separated'),
  })
  .meta({ id: 'OAuthTokenResponse' });
export type TokenResponse = z.infer<typeof TokenResponse>;

export const OAuthErrorPayload = z
  .object({
    error: z.string().describe('RFC 6749 error code, e.g. invalid_grant'),
    error_description: z.string().optional(),
    message: z.string().describe('human-readable explanation (same text as error_description)'),
    requestId: z.string().optional().describe('correlation id for support; equals the X-Request-Id header'),
    retryAfterSeconds: z.number().int().optional().describe('on 429: seconds until a new request is allowed'),
  })
  .meta({ id: 'OAuthError' });
export type OAuthErrorPayload = z.infer<typeof OAuthErrorPayload>;

export const RevokeRequest = z
  .looseObject({
    token: Param.describe('an access or refresh token issued to the calling client'),
    token_type_hint: Param.optional().describe('access_token or refresh_token (optional, not needed)'),
    client_id: Param.optional(),
    client_secret: Param.optional(),
  })
  .meta({ id: 'OAuthRevokeRequest' });

export const AuthorizationServerMetadata = z.object({
  issuer: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  revocation_endpoint: z.string(),
  response_types_supported: z.array(z.string()),
  response_modes_supported: z.array(z.string()),
  grant_types_supported: z.array(z.string()),
  code_challenge_methods_supported: z.array(z.string()),
  token_endpoint_auth_methods_supported: z.array(z.string()),
  revocation_endpoint_auth_methods_supported: z.array(z.string()),
  scopes_supported: z.array(z.string()),
  authorization_response_iss_parameter_supported: z.boolean(),
  service_documentation: z.string().optional(),
});
export type AuthorizationServerMetadata = z.infer<typeof AuthorizationServerMetadata>;

export const oauthRoutes = {
  token: defineRoute({
    method: 'POST',
    path: '/oauth/token',
    tag: 'oauth',
    summary: 'Exchange an authorization code, rotate a refresh token, or issue a client-credentials token',
    description:
      'Body as application/x-www-form-urlencoded or JSON. Client authentication by HTTP Basic or client_id/client_secret ' +
      'in the body. Answers with Cache-Control: no-store. A reused code or refresh token revokes its whole grant.',
    scopes: [],
    public: true,
    body: TokenRequest,
    responses: { 200: TokenResponse },
  }),
  revoke: defineRoute({
    method: 'POST',
    path: '/oauth/revoke',
    tag: 'oauth',
    summary: 'Revoke an access or refresh token (RFC 7009); revoking a refresh token ends its whole grant',
    scopes: [],
    public: true,
    body: RevokeRequest,
    responses: { 200: z.object({}) },
  }),
};
