import type { Db } from '../../db';
import type { Writer } from '../../write';
import type { RunSource } from './row';

/** Putting a run in the queue (a trigger, a schedule, a person starting it), and finding one by idempotency key. */

export interface NewRun {
  workflowId: string;
  version: number;
  triggerType: string;
  triggerData: Record<string, unknown>;
  source: RunSource;
  conversationId?: string | null;
  idempotencyKey?: string | null;
  /** Who started it by hand (approvals.ts `Principal`); null for a trigger, a schedule, a webhook. */
  startedBy?: string | null;
  /** A run that cannot start (its definition no longer validates) is stored failed, so monitoring shows why. */
  failed?: string;
}

export interface RunRef {
  id: string;
  runNumber: number;
  queuedAt: string;
}

/** Enqueues a run inside the caller's write (so a trigger source's own transaction carries it). */
export function insertRun(w: Writer, run: NewRun): RunRef {
  const runNumber =
    ((w.db.prepare('SELECT max(run_number) FROM workflow_runs WHERE team_id = ?').pluck().get(w.teamId) as number | null) ?? 0) +
    1;
  const id = w.insert('workflow_run', {
    workflow_id: run.workflowId,
    version: run.version,
    run_number: runNumber,
    status: run.failed ? 'failed' : 'pending',
    trigger_type: run.triggerType,
    trigger_data: JSON.stringify(run.triggerData),
    source: run.source,
    conversation_id: run.conversationId ?? null,
    idempotency_key: run.idempotencyKey ?? null,
    started_by: run.startedBy ?? null,
    error_message: run.failed ?? null,
    queued_at: w.now,
    completed_at: run.failed ? w.now : null,
  });
  return { id, runNumber, queuedAt: w.now };
}

export function findRunByKey(db: Db, teamId: string, workflowId: string, key: string): RunRef | undefined {
  return db
    .prepare(
      `SELECT id, run_number AS runNumber, queued_at AS queuedAt FROM workflow_runs
       WHERE team_id = ? AND workflow_id = ? AND idempotency_key = ?`,
    )
    .get(teamId, workflowId, key) as RunRef | undefined;
}
