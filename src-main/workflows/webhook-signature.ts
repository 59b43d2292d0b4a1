import crypto from 'node:crypto';

/**
 * Signatures of inbound webhook calls (`POST /hooks/workflows/{id}`, and the inbound e-mail callback
 * `POST /webhook/inbox/{address}` with the team's inbox secret): each has its own secret, and a call
 * carries
 *
 *   X-Finops-Timestamp: 1795430400                (unix seconds when it was signed)
 *   X-Finops-Signature: v1=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>
 *
 * The timestamp is inside the signed text and must be within five minutes of the server's clock, so a captured
 * call cannot be replayed later; the comparison is constant-time. Several `v1=` values (comma-separated) are
 * accepted, so a sender can sign with the old and the new secret while a secret is rotated.
 */

export const SIGNATURE_HEADER = 'x-finops-signature';
export const TIMESTAMP_HEADER = 'x-finops-timestamp';
export const TOLERANCE_SECONDS = 300;

export function signWebhook(secret: string, timestamp: number, rawBody: string | Buffer): string {
  // The same as signing the text `<timestamp>.<body>`, without decoding a binary body (a raw e-mail) as text.
  return `v1=${crypto.createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex')}`;
}

/** Why a call's signature headers cannot be accepted whatever its body (missing, malformed, outside the window). */
export function webhookHeadersProblem(headers: { signature?: string; timestamp?: string }, now: Date): string | undefined {
  if (!headers.signature || !headers.timestamp) return `sign the call: ${TIMESTAMP_HEADER} and ${SIGNATURE_HEADER} are required`;
  if (!/^\d{1,12}$/.test(headers.timestamp)) return `${TIMESTAMP_HEADER} must be unix seconds`;
  if (Math.abs(now.getTime() / 1000 - Number(headers.timestamp)) > TOLERANCE_SECONDS) {
    return `${TIMESTAMP_HEADER} is more than ${TOLERANCE_SECONDS} s from the server's clock`;
  }
  return undefined;
}

function matches(signature: string, expectedHex: string): boolean {
  const expected = Buffer.from(expectedHex, 'hex');
  const offered = signature
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.startsWith('v1=') && /^[0-9a-f]{64}$/i.test(part.slice(3)))
    .map((part) => Buffer.from(part.slice(3), 'hex'));
  // Every offered value is compared (no early exit), each in constant time.
  let match = false;
  for (const o of offered) match = crypto.timingSafeEqual(o, expected) || match;
  return match;
}

/** Why a call's signature is not accepted, or undefined when it is. */
export function webhookSignatureProblem(
  secret: string,
  headers: { signature?: string; timestamp?: string },
  rawBody: string | Buffer,
  now: Date,
): string | undefined {
  const problem = webhookHeadersProblem(headers, now);
  if (problem) return problem;
  return matches(headers.signature!, signWebhook(secret, Number(headers.timestamp), rawBody).slice(3))
    ? undefined
    : 'the signature does not match';
}

/**
 * webhookSignatureProblem over a body read in chunks (a compressed body decoded as it is read: nothing of it is held
 * before the signature is known to be good).
 */
export async function webhookSignatureProblemOf(
  secret: string,
  headers: { signature?: string; timestamp?: string },
  chunks: AsyncIterable<Buffer>,
  now: Date,
): Promise<string | undefined> {
  const problem = webhookHeadersProblem(headers, now);
  if (problem) return problem;
  const hmac = crypto.createHmac('sha256', secret).update(`${Number(headers.timestamp)}.`);
  for await (const chunk of chunks) hmac.update(chunk);
  return matches(headers.signature!, hmac.digest('hex')) ? undefined : 'the signature does not match';
}
