import type { Db } from '../../db';
import { claimCondition, holderIsGone } from '../../leases';

/**
 * Runners claim runs through the database with a lease (src-main/store/leases.ts), renew it while they work and
 * release it when they stop; a lapsed lease frees the run for another runner.
 */

export interface Claim {
  runId: string;
  teamId: string;
}

const READY = `status IN ('pending', 'running', 'waiting') AND (status <> 'waiting' OR (wake_at IS NOT NULL AND wake_at <= @now))`;

/**
 * Claims the run that has waited longest among those ready (pending; running with a lapsed lease, i.e. its process
 * died; waiting whose wake time came), across all teams. One IMMEDIATE transaction: two processes never claim the
 * same run. `exclude` skips runs this runner already works on.
 */
export function claimNextRun(db: Db, owner: string, now: Date, leaseMs: number): Claim | undefined {
  const nowIso = now.toISOString();
  // An idle poll is one indexed read: no write lock taken, nothing committed (caches keyed by the database's change
  // stamp stay valid), so a server polling every second costs nothing while no run is ready.
  const anyReady = db
    .prepare(`SELECT 1 FROM workflow_runs INDEXED BY workflow_runs_ready WHERE ${READY} AND ${claimCondition} LIMIT 1`)
    .get({ now: nowIso });
  if (!anyReady) return undefined;
  return db
    .transaction(() => {
      const candidate = db
        .prepare(
          `SELECT id AS runId, team_id AS teamId FROM workflow_runs INDEXED BY workflow_runs_ready
           WHERE ${READY} AND ${claimCondition} ORDER BY coalesce(wake_at, queued_at), id LIMIT 1`,
        )
        .get({ now: nowIso }) as Claim | undefined;
      if (!candidate) return undefined;
      db.prepare('UPDATE workflow_runs SET lease_owner = ?, lease_expires_at = ? WHERE id = ?').run(
        owner,
        new Date(now.getTime() + leaseMs).toISOString(),
        candidate.runId,
      );
      return candidate;
    })
    .immediate();
}

/**
 * Lets the claims of runs held by a process of this machine that is gone (a crashed server, a killed CLI) lapse now
 * (store/leases.ts holderIsGone), so a restarted process takes its interrupted runs back at once instead of waiting
 * out their leases. The claim only lapses: what the dead holder may have done is the engine's recovery (a step left
 * running is repeated only when that is harmless). Returns how many runs it freed.
 */
export function releaseRunsOfGoneHolders(db: Db, now: Date): number {
  const nowIso = now.toISOString();
  const owners = db
    .prepare(
      `SELECT DISTINCT lease_owner FROM workflow_runs INDEXED BY workflow_runs_ready
       WHERE status IN ('pending', 'running', 'waiting') AND lease_owner IS NOT NULL AND lease_expires_at > ?`,
    )
    .pluck()
    .all(nowIso) as string[];
  let freed = 0;
  for (const owner of owners.filter(holderIsGone)) {
    freed += db
      .prepare('UPDATE workflow_runs SET lease_expires_at = ? WHERE lease_owner = ? AND lease_expires_at > ?')
      .run(nowIso, owner, nowIso).changes;
  }
  return freed;
}

/** Claims one run when it is ready and free (the CLI drives the run it just approved or started). */
export function claimRun(db: Db, teamId: string, runId: string, owner: string, now: Date, leaseMs: number): boolean {
  const r = db
    .prepare(
      `UPDATE workflow_runs SET lease_owner = @owner, lease_expires_at = @until
       WHERE id = @id AND team_id = @team AND ${READY} AND ${claimCondition}`,
    )
    .run({ owner, until: new Date(now.getTime() + leaseMs).toISOString(), id: runId, team: teamId, now: now.toISOString() });
  return r.changes === 1;
}

export function renewRunLease(db: Db, runId: string, owner: string, now: Date, leaseMs: number): boolean {
  const r = db
    .prepare('UPDATE workflow_runs SET lease_expires_at = ? WHERE id = ? AND lease_owner = ? AND lease_expires_at > ?')
    .run(new Date(now.getTime() + leaseMs).toISOString(), runId, owner, now.toISOString());
  return r.changes === 1;
}

export function releaseRun(db: Db, runId: string, owner: string): void {
  db.prepare('UPDATE workflow_runs SET lease_owner = NULL, lease_expires_at = NULL WHERE id = ? AND lease_owner = ?').run(
    runId,
    owner,
  );
}

/** When the next run becomes ready by the clock (a waiting run's wake time), for the runner's sleep. */
export function nextWakeAt(db: Db): string | undefined {
  return (
    (db
      .prepare(
        `SELECT min(wake_at) FROM workflow_runs INDEXED BY workflow_runs_ready WHERE status = 'waiting' AND wake_at IS NOT NULL`,
      )
      .pluck()
      .get() as string | null) ?? undefined
  );
}
