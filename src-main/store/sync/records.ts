import crypto from 'node:crypto';
import { canonicalJson, type Projection } from '../../../src-shared/domain/sync/merge';
import type { Db } from '../db';
import { nowIso } from '../ids';

/**
 * Per remote, one row per synced record (docs/decisions/0140-sync-engine.md): the local ↔ remote id map and the
 * base — the record's sync projection as both sides last agreed on it, with its hash and the local change sequence
 * it was agreed at. A record is dirty (has something to push) when its current change is past `baseSeq` and its
 * projection differs from the base; the remote changed it when the remote's projection differs from the base.
 */
export interface SyncRecord {
  entity: string;
  localId: string;
  remoteRecordId: string | null;
  base: Projection | null;
  baseHash: string | null;
  baseSeq: number;
  seenWalk: number;
  missingWalks: number;
}

interface Row {
  entity: string;
  local_id: string;
  remote_record_id: string | null;
  base_json: string | null;
  base_hash: string | null;
  base_seq: number;
  seen_walk: number;
  missing_walks: number;
}

function toRecord(r: Row): SyncRecord {
  return {
    entity: r.entity,
    localId: r.local_id,
    remoteRecordId: r.remote_record_id,
    base: r.base_json ? (JSON.parse(r.base_json) as Projection) : null,
    baseHash: r.base_hash,
    baseSeq: r.base_seq,
    seenWalk: r.seen_walk,
    missingWalks: r.missing_walks,
  };
}

/** The content hash of a projection: equal projections, equal hashes (keys sorted at every depth). */
export function projectionHash(p: Projection): string {
  return crypto.createHash('sha256').update(canonicalJson(p)).digest('hex').slice(0, 32);
}

export function syncRecord(db: Db, remoteId: string, entity: string, localId: string): SyncRecord | undefined {
  const row = db
    .prepare('SELECT * FROM sync_records WHERE remote_id = ? AND entity = ? AND local_id = ?')
    .get(remoteId, entity, localId) as Row | undefined;
  return row ? toRecord(row) : undefined;
}

export function syncRecordByRemoteId(db: Db, remoteId: string, entity: string, remoteRecordId: string): SyncRecord | undefined {
  const row = db
    .prepare('SELECT * FROM sync_records WHERE remote_id = ? AND entity = ? AND remote_record_id = ?')
    .get(remoteId, entity, remoteRecordId) as Row | undefined;
  return row ? toRecord(row) : undefined;
}

/** Sync records of many local ids at once (a push batch), keyed by local id. */
export function syncRecords(db: Db, remoteId: string, entity: string, localIds: readonly string[]): Map<string, SyncRecord> {
  const rows = db
    .prepare(
      `SELECT r.* FROM json_each(?) AS wanted CROSS JOIN sync_records r
       ON r.remote_id = ? AND r.entity = ? AND r.local_id = wanted.value`,
    )
    .all(JSON.stringify(localIds), remoteId, entity) as Row[];
  return new Map(rows.map((r) => [r.local_id, toRecord(r)]));
}

/** The local id mapped to a remote id, if any (references in pulled records). */
export function localIdOf(db: Db, remoteId: string, entity: string, remoteRecordId: string): string | undefined {
  return db
    .prepare('SELECT local_id FROM sync_records WHERE remote_id = ? AND entity = ? AND remote_record_id = ?')
    .pluck()
    .get(remoteId, entity, remoteRecordId) as string | undefined;
}

/**
 * The ids of a table's records of the team that no record of the remote is linked to and that wait for no push there
 * (a first round's candidates to be matched by their natural fields). `table` is an entity's table (store/entities.ts).
 */
export function unlinkedLocalIds(db: Db, teamId: string, remoteId: string, entity: string, table: string): string[] {
  return db
    .prepare(
      `SELECT t.id FROM ${table} t WHERE t.team_id = ?
       AND NOT EXISTS (SELECT 1 FROM sync_records r WHERE r.remote_id = ? AND r.entity = ? AND r.local_id = t.id)
       AND NOT EXISTS (SELECT 1 FROM sync_outbox o WHERE o.remote_id = ? AND o.entity = ? AND o.local_id = t.id
                       AND o.state = 'pending')
       ORDER BY t.id`,
    )
    .pluck()
    .all(teamId, remoteId, entity, remoteId, entity) as string[];
}

/** The remote id mapped to a local id, if any (references in pushed records). */
export function remoteIdOf(db: Db, remoteId: string, entity: string, localId: string): string | undefined {
  return (
    (db
      .prepare('SELECT remote_record_id FROM sync_records WHERE remote_id = ? AND entity = ? AND local_id = ?')
      .pluck()
      .get(remoteId, entity, localId) as string | null | undefined) ?? undefined
  );
}

export interface BaseInput {
  teamId: string;
  remoteId: string;
  entity: string;
  localId: string;
  remoteRecordId: string;
  base: Projection;
  /** The local change sequence the base was agreed at (the record's `seq` after the write that agreed it). */
  baseSeq: number;
  seenWalk?: number;
}

/** Records the agreed version of a record (after a pull applied it, or a push was answered). */
export function saveBase(db: Db, input: BaseInput): void {
  db.prepare(
    `INSERT INTO sync_records (team_id, remote_id, entity, local_id, remote_record_id, base_json, base_hash, base_seq,
       synced_at, seen_walk, missing_walks)
     VALUES (@team, @remote, @entity, @local, @remoteRecord, @json, @hash, @seq, @now, @walk, 0)
     ON CONFLICT (remote_id, entity, local_id) DO UPDATE SET
       remote_record_id = excluded.remote_record_id, base_json = excluded.base_json, base_hash = excluded.base_hash,
       base_seq = excluded.base_seq, synced_at = excluded.synced_at, missing_walks = 0,
       seen_walk = max(sync_records.seen_walk, excluded.seen_walk)`,
  ).run({
    team: input.teamId,
    remote: input.remoteId,
    entity: input.entity,
    local: input.localId,
    remoteRecord: input.remoteRecordId,
    json: canonicalJson(input.base),
    hash: projectionHash(input.base),
    seq: input.baseSeq,
    now: nowIso(),
    walk: input.seenWalk ?? 0,
  });
}

export function forgetRecord(db: Db, remoteId: string, entity: string, localId: string): void {
  db.prepare('DELETE FROM sync_records WHERE remote_id = ? AND entity = ? AND local_id = ?').run(remoteId, entity, localId);
}

/** Marks records seen by a list walk (their hash matched the base, or they were merged). */
export function markSeen(db: Db, remoteId: string, entity: string, localIds: readonly string[], walk: number): void {
  db.prepare(
    `UPDATE sync_records SET seen_walk = ?, missing_walks = 0
     WHERE remote_id = ? AND entity = ? AND local_id IN (SELECT value FROM json_each(?))`,
  ).run(walk, remoteId, entity, JSON.stringify(localIds));
}

/**
 * After a complete walk: every record it did not see has one more miss. Returns the records missed by two complete
 * walks in a row (gone on the remote), whose rows the caller then deletes or keeps as it decides.
 */
export function countMisses(db: Db, remoteId: string, entity: string, walk: number): SyncRecord[] {
  db.prepare(
    `UPDATE sync_records SET missing_walks = missing_walks + 1
     WHERE remote_id = ? AND entity = ? AND seen_walk < ? AND remote_record_id IS NOT NULL`,
  ).run(remoteId, entity, walk);
  return (
    db
      .prepare('SELECT * FROM sync_records WHERE remote_id = ? AND entity = ? AND missing_walks >= 2')
      .all(remoteId, entity) as Row[]
  ).map(toRecord);
}

/** How many records the remote holds a base for (progress totals, status). */
export function syncedCount(db: Db, remoteId: string): number {
  return db.prepare('SELECT count(*) FROM sync_records WHERE remote_id = ?').pluck().get(remoteId) as number;
}

/**
 * The records of an entity whose base names `targetLocalId` in `field` (the records that belong to it, as both sides
 * last agreed): the children to restore with a parent whose delete here lost to an edit there.
 */
export function syncRecordsReferring(
  db: Db,
  remoteId: string,
  entity: string,
  field: string,
  targetLocalId: string,
): SyncRecord[] {
  return (
    db
      .prepare(
        `SELECT * FROM sync_records WHERE remote_id = ? AND entity = ? AND base_json IS NOT NULL
         AND json_extract(base_json, '$."' || ? || '"') = ?`,
      )
      .all(remoteId, entity, field, targetLocalId) as Row[]
  ).map(toRecord);
}
