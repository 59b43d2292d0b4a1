import { changeStamp, type Db } from './db';

/**
 * A team's two counters, by which caches of what a team's data and credentials resolve to stay exact without being
 * emptied by other teams' writes (docs/decisions/0012-response-cache.md):
 * - `changeSeq` (teams.change_seq) moves with every recorded change of the team's records (write.ts), in the
 *   write's transaction: a cached read of the team's data is current while it has not moved;
 * - `authSeq` (teams.auth_seq) moves with every write that can make one of the team's live credentials stop
 *   resolving (a key revoked, an OAuth token or grant revoked), in that write's transaction (`bumpAuthSeq`): a
 *   cached credential is current while it has not moved. A new way to end a credential (removing a member,
 *   revoking a client, ending a session) must bump it too.
 * Bookkeeping writes (an API key's lastUsedAt, idempotency rows, login sessions) move neither.
 */
export interface TeamVersions {
  changeSeq: number;
  authSeq: number;
}

/** Marks every cached credential of the team stale. Call inside the transaction that ends a credential. */
export function bumpAuthSeq(db: Db, teamId: string): void {
  db.prepare('UPDATE teams SET auth_seq = auth_seq + 1 WHERE id = ?').run(teamId);
}

interface Memo {
  stamp: string;
  teams: Map<string, TeamVersions | null>;
}

const memos = new WeakMap<Db, Memo>();

/**
 * The team's counters under the given change stamp (see changeStamp): one point read the first time a stamp asks
 * for a team, then remembered until the stamp moves, so a busy server reads each team's row at most once per
 * commit anywhere. Undefined for a team that does not exist.
 *
 * The value is never older than the stamp: it was read after the stamp was taken, or under the same stamp, which
 * any later commit of this connection moves at once and any other connection's from the next event-loop turn.
 */
export function teamVersions(db: Db, teamId: string, stamp: string = changeStamp(db)): TeamVersions | undefined {
  let memo = memos.get(db);
  if (!memo || memo.stamp !== stamp) {
    memo = { stamp, teams: new Map() };
    memos.set(db, memo);
  }
  let versions = memo.teams.get(teamId);
  if (versions === undefined) {
    const row = db.prepare('SELECT change_seq, auth_seq FROM teams WHERE id = ?').get(teamId) as
      | { change_seq: number; auth_seq: number }
      | undefined;
    versions = row ? { changeSeq: row.change_seq, authSeq: row.auth_seq } : null;
    memo.teams.set(teamId, versions);
  }
  return versions ?? undefined;
}
