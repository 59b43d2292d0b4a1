import { z } from 'zod';

/** Cursor metadata of every list (the hosted service's wrapper; there is never a total count). */
export const PageMeta = z.object({
  cursor: z.string().nullable().describe('opaque cursor of the next page; null on the last page'),
  hasPreviousPage: z.boolean(),
  hasNextPage: z.boolean(),
});

/**
 * Query values arrive as strings, and repeated keys as arrays. A multi-value filter accepts one occurrence or many
 * (the hosted service rejects a single one: a defect we do not copy).
 */
export function multiValue<T extends z.ZodType>(item: T) {
  return z.preprocess((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]), z.array(item).optional());
}

export const PageSize = z.coerce.number().int().min(1).max(100).default(50).describe('1 to 100, default 50');

/**
 * A client-chosen record id on create (extension): sync replicas of a Finops Desk server create records with the
 * ids they already have, so every replica shares them (docs/decisions/0140-sync-engine.md). An id any record holds is
 * answered 409.
 */
export const ClientId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{7,99}$/, 'must be 8 to 100 letters, digits, - or _ (a UUID fits)')
  .describe('extension: create the record with this id (a sync replica keeps its own); 409 if taken');

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * Any JSON value. Named (a component of the OpenAPI document) so that its recursion is a `$ref` to itself; zod's own
 * `z.json()` recurses through an unnamed schema, which the document cannot point at.
 */
export const JsonValue: z.ZodType<Json> = z
  .lazy(() => z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(JsonValue), z.record(z.string(), JsonValue)]))
  .meta({ id: 'JsonValue' });

/**
 * A calendar day as clients send it: `YYYY-MM-DD`, or an ISO 8601 date-time (`new Date().toISOString()`, as the
 * spec's transaction record carries and the hosted service takes). The server stores the day: a date-time with an
 * offset names an instant, whose day is taken in the team's time zone (docs/decisions/0142-hosted-success-codes.md,
 * `dayOf`); one without an offset names its day itself. Anything else is refused.
 */
export const DayInput = z
  .union([z.iso.date(), z.iso.datetime({ offset: true, local: true })], {
    error: 'must be a date such as 2026-03-31, or an ISO 8601 date-time such as 2026-03-31T09:30:00Z',
  })
  .describe("a date YYYY-MM-DD, or an ISO 8601 date-time whose day is taken in the team's time zone");
