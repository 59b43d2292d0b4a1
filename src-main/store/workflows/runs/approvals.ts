import type { Db } from '../../db';
import { Conflict, Forbidden } from '../../errors';
import { countMembers } from '../../users/users';
import { write } from '../../write';
import { workflowVersionAuthor } from '../workflows';
import { type RunRow, runReference, runRow } from './row';

/**
 * Approvals are decided by a person (the app API, the CLI) or by their deadline (the engine).
 *
 * Who decides, and who started a run by hand (`workflow_runs.started_by`), is a principal: `user:<id>` (a person,
 * whichever credential of theirs), `api-key:<id>`, `oauth-client:<client id>`, or `cli` (the operator at the data
 * dir); server/auth/principal.ts derives it from a credential. Runs a trigger, a schedule or a webhook started
 * have none.
 *
 * Four eyes (docs/decisions/0179-four-eyes-approvals.md, 0188-four-eyes-over-authors.md): whoever started a run,
 * or stored the version of the workflow it runs (`workflow_versions.author`), does not approve it. In a team of
 * at most one person there are no other eyes to ask, and its administration (the owner, an apis.all key such as the
 * desktop app's, the operator's CLI) may approve what it started; a narrower key may not, ever. Rejecting is never
 * refused: stopping a run is not what four eyes guard against.
 */

export const CLI_PRINCIPAL = 'cli';

export interface Decider {
  principal: string;
  /** Team administration (server/routes/app-sync.ts mayManage; the CLI): the exception of a team of one person. */
  administers: boolean;
}

/** A team of at most one person: nobody else could look at what its one person (or its tools) started. */
function hasOtherEyes(db: Db, teamId: string): boolean {
  return countMembers(db, teamId) > 1;
}

function refuseOwnApproval(db: Db, teamId: string, run: RunRow, decider: Decider): void {
  const started = run.started_by !== null && run.started_by === decider.principal;
  const wrote = !started && workflowVersionAuthor(db, teamId, run.workflow_id, run.version) === decider.principal;
  if (!started && !wrote) return;
  if (decider.administers && !hasOtherEyes(db, teamId)) return;
  const ref = runReference(run.run_number);
  throw new Forbidden(
    started
      ? `Run ${ref} was started by you: someone else approves it`
      : `Run ${ref} runs version ${run.version} of the workflow, which you wrote: someone else approves it`,
    'Four eyes: someone other than whoever started a run, or wrote the version it runs, approves it — another ' +
      'member of the team, or its owner. Rejecting or canceling it stays possible.',
  );
}

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
 * Conflict when the run waits for no approval; Forbidden when the decider started the run and would approve it.
 */
export function decideApproval(
  db: Db,
  teamId: string,
  runId: string,
  decision: 'approved' | 'rejected',
  decider: Decider,
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
      if (decision === 'approved') refuseOwnApproval(db, teamId, r, decider);
      db.prepare('UPDATE workflow_approvals SET status = ?, decided_by = ?, decided_at = ?, comment = ? WHERE id = ?').run(
        decision,
        decider.principal,
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
