import type { FastifyRequest } from 'fastify';

/**
 * Whether a request carries body bytes: a positive Content-Length, or a chunked body (whose length is unknown). Its
 * own module because both body parsing (body.ts) and body decoding (content-encoding.ts) ask it first.
 */
export function hasBody(request: FastifyRequest): boolean {
  if (request.headers['transfer-encoding'] !== undefined) return true;
  const length = request.headers['content-length'];
  return length !== undefined && Number(length) > 0;
}
