import { isSyncEntity, SYNC_ORDER, type SyncEntity } from '../../../src-shared/domain/sync/fields';
import type { Projection } from '../../../src-shared/domain/sync/merge';
import { currentSeq } from '../changes';
import type { Db } from '../db';
import { readProjections } from './projections';

/**
 * A team's change feed as sync projections (`GET /v1/sync/changes`, docs/decisions/0140-sync-engine.md): the rows of
 * `changes` after a sequence number, in sequence order (which is commit order: sequence numbers are taken under the
 * write lock), of the synced entities only, each with its record read now. A record changed again after the page
 * was read appears once more later, under its newer number; a delete is a tombstone without a record.
 */
export interface FeedChange {
  seq: number;
  entity: SyncEntity;
  id: string;
  op: 'upsert' | 'delete';
  record: Projection | null;
}

const IN_SYNC = `(${SYNC_ORDER.map((e) => `'${e}'`).join(', ')})`;

export function syncFeed(
  db: Db,
  teamId: string,
  since: number,
  limit: number,
): { data: FeedChange[]; cursor: number; hasMore: boolean; currentSeq: number } {
  // One snapshot for the changes and the records they name.
  return db.transaction(() => {
    const rows = db
      .prepare(
        `SELECT seq, entity, entity_id AS id, op FROM changes
         WHERE team_id = ? AND seq > ? AND entity IN ${IN_SYNC} ORDER BY seq LIMIT ?`,
      )
      .all(teamId, since, limit + 1) as { seq: number; entity: string; id: string; op: 'upsert' | 'delete' }[];
    const hasMore = rows.length > limit;
    const page = hasMore ? rows.slice(0, limit) : rows;
    const byEntity = new Map<SyncEntity, string[]>();
    for (const r of page) {
      if (r.op !== 'upsert' || !isSyncEntity(r.entity)) continue;
      let ids = byEntity.get(r.entity);
      if (!ids) {
        ids = [];
        byEntity.set(r.entity, ids);
      }
      ids.push(r.id);
    }
    const records = new Map<string, Projection>();
    for (const [entity, ids] of byEntity) {
      for (const [id, p] of readProjections(db, teamId, entity, ids)) records.set(`${entity}\u0000${id}`, p);
    }
    const data: FeedChange[] = page.map((r) => ({
      seq: r.seq,
      entity: r.entity as SyncEntity,
      id: r.id,
      op: r.op,
      record: r.op === 'delete' ? null : (records.get(`${r.entity}\u0000${r.id}`) ?? null),
    }));
    const cursor = page.length > 0 ? page[page.length - 1]!.seq : since;
    return { data, cursor, hasMore, currentSeq: currentSeq(db, teamId) };
  })();
}

/** Records by id as projections with their change sequence numbers (what a replica fetches for an unknown reference). */
export function syncRecordsById(
  db: Db,
  teamId: string,
  entity: SyncEntity,
  ids: readonly string[],
): { id: string; seq: number; record: Projection }[] {
  const projections = readProjections(db, teamId, entity, ids);
  return [...projections].map(([id, record]) => ({
    id,
    seq:
      (db.prepare(`SELECT seq FROM changes WHERE team_id = ? AND entity = ? AND entity_id = ?`).pluck().get(teamId, entity, id) as
        | number
        | undefined) ?? 0,
    record,
  }));
}
