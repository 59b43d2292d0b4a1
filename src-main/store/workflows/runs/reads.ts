import type { WorkflowApproval, WorkflowRunDetail, WorkflowRunSummary } from '../../../../src-shared/contract/app-workflows';
import type { RunStatus, StepStatus, WorkflowRun } from '../../../../src-shared/contract/workflows';
import type { Db } from '../../db';
import { listFingerprint } from '../../list/cursor';
import { keysetPage, placeholders } from '../../list/keyset';
import { principalName } from '../../users/principal-names';
import { type RunRow, runReference, runRow } from './row';

/** Runs as the APIs show them: the spec's run resource, the app's detail and list, and a run's step records. */

interface StepRow {
  id: string;
  node_id: string;
  kind: string;
  status: StepStatus;
  attempt: number;
  started_at: string;
  completed_at: string | null;
  error_message: string | null;
}

function steps(db: Db, runId: string): StepRow[] {
  return db
    .prepare(
      `SELECT id, node_id, kind, status, attempt, started_at, completed_at, error_message FROM workflow_steps
       WHERE run_id = ? ORDER BY position`,
    )
    .all(runId) as StepRow[];
}

function v1Run(r: RunRow, stepRows: StepRow[]): WorkflowRun {
  return {
    executionId: r.id,
    workflowId: r.workflow_id,
    status: r.status,
    currentNodeId: r.current_node_id,
    triggerType: r.trigger_type,
    createdAt: r.created_at,
    completedAt: r.completed_at,
    steps: stepRows.map((s) => ({
      id: s.id,
      nodeId: s.node_id,
      status: s.status,
      startedAt: s.started_at,
      completedAt: s.completed_at,
      errorMessage: s.error_message,
    })),
  };
}

/** The spec's Workflow run resource. */
export function getRun(db: Db, teamId: string, runId: string): WorkflowRun {
  const r = runRow(db, teamId, runId);
  return v1Run(r, steps(db, runId));
}

interface ApprovalRow {
  id: string;
  step_id: string;
  node_id: string;
  title: string;
  description: string | null;
  status: WorkflowApproval['status'];
  deadline_at: string | null;
  deadline_outcome: 'approved' | 'rejected' | null;
  decided_by: string | null;
  decided_at: string | null;
  comment: string | null;
  created_at: string;
}

function approval(db: Db, teamId: string, a: ApprovalRow): WorkflowApproval {
  return {
    id: a.id,
    stepId: a.step_id,
    nodeId: a.node_id,
    title: a.title,
    description: a.description,
    status: a.status,
    deadlineAt: a.deadline_at,
    deadlineOutcome: a.deadline_outcome,
    decidedBy: a.decided_by,
    decidedByName: principalName(db, teamId, a.decided_by),
    decidedAt: a.decided_at,
    comment: a.comment,
    createdAt: a.created_at,
  };
}

function workflowName(db: Db, workflowId: string): string {
  return (db.prepare('SELECT name FROM workflows WHERE id = ?').pluck().get(workflowId) as string | undefined) ?? '';
}

function extras(db: Db, r: RunRow) {
  return {
    runId: runReference(r.run_number),
    workflowName: workflowName(db, r.workflow_id),
    version: r.version,
    source: r.source,
    startedBy: r.started_by,
    startedByName: principalName(db, r.team_id, r.started_by),
    conversationId: r.conversation_id,
    errorMessage: r.error_message,
    queuedAt: r.queued_at,
    startedAt: r.started_at,
  };
}

export function getRunDetail(db: Db, teamId: string, runId: string): WorkflowRunDetail {
  const r = runRow(db, teamId, runId);
  const stepRows = steps(db, runId);
  const approvals = db
    .prepare('SELECT * FROM workflow_approvals WHERE run_id = ? ORDER BY created_at, id')
    .all(runId) as ApprovalRow[];
  return {
    ...v1Run(r, []),
    ...extras(db, r),
    triggerData: JSON.parse(r.trigger_data),
    steps: stepRows.map((s) => ({
      id: s.id,
      nodeId: s.node_id,
      kind: s.kind,
      attempt: s.attempt,
      status: s.status,
      startedAt: s.started_at,
      completedAt: s.completed_at,
      errorMessage: s.error_message,
    })),
    approvals: approvals.map((a) => approval(db, teamId, a)),
  };
}

function runSummary(db: Db, r: RunRow): WorkflowRunSummary {
  const pending = db
    .prepare(`SELECT * FROM workflow_approvals WHERE run_id = ? AND status = 'pending' ORDER BY created_at DESC LIMIT 1`)
    .get(r.id) as ApprovalRow | undefined;
  const { steps: _steps, ...run } = v1Run(r, []);
  return {
    ...run,
    ...extras(db, r),
    stepCount: r.step_count,
    pendingApproval: pending ? approval(db, r.team_id, pending) : null,
  };
}

export interface RunPage {
  data: WorkflowRunSummary[];
  meta: { cursor: string | null; hasPreviousPage: boolean; hasNextPage: boolean };
}

export function listRuns(
  db: Db,
  teamId: string,
  query: { cursor?: string; pageSize: number; workflowId?: string; statuses?: RunStatus[] },
): RunPage {
  const where = ['r.team_id = @team'];
  const params: Record<string, unknown> = { team: teamId };
  if (query.workflowId) {
    where.push('r.workflow_id = @workflow');
    params.workflow = query.workflowId;
  }
  const statuses = [...new Set(query.statuses ?? [])].sort();
  if (statuses.length) {
    where.push(`r.status IN (${statuses.map((_, i) => `@s${i}`).join(', ')})`);
    statuses.forEach((s, i) => {
      params[`s${i}`] = s;
    });
  }
  const page = keysetPage(db, {
    from: 'workflow_runs r',
    id: 'r.id',
    where,
    params,
    sort: { sql: 'r.created_at', kind: 'text' },
    direction: 'desc',
    pageSize: query.pageSize,
    fingerprint: listFingerprint(['workflow-runs', teamId, query.workflowId ?? null, statuses]),
    cursor: query.cursor,
  });
  const rows = page.ids.length
    ? (db.prepare(`SELECT * FROM workflow_runs WHERE id IN (${placeholders(page.ids.length)})`).all(...page.ids) as RunRow[])
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return {
    data: page.ids.map((id) => runSummary(db, byId.get(id) as RunRow)),
    meta: { cursor: page.cursor, hasPreviousPage: page.hasPreviousPage, hasNextPage: page.hasNextPage },
  };
}

/** Test and CLI helper: a run's step rows with their effect keys and outputs (never served by an API). */
export function stepRecords(
  db: Db,
  teamId: string,
  runId: string,
): { nodeId: string; status: StepStatus; attempt: number; effectKey: string; output: unknown; errorMessage: string | null }[] {
  runRow(db, teamId, runId);
  return (
    db
      .prepare(
        `SELECT node_id AS nodeId, status, attempt, effect_key AS effectKey, output, error_message AS errorMessage
         FROM workflow_steps WHERE run_id = ? ORDER BY position`,
      )
      .all(runId) as {
      nodeId: string;
      status: StepStatus;
      attempt: number;
      effectKey: string;
      output: string | null;
      errorMessage: string | null;
    }[]
  ).map((s) => ({ ...s, output: s.output === null ? null : JSON.parse(s.output) }));
}
