import { pipeline, Readable, Transform, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyRequest, preParsingHookHandler } from 'fastify';
import { ApiError } from './errors';
import { hasBody } from './has-body';

/**
 * Request bodies sent with `Content-Encoding` (docs/decisions/0014-request-bodies.md): gzip, deflate and br are
 * decoded before any parser reads the body, and the route's body limit applies to the decoded bytes, counted here as
 * they come out of the decoder: past the limit the answer is 413 and decoding stops, so a zip bomb costs the server
 * at most the limit, whatever parser reads the body. Another coding is 415. A multipart body must come unencoded (its
 * parser reads the socket itself): 415 too. Corrupt compressed data is 400.
 *
 * A route that must see the bytes as sent before it decodes them (the inbound mail webhook authenticates first,
 * docs/decisions/0170) sets `config.keepEncoding` and decodes with `decodedChunks` itself, under the same rules.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route reads its body as sent and decodes it itself (decodedChunks): the inbound mail webhook. */
    keepEncoding?: boolean;
  }
}

const DECODERS: Record<string, () => Transform> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};
const SUPPORTED = 'gzip, deflate or br';

/**
 * The codings of a request's body to undo, last applied first; [] for none; an ApiError (415) for one not taken.
 */
export function codingsOf(request: FastifyRequest): string[] | ApiError {
  const header = request.headers['content-encoding'];
  if (header === undefined || request.method === 'GET' || request.method === 'HEAD' || !hasBody(request)) return [];
  // Codings are listed in the order they were applied: undo them from the last.
  const codings = header
    .toLowerCase()
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '' && c !== 'identity')
    .reverse();
  const unknown = codings.find((c) => !(c in DECODERS));
  if (unknown) return unsupportedEncoding(`A body in Content-Encoding ${unknown} is not accepted`);
  if (codings.length > 0 && request.headers['content-type']?.toLowerCase().startsWith('multipart/'))
    return unsupportedEncoding('A multipart body is not accepted with a Content-Encoding');
  return codings;
}

export const tooLarge = (limit: number) =>
  new ApiError(413, 'Payload Too Large', 'The request body is too large', `At most ${limit} bytes once decoded`);

export const decodeContent: preParsingHookHandler = (request, reply, payload, done) => {
  if (request.routeOptions.config?.keepEncoding) return done(null, payload);
  const codings = codingsOf(request);
  if (codings instanceof ApiError) return done(codings);
  if (codings.length === 0) return done(null, payload);
  const decoders = codings.map((c) => (DECODERS[c] as () => Transform)());
  const decoded = new DecodedBody(request.routeOptions.bodyLimit);
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
  private decodedLength = 0;

  constructor(private readonly limit: number | undefined) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.decodedLength += chunk.length;
    // The limit is checked on what comes out of the decoder, whoever reads the body after.
    if (this.limit !== undefined && this.decodedLength > this.limit) callback(tooLarge(this.limit));
    else callback(null, chunk);
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    callback(err && !(err instanceof ApiError) ? corrupt(err) : err);
  }
}

const corrupt = (err: Error) =>
  new ApiError(400, 'Bad Request', 'The request body could not be decoded', `per its Content-Encoding: ${err.message}`);

const unsupportedEncoding = (message: string) =>
  new ApiError(415, 'Unsupported Media Type', message, `Send the body unencoded, or in ${SUPPORTED}`);

/**
 * The decoded chunks of a body kept as sent (`config.keepEncoding`), `limit` bytes at most (413 past it; decoding
 * stops there); corrupt data is 400. With no codings the body itself.
 */
/** The whole decoded body (decodedChunks, gathered). */
export async function decodedBody(raw: Buffer, codings: readonly string[], limit: number): Promise<Buffer> {
  if (codings.length === 0) return raw;
  const chunks: Buffer[] = [];
  for await (const chunk of decodedChunks(raw, codings, limit)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

export async function* decodedChunks(raw: Buffer, codings: readonly string[], limit: number): AsyncGenerator<Buffer> {
  if (codings.length === 0) {
    if (raw.length > limit) throw tooLarge(limit);
    yield raw;
    return;
  }
  const decoders = codings.map((c) => (DECODERS[c] as () => Transform)());
  // pipeline passes an error of any stage to the last one, which the loop reads.
  const stream = pipeline([Readable.from([raw]), ...decoders], () => {}) as unknown as Transform;
  let length = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      length += chunk.length;
      if (length > limit) throw tooLarge(limit);
      yield chunk;
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw corrupt(err as Error);
  } finally {
    for (const d of decoders) d.destroy();
  }
}
