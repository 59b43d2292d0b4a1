import type { Db } from './db';
import { nowIso } from './ids';

/**
 * The per-team change sequence that the sync engine's change feed reads.
 *
 * Every write of a team-owned record calls `recordChange` inside the same transaction as the write: it takes the
 * team's next sequence number (teams.change_seq, monotonically increasing, never reused) and upserts the record's
 * row in `changes`. A delete leaves that row with op 'delete' — the tombstone. So "what changed since N" is
 * `SELECT … FROM changes WHERE team_id = ? AND seq > N ORDER BY seq`, and a rolled-back write leaves no trace.
 */
export type ChangeOp = 'upsert' | 'delete';

export interface Change {
  seq: number;
  entity: string;
  entityId: string;
  op: ChangeOp;
  changedAt: string;
}

/** Reserves `count` consecutive sequence numbers for the team and returns the first. Must run inside a transaction. */
export function reserveSeq(db: Db, teamId: string, count = 1): number {
  const row = db.prepare('UPDATE teams SET change_seq = change_seq + ? WHERE id = ? RETURNING change_seq').get(count, teamId) as
    | { change_seq: number }
    | undefined;
  if (!row) throw new Error(`team ${teamId} does not exist`);
  return row.change_seq - count + 1;
}

/** Records a change to one record and returns its sequence number (to store in the row's `seq`). */
export function recordChange(db: Db, teamId: string, entity: string, entityId: string, op: ChangeOp, seq?: number): number {
  const s = seq ?? reserveSeq(db, teamId);
  db.prepare(
    `INSERT INTO changes (team_id, seq, entity, entity_id, op, changed_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (team_id, entity, entity_id) DO UPDATE SET seq = excluded.seq, op = excluded.op, changed_at = excluded.changed_at`,
  ).run(teamId, s, entity, entityId, op, nowIso());
  return s;
}

/** The team's changes after `sinceSeq`, oldest first. */
export function changesSince(db: Db, teamId: string, sinceSeq: number, limit = 1000): Change[] {
  return db
    .prepare(
      `SELECT seq, entity, entity_id AS entityId, op, changed_at AS changedAt FROM changes
       WHERE team_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
    )
    .all(teamId, sinceSeq, limit) as Change[];
}

export function currentSeq(db: Db, teamId: string): number {
  const row = db.prepare('SELECT change_seq FROM teams WHERE id = ?').get(teamId) as { change_seq: number } | undefined;
  return row?.change_seq ?? 0;
}
