import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** An incoming X-Request-Id is echoed when it is safe to log and to put in a header; otherwise we make one. */
const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function genRequestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  if (typeof incoming === 'string' && VALID_REQUEST_ID.test(incoming)) return incoming;
  return `req_${crypto.randomBytes(12).toString('hex')}`;
}
