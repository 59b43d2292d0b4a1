import { z } from 'zod';
import { defineRoute } from './route';

/**
 * The OAuth 2.0 endpoints as public contract routes (no bearer credential; a client authenticates itself with HTTP
 * Basic or body parameters): the token and revocation endpoints that machines call, and the authorize page that
 * browsers open (`GET|POST /oauth/authorize`, HTML, left out of the OpenAPI document). All of them count against
 * the per-IP `oauth` rate limit. The RFC 8414 metadata document is served outside the contract.
 *
 * Error bodies follow RFC 6749 §5.2 (`error`, `error_description`) and also carry the spec's Error payload fields
 * `message` and `requestId`, so clients of either kind read them (the authorize page shows its own errors as pages
 * or sends them back to the client's redirect URI). Design: docs/decisions/0030-oauth-authorization-server.md.
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

/** Every error of an OAuth endpoint that is not a page. */
const OAUTH_ERRORS = {
  400: OAuthErrorPayload,
  401: OAuthErrorPayload,
  413: OAuthErrorPayload,
  415: OAuthErrorPayload,
  429: OAuthErrorPayload,
  500: OAuthErrorPayload,
};

/** Machines may send form or JSON bodies; browsers send forms. */
const FORM_OR_JSON = ['application/x-www-form-urlencoded', 'application/json'] as const;

/**
 * A parameter of the authorize page as sent. A name given more than once arrives as a list, which the page refuses
 * in its own way (a page or a redirect naming it, RFC 6749 §3.1), so the schema lets it through.
 */
const PageParam = z.union([z.string(), z.array(z.string())]).optional();

export const AuthorizeQuery = z.looseObject({
  response_type: PageParam.describe('code'),
  client_id: PageParam,
  redirect_uri: PageParam.describe('exactly one of the redirect URIs registered for the client'),
  scope: PageParam.describe('space-separated; default: everything the client may have'),
  state: PageParam.describe('required; sent back unchanged'),
  code_challenge: PageParam.describe('PKCE S256 challenge; required for public clients'),
  code_challenge_method: PageParam.describe('S256'),
});

/** The page's forms: the authorization request as hidden fields, the CSRF token, the action and its inputs. */
export const AuthorizeForm = AuthorizeQuery.extend({
  csrf_token: PageParam,
  action: PageParam.describe('login, approve, deny or switch'),
  email: PageParam,
  password: PageParam,
});

export const HtmlPage = z.string().describe('an HTML page');

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
  authorize: defineRoute({
    method: 'GET',
    path: '/oauth/authorize',
    tag: 'oauth',
    summary: 'The sign-in and consent page of an authorization request (RFC 6749 §4.1.1)',
    scopes: [],
    public: true,
    hidden: true,
    rateLimit: 'oauth',
    query: AuthorizeQuery,
    produces: 'text/html',
    responses: { 200: HtmlPage },
    errorResponses: OAUTH_ERRORS,
  }),
  authorizeSubmit: defineRoute({
    method: 'POST',
    path: '/oauth/authorize',
    tag: 'oauth',
    summary: "The authorize page's forms: sign in, approve, deny, switch user",
    scopes: [],
    public: true,
    hidden: true,
    rateLimit: 'oauth',
    consumes: ['application/x-www-form-urlencoded'],
    // A POST without any form still gets the page's answer (the form has expired), not an API error.
    body: AuthorizeForm.optional(),
    produces: 'text/html',
    responses: { 200: HtmlPage },
    errorResponses: OAUTH_ERRORS,
  }),
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
    rateLimit: 'oauth',
    consumes: FORM_OR_JSON,
    body: TokenRequest,
    responses: { 200: TokenResponse },
    errorResponses: OAUTH_ERRORS,
  }),
  revoke: defineRoute({
    method: 'POST',
    path: '/oauth/revoke',
    tag: 'oauth',
    summary: 'Revoke an access or refresh token (RFC 7009); revoking a refresh token ends its whole grant',
    scopes: [],
    public: true,
    rateLimit: 'oauth',
    consumes: FORM_OR_JSON,
    body: RevokeRequest,
    responses: { 200: z.object({}) },
    errorResponses: OAUTH_ERRORS,
  }),
};
