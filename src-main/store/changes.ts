import type { Db } from './db';
import type { Origin } from './write';

/**
 * Reading the per-team change feed that the sync engine and the change stream follow.
 *
 * Every write of a team-owned record goes through store/write.ts, which (in the same transaction as the write) takes
 * the team's next sequence number (teams.change_seq, monotonically increasing, never reused) and upserts the
 * record's row in `changes`. A delete leaves that row with op 'delete' — the tombstone. So "what changed since N" is
 * one query, and a rolled-back write leaves no trace. `origin` says who made the change: the sync engine never
 * pushes back a change whose origin is 'sync'.
 */
export type ChangeOp = 'upsert' | 'delete';

export interface Change {
  seq: number;
  entity: string;
  entityId: string;
  op: ChangeOp;
  origin: Origin;
  changedAt: string;
}

/** The team's changes after `sinceSeq`, oldest first. */
export function changesSince(db: Db, teamId: string, sinceSeq: number, limit = 1000): Change[] {
  return db
    .prepare(
      `SELECT seq, entity, entity_id AS entityId, op, origin, changed_at AS changedAt FROM changes
       WHERE team_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
    )
    .all(teamId, sinceSeq, limit) as Change[];
}

export function currentSeq(db: Db, teamId: string): number {
  const row = db.prepare('SELECT change_seq FROM teams WHERE id = ?').get(teamId) as { change_seq: number } | undefined;
  return row?.change_seq ?? 0;
}
