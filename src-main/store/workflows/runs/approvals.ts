import type { Db } from '../../db';
import { Conflict } from '../../errors';
import { write } from '../../write';
import { runReference, runRow } from './row';

/** Approvals are decided by a person (the app API, the CLI) or by their deadline (the engine). */

/** A deadline decided the approval; called by the engine inside the commit that completes the step. */
export function resolveApprovalAtDeadline(
  db: Db,
  teamId: string,
  runId: string,
  approvalId: string,
  outcome: 'approved' | 'rejected',
): void {
  write(db, teamId, (w) => {
    db.prepare(
      `UPDATE workflow_approvals SET status = ?, decided_by = 'deadline', decided_at = ? WHERE id = ? AND run_id = ? AND status = 'pending'`,
    ).run(outcome, w.now, approvalId, runId);
    w.touch('workflow_run', runId);
  });
}

/**
 * Records a person's decision on the approval the run waits for, and makes the run ready (a runner takes it on).
 * Conflict when the run waits for no approval.
 */
export function decideApproval(
  db: Db,
  teamId: string,
  runId: string,
  decision: 'approved' | 'rejected',
  by: string,
  comment?: string,
): void {
  write(
    db,
    teamId,
    (w) => {
      const r = runRow(db, teamId, runId);
      const pending = db
        .prepare(`SELECT id FROM workflow_approvals WHERE run_id = ? AND status = 'pending' ORDER BY created_at DESC LIMIT 1`)
        .pluck()
        .get(runId) as string | undefined;
      if (r.status !== 'waiting' || !pending) {
        throw new Conflict(
          `run ${runReference(r.run_number)} is not waiting for an approval`,
          `its status is ${r.status}${r.status === 'waiting' ? ' (waiting for a delay)' : ''}`,
        );
      }
      db.prepare('UPDATE workflow_approvals SET status = ?, decided_by = ?, decided_at = ?, comment = ? WHERE id = ?').run(
        decision,
        by,
        w.now,
        comment ?? null,
        pending,
      );
      w.update('workflow_run', runId, { wake_at: w.now });
      w.touch('workflow_run', runId);
    },
    { origin: 'local' },
  );
}
