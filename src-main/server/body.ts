import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyRequest, preParsingHookHandler } from 'fastify';
import { ApiError } from './errors';

/**
 * Request bodies (docs/decisions/0014-request-bodies.md). A route names the media types its body may come in
 * (contract `consumes`, default JSON); then:
 * - an empty body is no body, whatever Content-Type says: clients that set `Content-Type: application/json` on
 *   every request (a DELETE, a GET) are not refused for it;
 * - a body that is present is parsed by its media type (malformed JSON is 400);
 * - a body in a media type the route does not take is 415 with the Error payload, before anything parses it.
 */
export async function installBodyParsing(app: FastifyInstance): Promise<void> {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  // fastify's own parsers refuse an empty JSON body and take any text/plain body as a string (a 422 later).
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') done(null, undefined);
    else parseJson(request, body as string, done);
  });
  // An empty form is a form without fields.
  await app.register(formbody);
  // Any other media type reaches a parser only with an empty body (acceptBodies refuses the rest on contract routes).
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    if (body === '') done(null, undefined);
    else done(unsupportedMediaType(undefined, ['application/json']));
  });
}

function mediaTypeOf(request: FastifyRequest): string | undefined {
  const header = request.headers['content-type'];
  return header?.split(';')[0]?.trim().toLowerCase() || undefined;
}

/** Whether the request carries body bytes: a positive Content-Length, or a chunked body (whose length is unknown). */
export function hasBody(request: FastifyRequest): boolean {
  if (request.headers['transfer-encoding'] !== undefined) return true;
  const length = request.headers['content-length'];
  return length !== undefined && Number(length) > 0;
}

function unsupportedMediaType(mediaType: string | undefined, accepted: readonly string[]): ApiError {
  return new ApiError(
    415,
    'Unsupported Media Type',
    mediaType ? `A ${mediaType} body is not accepted here` : 'The body has no Content-Type',
    `Send the body as ${accepted.join(' or ')}`,
  );
}

/** Route hook: a body in another media type than `accepted` is refused with 415 (GET and HEAD bodies are ignored). */
export function acceptBodies(accepted: readonly string[]): preParsingHookHandler {
  return (request, _reply, payload, done) => {
    if (request.method === 'GET' || request.method === 'HEAD' || !hasBody(request)) return done(null, payload);
    const mediaType = mediaTypeOf(request);
    if (mediaType && accepted.includes(mediaType)) return done(null, payload);
    done(unsupportedMediaType(mediaType, accepted));
  };
}
