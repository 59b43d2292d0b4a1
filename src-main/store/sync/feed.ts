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

/**
 * What a credential may read of the feed (docs/decisions/0177): the synced entities its scopes read, and of the
 * notifications only the team's and its own user's — never another member's.
 */
export interface FeedReader {
  entities: readonly SyncEntity[];
  /** The user whose notifications it reads besides the team's (null: the team's only). */
  userId: string | null;
}

/** Another member's notification (by the change's id): left out of the feed. */
const OTHERS_NOTIFICATION = `(c.entity = 'notification' AND c.entity_id IN (
  SELECT n.id FROM notifications n WHERE n.team_id = c.team_id AND n.user_id IS NOT NULL AND n.user_id IS NOT @user))`;

export function syncFeed(
  db: Db,
  teamId: string,
  since: number,
  limit: number,
  reader: FeedReader = { entities: SYNC_ORDER, userId: null },
): { data: FeedChange[]; cursor: number; hasMore: boolean; currentSeq: number } {
  const entities = reader.entities.filter((e) => SYNC_ORDER.includes(e));
  // One snapshot for the changes and the records they name.
  return db.transaction(() => {
    const rows = db
      .prepare(
        `SELECT c.seq, c.entity, c.entity_id AS id, c.op FROM changes c
         WHERE c.team_id = @team AND c.seq > @since AND c.entity IN (SELECT value FROM json_each(@entities))
           AND NOT ${OTHERS_NOTIFICATION}
         ORDER BY c.seq LIMIT @limit`,
      )
      .all({ team: teamId, since, limit: limit + 1, entities: JSON.stringify(entities), user: reader.userId }) as {
      seq: number;
      entity: string;
      id: string;
      op: 'upsert' | 'delete';
    }[];
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
  userId: string | null = null,
): { id: string; seq: number; record: Projection }[] {
  const visible =
    entity === 'notification'
      ? (db
          .prepare(
            `SELECT id FROM notifications WHERE team_id = ? AND id IN (SELECT value FROM json_each(?))
               AND (user_id IS NULL OR user_id IS ?)`,
          )
          .pluck()
          .all(teamId, JSON.stringify(ids), userId) as string[])
      : ids;
  const projections = readProjections(db, teamId, entity, visible);
  return [...projections].map(([id, record]) => ({
    id,
    seq:
      (db.prepare(`SELECT seq FROM changes WHERE team_id = ? AND entity = ? AND entity_id = ?`).pluck().get(teamId, entity, id) as
        | number
        | undefined) ?? 0,
    record,
  }));
}
