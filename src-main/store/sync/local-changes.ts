import type { SyncEntity } from '../../../src-shared/domain/sync/fields';
import type { Db } from '../db';

/**
 * The team's changes of synced records in a range of its change sequence, in sequence order: what freezing reads to
 * decide what to push (docs/decisions/0140-sync-engine.md). One row per record (its latest change), tombstones too.
 */
export interface LocalChange {
  seq: number;
  entity: SyncEntity;
  id: string;
  op: 'upsert' | 'delete';
}

export function changesBetween(
  db: Db,
  teamId: string,
  after: number,
  upTo: number,
  entities: readonly SyncEntity[],
  limit: number,
): LocalChange[] {
  return db
    .prepare(
      `SELECT seq, entity, entity_id AS id, op FROM changes
       WHERE team_id = ? AND seq > ? AND seq <= ? AND entity IN (SELECT value FROM json_each(?))
       ORDER BY seq LIMIT ?`,
    )
    .all(teamId, after, upTo, JSON.stringify(entities), limit) as LocalChange[];
}
