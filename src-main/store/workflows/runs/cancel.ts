import type { RunStatus } from '../../../../src-shared/contract/workflows';
import type { Db } from '../../db';
import { Conflict } from '../../errors';
import { type Writer, write } from '../../write';
import { runReference, runRow } from './row';
import { commitHolding, type RunnerCommit } from './steps';

/** Canceling a run: asked by a person, done at once or by its runner at the next step boundary. */

const FINISHED: readonly RunStatus[] = ['completed', 'failed', 'canceled'];

function cancelInWrite(w: Writer, runId: string): void {
  w.db
    .prepare(
      `UPDATE workflow_steps SET status = 'canceled', completed_at = ? WHERE run_id = ? AND status IN ('running', 'waiting')`,
    )
    .run(w.now, runId);
  w.db.prepare(`UPDATE workflow_approvals SET status = 'canceled' WHERE run_id = ? AND status = 'pending'`).run(runId);
  w.update('workflow_run', runId, { status: 'canceled', completed_at: w.now, wake_at: null });
  w.touch('workflow_run', runId);
}

/** The runner honours a cancel request at a step boundary. */
export function cancelClaimedRun(db: Db, teamId: string, runId: string, c: RunnerCommit): void {
  commitHolding(db, teamId, runId, c, (w) => cancelInWrite(w, runId));
}

/**
 * Cancels a run that has not finished: at once when no live process holds it; otherwise it is asked to stop and the
 * runner cancels it at its next step boundary (a step in flight completes). Conflict when it has finished.
 * Returns whether it is canceled already.
 */
export function cancelRun(db: Db, teamId: string, runId: string, now = new Date()): boolean {
  return write(db, teamId, (w) => {
    const r = runRow(db, teamId, runId);
    if (FINISHED.includes(r.status)) {
      throw new Conflict(`run ${runReference(r.run_number)} has already finished`, `its status is ${r.status}`);
    }
    const held = r.lease_owner !== null && r.lease_expires_at !== null && r.lease_expires_at > now.toISOString();
    if (held) {
      w.update('workflow_run', runId, { cancel_requested: 1 });
      return false;
    }
    cancelInWrite(w, runId);
    return true;
  });
}
