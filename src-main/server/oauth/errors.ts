import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { OAuthErrorPayload } from '../../../src-shared/contract/oauth';
import { toApiError } from '../errors';

/**
 * An error of the token or revocation endpoint in RFC 6749 §5.2 form. The body also carries the spec's Error
 * payload fields (`message`, `requestId`), so a client reading either convention understands it.
 */
export class OAuthHttpError extends Error {
  override name = 'OAuthHttpError';
  constructor(
    readonly statusCode: number,
    readonly error: string,
    readonly description: string,
    readonly headers: Record<string, string> = {},
    readonly retryAfterSeconds?: number,
  ) {
    super(description);
  }
}

export const invalidRequest = (description: string) => new OAuthHttpError(400, 'invalid_request', description);
/** RFC 6749 §5.2: 401 with a WWW-Authenticate challenge for the scheme the client may use. */
export const invalidClient = (description: string) =>
  new OAuthHttpError(401, 'invalid_client', description, { 'WWW-Authenticate': 'Basic realm="finops-oauth", charset="UTF-8"' });

export function sendOAuthError(reply: FastifyReply, err: OAuthHttpError): FastifyReply {
  const body: OAuthErrorPayload = {
    error: err.error,
    error_description: err.description,
    message: err.description,
    requestId: reply.request.id,
  };
  if (err.retryAfterSeconds !== undefined) body.retryAfterSeconds = err.retryAfterSeconds;
  for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
  return reply
    .code(err.statusCode)
    .header('Cache-Control', 'no-store')
    .header('Pragma', 'no-cache')
    .type('application/json; charset=utf-8')
    .send(body);
}

/**
 * The error mapper of every OAuth route (registerRoute's `errorHandler`): anything that escapes a handler (a malformed body, a schema mismatch,
 * an unsupported content type) still answers in the RFC form. Client mistakes become `invalid_request` (keeping
 * 413/415 statuses); anything else is `server_error` without details.
 */
export type OAuthErrorHandler = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => FastifyReply;

export const oauthErrorHandler: OAuthErrorHandler = (error, request, reply) => {
  if (error instanceof OAuthHttpError) return sendOAuthError(reply, error);
  const api = toApiError(error);
  if (api.statusCode === 429 && api.retryAfterSeconds !== undefined) {
    // The per-IP budget of /v1/oauth/* (rate-limit plugin): a 429 stays a 429, with when to come back.
    const retry = String(api.retryAfterSeconds);
    return sendOAuthError(
      reply,
      new OAuthHttpError(429, 'temporarily_unavailable', api.message, { 'Retry-After': retry }, api.retryAfterSeconds),
    );
  }
  if (api.statusCode >= 500) {
    request.log.error({ err: error }, 'oauth request failed');
    return sendOAuthError(reply, new OAuthHttpError(500, 'server_error', api.message));
  }
  const status = api.statusCode === 413 || api.statusCode === 415 ? api.statusCode : 400;
  const detail = api.description && api.statusCode === 422 ? `${api.message}: ${api.description}` : api.message;
  return sendOAuthError(reply, new OAuthHttpError(status, 'invalid_request', detail));
};
