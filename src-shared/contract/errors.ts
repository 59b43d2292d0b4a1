import { z } from 'zod';

/**
 * The spec's Error payload. Every field is optional by contract; this server always sends `error`, `message` and
 * `requestId`, adds `description` where there is more to say (the scopes required, the field that failed) and
 * `retryAfterSeconds` on 429 and 503.
 */
export const ErrorPayload = z
  .object({
    error: z.string().describe('short label, e.g. "Not Found"'),
    message: z.string().describe('human-readable explanation'),
    description: z.string().optional().describe('extra context, for example the scopes required'),
    requestId: z.string().optional().describe('correlation id for support; equals the X-Request-Id header'),
    retryAfterSeconds: z.number().int().optional().describe('seconds until a new request is allowed'),
  })
  .meta({ id: 'Error' });
export type ErrorPayload = z.infer<typeof ErrorPayload>;
