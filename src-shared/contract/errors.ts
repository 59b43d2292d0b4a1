import { z } from 'zod';

/**
 * One input that failed: where it was sent, its dotted path there (`email`, `address.countryCode`, `tags.0`; empty
 * for the whole body or query) and what is wrong with it. Design: docs/decisions/0013-error-field-list.md.
 */
export const FieldError = z
  .object({
    location: z.enum(['body', 'query', 'params', 'headers']).describe('the part of the request the input was sent in'),
    path: z.string().describe('dotted path inside that part, e.g. "address.countryCode" or "tags.0"; empty for all of it'),
    message: z.string().describe('what is wrong, for a person'),
  })
  .meta({ id: 'FieldError' });
export type FieldError = z.infer<typeof FieldError>;

/**
 * The spec's Error payload. Every field is optional by contract; this server always sends `error`, `message` and
 * `requestId`, adds `description` where there is more to say (the scopes required, the field that failed) and
 * `retryAfterSeconds` on 429 and 503. An extension beyond the spec's five: `fields`, on 422 answers about inputs,
 * lists each failing input for a program to show beside it (the same facts as `description`, which stays).
 */
/** One business rule an e-invoice failed (docs/decisions/0160-e-invoices.md). */
export const RuleFailure = z
  .object({
    rule: z.string().describe('the rule id: BR-CO-15, BR-DE-15, PEPPOL-EN16931-R010, XSD for the schema, FD-… our own'),
    field: z.string().describe('the business term (BT-n/BG-n) and where it comes from, e.g. "BT-31 team.vatNumber"'),
    message: z.string(),
  })
  .meta({ id: 'RuleFailure' });
export type RuleFailure = z.infer<typeof RuleFailure>;

export const ErrorPayload = z
  .object({
    error: z.string().describe('short label, e.g. "Not Found"'),
    message: z.string().describe('human-readable explanation'),
    description: z.string().optional().describe('extra context, for example the scopes required'),
    requestId: z.string().optional().describe('correlation id for support; equals the X-Request-Id header'),
    retryAfterSeconds: z.number().int().optional().describe('seconds until a new request is allowed'),
    fields: z
      .array(FieldError)
      .optional()
      .describe('extension: on 422, each input that failed (validation, or a reference to a record that is not there)'),
    rules: z.array(RuleFailure).optional().describe('extension: on 422 for an e-invoice, each business rule it fails'),
  })
  .meta({ id: 'Error' });
export type ErrorPayload = z.infer<typeof ErrorPayload>;
