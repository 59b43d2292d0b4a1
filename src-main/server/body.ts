import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyRequest, preParsingHookHandler } from 'fastify';
import { decodeContent } from './content-encoding';
import { ApiError } from './errors';
import { hasBody } from './has-body';

/**
 * Request bodies (docs/decisions/0014-request-bodies.md). A route names the media types its body may come in
 * (contract `consumes`, default JSON); then:
 * - an empty body is no body, whatever Content-Type says: clients that set `Content-Type: application/json` on
 *   every request (a DELETE, a GET) are not refused for it;
 * - a body sent with Content-Encoding gzip, deflate or br is decoded first (content-encoding.ts);
 * - a body that is present is parsed by its media type (malformed JSON and invalid UTF-8 are 400);
 * - a body in a media type the route does not take is 415 with the Error payload, before anything parses it.
 */
export async function installBodyParsing(app: FastifyInstance): Promise<void> {
  app.addHook('preParsing', decodeContent);
  // fastify's own parsers refuse an empty JSON body and take any text/plain body as a string (a 422 later).
  app.removeContentTypeParser('text/plain');
  installJsonParser(app);
  // An empty form is a form without fields.
  await app.register(formbody);
  // Any other media type reaches a parser only with an empty body (acceptBodies refuses the rest on contract routes).
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    if (body === '') done(null, undefined);
    else done(unsupportedMediaType(undefined, ['application/json']));
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The JSON parser of a scope (the upload routes install theirs with a larger limit): an empty body is no body;
 * bytes that are not UTF-8 are 400 (decoding them would store U+FFFD in their place); malformed JSON is 400, with
 * fastify's prototype-poisoning protection.
 */
export function installJsonParser(app: FastifyInstance, bodyLimit?: number): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  if (app.hasContentTypeParser('application/json')) app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', ...(bodyLimit ? { bodyLimit } : {}) },
    (request, body, done) => {
      const bytes = body as Buffer;
      if (bytes.length === 0) return done(null, undefined);
      let text: string;
      try {
        text = utf8.decode(bytes);
      } catch {
        return done(new ApiError(400, 'Bad Request', 'The request body is not valid UTF-8', 'Send JSON text encoded as UTF-8'));
      }
      parseJson(request, text, done);
    },
  );
}

function mediaTypeOf(request: FastifyRequest): string | undefined {
  const header = request.headers['content-type'];
  return header?.split(';')[0]?.trim().toLowerCase() || undefined;
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
