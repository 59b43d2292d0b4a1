import { type SyncStanding, syncStanding } from '../../../src-shared/contract/app-sync';
import { SYNC_ORDER } from '../../../src-shared/domain/sync/fields';
import type { Db } from '../db';
import { openConflictCount } from './conflicts';
import { cursorOf } from './cursors';
import { pendingPushCount } from './outbox';
import { type SyncRemote, teamRemote } from './remotes';

/**
 * A team's sync state for `finops sync status` and the app's status route: its remote with the last round's
 * outcome and live progress, how many changes wait to be pushed (frozen pushes not yet answered, plus local changes
 * since the last freeze), the open conflicts, and what that comes to (never "up to date" with conflicts open).
 */
export interface SyncStatus {
  remote: SyncRemote | null;
  pendingChanges: number;
  openConflicts: number;
  standing: SyncStanding;
}

const IN_SYNC = `(${SYNC_ORDER.map((e) => `'${e}'`).join(', ')})`;

export function syncStatus(db: Db, teamId: string): SyncStatus {
  const remote = teamRemote(db, teamId) ?? null;
  const openConflicts = openConflictCount(db, teamId);
  const standing = syncStanding(remote, openConflicts);
  if (!remote) return { remote: null, pendingChanges: 0, openConflicts, standing };
  const since = cursorOf(db, remote.id).pushedSeq;
  const unfrozen = db
    .prepare(`SELECT count(*) FROM changes WHERE team_id = ? AND seq > ? AND origin != 'sync' AND entity IN ${IN_SYNC}`)
    .pluck()
    .get(teamId, since) as number;
  return { remote, pendingChanges: unfrozen + pendingPushCount(db, remote.id), openConflicts, standing };
}
