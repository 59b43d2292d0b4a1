import { z } from 'zod';
import { SYNC_ORDER } from '../domain/sync/fields';
import { defineRoute } from './route';

/**
 * The sync engine's extension routes (docs/decisions/0140-sync-engine.md): a Finops Desk server serves its team's
 * change feed as sync projections, so a replica's round costs O(changes) instead of walking every list. Not in the
 * spec nor on the hosted service: marked as extensions in the OpenAPI document, and absent from `--spec-only`.
 */

/** The header every request of a sync round carries: the remote treats it as a replica's push (no creation rules). */
export const REPLICA_HEADER = 'x-finops-sync';

const Projection = z.record(z.string(), z.unknown()).describe('the record as a sync projection (writable fields, normalised)');

export const SyncChange = z
  .object({
    seq: z.number().int().describe("the record's change sequence number on this server"),
    entity: z.enum(SYNC_ORDER),
    id: z.string(),
    op: z.enum(['upsert', 'delete']).describe('delete: a tombstone'),
    record: Projection.nullable().describe('null for a delete'),
  })
  .meta({ id: 'SyncChange' });
export type SyncChange = z.infer<typeof SyncChange>;

export const SyncChangesQuery = z.object({
  since: z.coerce.number().int().min(0).default(0).describe('the last sequence number already seen (0: from the start)'),
  limit: z.coerce.number().int().min(1).max(5000).default(1000),
});

export const SyncChangesPage = z
  .object({
    data: z.array(SyncChange),
    cursor: z.number().int().describe('pass as `since` to continue'),
    hasMore: z.boolean(),
    currentSeq: z.number().int().describe("the team's latest sequence number (progress totals)"),
  })
  .meta({ id: 'SyncChangesPage' });
export type SyncChangesPage = z.infer<typeof SyncChangesPage>;

export const SyncRecordsQuery = z.object({
  entity: z.enum(SYNC_ORDER),
  ids: z
    .preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(z.string().min(1).max(200)).min(1).max(500))
    .describe('record ids (repeated key)'),
});

export const SyncRecordsAnswer = z
  .object({
    data: z.array(z.object({ id: z.string(), seq: z.number().int(), record: Projection })),
  })
  .meta({ id: 'SyncRecords' });

const FEED_SCOPES = [
  'tags.read',
  'transactions.read',
  'bank-accounts.read',
  'customers.read',
  'tracker-projects.read',
  'tracker-entries.read',
  'notifications.read',
] as const;

export const syncRoutes = {
  changes: defineRoute({
    method: 'GET',
    path: '/sync/changes',
    tag: 'sync',
    summary: "Extension: the team's changes since a sequence number, each record as a sync projection (tombstones for deletes)",
    scopes: FEED_SCOPES,
    query: SyncChangesQuery,
    responses: { 200: SyncChangesPage },
  }),
  records: defineRoute({
    method: 'GET',
    path: '/sync/records',
    tag: 'sync',
    summary: 'Extension: records by id as sync projections (references a replica has not seen yet)',
    scopes: FEED_SCOPES,
    query: SyncRecordsQuery,
    responses: { 200: SyncRecordsAnswer },
  }),
};
