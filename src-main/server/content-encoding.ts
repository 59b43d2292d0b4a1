import { Transform, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';
import type { preParsingHookHandler } from 'fastify';
import { hasBody } from './body';
import { ApiError } from './errors';

/**
 * Request bodies sent with `Content-Encoding` (docs/decisions/0014-request-bodies.md): gzip, deflate and br are
 * decoded before any parser reads the body, and the route's body limit applies to the decoded bytes (fastify counts
 * what the parser receives), so a small compressed body that inflates past it is 413 and decoding stops there: a zip
 * bomb costs the server at most the limit. Another coding is 415. A multipart body must come unencoded (its parser
 * reads the socket itself): 415 too. Corrupt compressed data is 400.
 */
const DECODERS: Record<string, () => Transform> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};
const SUPPORTED = 'gzip, deflate or br';

export const decodeContent: preParsingHookHandler = (request, reply, payload, done) => {
  const header = request.headers['content-encoding'];
  if (header === undefined || request.method === 'GET' || request.method === 'HEAD' || !hasBody(request))
    return done(null, payload);
  // Codings are listed in the order they were applied: undo them from the last.
  const codings = header
    .toLowerCase()
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '' && c !== 'identity')
    .reverse();
  if (codings.length === 0) return done(null, payload);
  const unknown = codings.find((c) => !(c in DECODERS));
  if (unknown) return done(unsupportedEncoding(`A body in Content-Encoding ${unknown} is not accepted`));
  if (request.headers['content-type']?.toLowerCase().startsWith('multipart/'))
    return done(unsupportedEncoding('A multipart body is not accepted with a Content-Encoding'));

  const decoders = codings.map((c) => (DECODERS[c] as () => Transform)());
  const decoded = new DecodedBody();
  let stream: NodeJS.ReadableStream = payload;
  for (const decoder of [...decoders, decoded]) {
    stream.pipe(decoder);
    if (decoder !== decoded) decoder.once('error', (err) => decoded.destroy(err));
    stream = decoder;
  }
  payload.on('data', (chunk: Buffer) => {
    decoded.receivedEncodedLength += chunk.length;
  });
  payload.once('error', (err) => decoded.destroy(err));
  // A route that refuses the body unread (415) never listens: its decoding error must not go unhandled.
  decoded.on('error', () => {});
  // Once the answer is out (a 413 after the limit, an error), nothing reads on: stop inflating.
  reply.raw.once('close', () => {
    for (const decoder of decoders) decoder.destroy();
  });
  done(null, decoded);
};

/**
 * The decoded body as fastify reads it. `receivedEncodedLength` (bytes as sent) is what fastify compares with
 * Content-Length; errors of the decoders arrive here as a 400 in the Error payload.
 */
class DecodedBody extends Transform {
  receivedEncodedLength = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    callback(null, chunk);
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    callback(err && !(err instanceof ApiError) ? corrupt(err) : err);
  }
}

const corrupt = (err: Error) =>
  new ApiError(400, 'Bad Request', 'The request body could not be decoded', `per its Content-Encoding: ${err.message}`);

const unsupportedEncoding = (message: string) =>
  new ApiError(415, 'Unsupported Media Type', message, `Send the body unencoded, or in ${SUPPORTED}`);
