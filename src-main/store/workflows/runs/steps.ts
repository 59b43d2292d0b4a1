import type { Db } from '../../db';
import { newId } from '../../ids';
import { type Writer, write } from '../../write';
import { runRow } from './row';
import type { OpenStep } from './state';

/**
 * A runner's commits. Each checks in its own transaction that the runner still holds the run's lease, so a process
 * that lost its claim (paused past the lease, or presumed dead) can never commit a step over the one that took the
 * run over.
 */

/** Thrown inside a runner's commit when the run's lease is no longer this runner's. */
export class LeaseLost extends Error {
  override name = 'LeaseLost';
  constructor(readonly runId: string) {
    super(`the lease on workflow run ${runId} was lost`);
  }
}

export interface RunnerCommit {
  owner: string;
  /** ISO clock of the runner (tests move it); also every row's updated_at. */
  now: string;
}

function holding(w: Writer, runId: string, c: RunnerCommit): void {
  const lease = w.db
    .prepare('SELECT lease_owner, lease_expires_at FROM workflow_runs WHERE id = ? AND team_id = ?')
    .get(runId, w.teamId) as { lease_owner: string | null; lease_expires_at: string | null } | undefined;
  if (!lease || lease.lease_owner !== c.owner || !lease.lease_expires_at || lease.lease_expires_at <= c.now) {
    throw new LeaseLost(runId);
  }
}

/** Runs `fn` in one write (origin `workflow`, the runner's clock) once it has checked the lease is still held. */
export function commitHolding<T>(db: Db, teamId: string, runId: string, c: RunnerCommit, fn: (w: Writer) => T): T {
  return write(
    db,
    teamId,
    (w) => {
      holding(w, runId, c);
      return fn(w);
    },
    { origin: 'workflow', now: c.now },
  );
}

/** The step about to run, committed as running before its node runs. Its effect key is stable across retries. */
export function beginStep(db: Db, teamId: string, runId: string, c: RunnerCommit, node: { id: string; kind: string }): OpenStep {
  return commitHolding(db, teamId, runId, c, (w) => {
    const r = runRow(db, teamId, runId);
    const position = r.step_count + 1;
    const id = newId();
    const effectKey = `wf:${runId}:${position}`;
    db.prepare(
      `INSERT INTO workflow_steps (id, team_id, run_id, position, node_id, kind, status, attempt, effect_key, started_at)
       VALUES (?, ?, ?, ?, ?, ?, 'running', 1, ?, ?)`,
    ).run(id, teamId, runId, position, node.id, node.kind, effectKey, w.now);
    w.update('workflow_run', runId, {
      status: 'running',
      current_node_id: node.id,
      step_count: position,
      started_at: r.started_at ?? w.now,
      wake_at: null,
    });
    return { id, nodeId: node.id, kind: node.kind, status: 'running', attempt: 1, effectKey, position };
  });
}

/** A step found running after its process stopped, run again (its effect is idempotent): the attempt counts up. */
export function retryStep(db: Db, teamId: string, runId: string, c: RunnerCommit, stepId: string): number {
  return commitHolding(db, teamId, runId, c, (w) => {
    db.prepare(`UPDATE workflow_steps SET attempt = attempt + 1, status = 'running' WHERE id = ? AND run_id = ?`).run(
      stepId,
      runId,
    );
    w.update('workflow_run', runId, { status: 'running', wake_at: null });
    w.touch('workflow_run', runId);
    return db.prepare('SELECT attempt FROM workflow_steps WHERE id = ?').pluck().get(stepId) as number;
  });
}

/** Marks the run running again when it resumes a waiting step (no new step). */
export function resumeRun(db: Db, teamId: string, runId: string, c: RunnerCommit): void {
  commitHolding(db, teamId, runId, c, (w) => {
    w.update('workflow_run', runId, { status: 'running', wake_at: null });
  });
}

export interface StepDone {
  output?: unknown;
  /** Merged into the run's vars (a loaded record, an HTTP response). */
  vars?: Record<string, unknown>;
  /** The node to run next; null ends the run, completed. */
  next: string | null;
}

export function completeStep(db: Db, teamId: string, runId: string, c: RunnerCommit, stepId: string, done: StepDone): void {
  commitHolding(db, teamId, runId, c, (w) => {
    db.prepare(`UPDATE workflow_steps SET status = 'completed', output = ?, completed_at = ? WHERE id = ? AND run_id = ?`).run(
      done.output === undefined ? null : JSON.stringify(done.output),
      w.now,
      stepId,
      runId,
    );
    const r = runRow(db, teamId, runId);
    const vars = done.vars ? JSON.stringify({ ...JSON.parse(r.vars), ...done.vars }) : undefined;
    w.update('workflow_run', runId, {
      vars,
      current_node_id: done.next,
      status: done.next === null ? 'completed' : 'running',
      completed_at: done.next === null ? w.now : undefined,
    });
    w.touch('workflow_run', runId);
  });
}

export interface NewApproval {
  title: string;
  description: string | null;
  deadlineAt: string | null;
  deadlineOutcome: 'approved' | 'rejected' | null;
}

/** The step waits (an approval, a delay): the run waits until `wakeAt` (null: until a decision). */
export function waitStep(
  db: Db,
  teamId: string,
  runId: string,
  c: RunnerCommit,
  stepId: string,
  wait: { wakeAt: string | null; approval?: NewApproval },
): void {
  commitHolding(db, teamId, runId, c, (w) => {
    db.prepare(`UPDATE workflow_steps SET status = 'waiting' WHERE id = ? AND run_id = ?`).run(stepId, runId);
    if (wait.approval) {
      const nodeId = db.prepare('SELECT node_id FROM workflow_steps WHERE id = ?').pluck().get(stepId) as string;
      db.prepare(
        `INSERT INTO workflow_approvals (id, team_id, run_id, step_id, node_id, title, description, status, deadline_at,
           deadline_outcome, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?) ON CONFLICT (step_id) DO NOTHING`,
      ).run(
        newId(),
        teamId,
        runId,
        stepId,
        nodeId,
        wait.approval.title,
        wait.approval.description,
        wait.approval.deadlineAt,
        wait.approval.deadlineOutcome,
        w.now,
      );
    }
    w.update('workflow_run', runId, { status: 'waiting', wake_at: wait.wakeAt });
    w.touch('workflow_run', runId);
  });
}

/** The step failed (or could not be retried): the run fails with the step's message. */
export function failRun(db: Db, teamId: string, runId: string, c: RunnerCommit, stepId: string | null, message: string): void {
  commitHolding(db, teamId, runId, c, (w) => {
    if (stepId) {
      db.prepare(
        `UPDATE workflow_steps SET status = 'failed', error_message = ?, completed_at = ? WHERE id = ? AND run_id = ?`,
      ).run(message, w.now, stepId, runId);
    }
    w.update('workflow_run', runId, { status: 'failed', error_message: message, completed_at: w.now, wake_at: null });
    w.touch('workflow_run', runId);
  });
}
