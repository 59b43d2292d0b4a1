import type { RunStatus } from '../../../../src-shared/contract/workflows';
import type { Db } from '../../db';
import { runRow } from './row';

/** A run as the engine sees it: its row, its open step and that step's approval. */

export interface OpenStep {
  id: string;
  nodeId: string;
  kind: string;
  status: 'running' | 'waiting';
  attempt: number;
  effectKey: string;
  position: number;
}

export interface ApprovalState {
  id: string;
  status: 'pending' | 'approved' | 'rejected' | 'canceled';
  deadlineAt: string | null;
  deadlineOutcome: 'approved' | 'rejected' | null;
}

export interface RunState {
  id: string;
  teamId: string;
  workflowId: string;
  version: number;
  runNumber: number;
  status: RunStatus;
  triggerType: string;
  triggerData: Record<string, unknown>;
  vars: Record<string, unknown>;
  currentNodeId: string | null;
  stepCount: number;
  wakeAt: string | null;
  cancelRequested: boolean;
  openStep: OpenStep | undefined;
  /** The approval of the open step, when it is an approval. */
  approval: ApprovalState | undefined;
}

export function loadRunState(db: Db, teamId: string, runId: string): RunState {
  const r = runRow(db, teamId, runId);
  const step = db
    .prepare(
      `SELECT id, node_id AS nodeId, kind, status, attempt, effect_key AS effectKey, position FROM workflow_steps
       WHERE run_id = ? AND status IN ('running', 'waiting') ORDER BY position DESC LIMIT 1`,
    )
    .get(runId) as OpenStep | undefined;
  const approval = step
    ? (db
        .prepare(
          `SELECT id, status, deadline_at AS deadlineAt, deadline_outcome AS deadlineOutcome FROM workflow_approvals WHERE step_id = ?`,
        )
        .get(step.id) as ApprovalState | undefined)
    : undefined;
  return {
    id: r.id,
    teamId: r.team_id,
    workflowId: r.workflow_id,
    version: r.version,
    runNumber: r.run_number,
    status: r.status,
    triggerType: r.trigger_type,
    triggerData: JSON.parse(r.trigger_data),
    vars: JSON.parse(r.vars),
    currentNodeId: r.current_node_id,
    stepCount: r.step_count,
    wakeAt: r.wake_at,
    cancelRequested: r.cancel_requested === 1,
    openStep: step,
    approval,
  };
}
