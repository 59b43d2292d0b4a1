import type { Db } from '../db';
import { nowIso } from '../ids';

/**
 * Where a remote's rounds stand (docs/decisions/0140-sync-engine.md). The row of entity `*` holds the local change
 * sequence already frozen into the outbox (`pushed_seq`) and the remote change feed's cursor (`pull_cursor`); a row
 * per entity holds a list walk's number and, while a walk is in progress, the page it reached, so a killed round
 * resumes where it stopped instead of starting over.
 */
export const ALL = '*';

interface Row {
  pushed_seq: number;
  pull_cursor: string | null;
  walk_no: number;
  walk_cursor: string | null;
  walk_started_at: string | null;
  last_complete_walk_at: string | null;
}

export interface Cursor {
  pushedSeq: number;
  pullCursor: string | null;
  walkNo: number;
  walkCursor: string | null;
  walkStartedAt: string | null;
  lastCompleteWalkAt: string | null;
}

export function cursorOf(db: Db, remoteId: string, entity: string = ALL): Cursor {
  const row = db
    .prepare(
      'SELECT pushed_seq, pull_cursor, walk_no, walk_cursor, walk_started_at, last_complete_walk_at FROM sync_cursors WHERE remote_id = ? AND entity = ?',
    )
    .get(remoteId, entity) as Row | undefined;
  return {
    pushedSeq: row?.pushed_seq ?? 0,
    pullCursor: row?.pull_cursor ?? null,
    walkNo: row?.walk_no ?? 0,
    walkCursor: row?.walk_cursor ?? null,
    walkStartedAt: row?.walk_started_at ?? null,
    lastCompleteWalkAt: row?.last_complete_walk_at ?? null,
  };
}

export interface CursorChange {
  pushedSeq?: number;
  pullCursor?: string | null;
  walkNo?: number;
  walkCursor?: string | null;
  walkStartedAt?: string | null;
  lastCompleteWalkAt?: string;
}

/** Moves a cursor; called inside the transaction that applied what the move covers. */
export function setCursor(db: Db, teamId: string, remoteId: string, entity: string, change: CursorChange): void {
  const now = nowIso();
  db.prepare(
    `INSERT INTO sync_cursors (team_id, remote_id, entity, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (remote_id, entity) DO NOTHING`,
  ).run(teamId, remoteId, entity, now);
  const sets: string[] = ['updated_at = @now'];
  const params: Record<string, unknown> = { remote: remoteId, entity, now };
  const set = (column: string, value: unknown) => {
    sets.push(`${column} = @${column}`);
    params[column] = value;
  };
  if (change.pushedSeq !== undefined) set('pushed_seq', change.pushedSeq);
  if (change.pullCursor !== undefined) set('pull_cursor', change.pullCursor);
  if (change.walkNo !== undefined) set('walk_no', change.walkNo);
  if (change.walkCursor !== undefined) set('walk_cursor', change.walkCursor);
  if (change.walkStartedAt !== undefined) set('walk_started_at', change.walkStartedAt);
  if (change.lastCompleteWalkAt !== undefined) set('last_complete_walk_at', change.lastCompleteWalkAt);
  db.prepare(`UPDATE sync_cursors SET ${sets.join(', ')} WHERE remote_id = @remote AND entity = @entity`).run(params);
}
