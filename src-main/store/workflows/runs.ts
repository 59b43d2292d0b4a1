import type { WorkflowApproval, WorkflowRunDetail, WorkflowRunSummary } from '../../../src-shared/contract/app-workflows';
import type { RunStatus, StepStatus, WorkflowRun } from '../../../src-shared/contract/workflows';
import type { Db } from '../db';
import { Conflict, NotFound } from '../errors';
import { newId } from '../ids';
import { claimCondition } from '../leases';
import { listFingerprint } from '../list/cursor';
import { keysetPage, placeholders } from '../list/keyset';
import { type Writer, write } from '../write';

/**
 * Workflow runs, their steps and approvals, and the effect ledger: the durable half of the engine
 * (docs/decisions/0101-durable-workflow-engine.md). The engine (src-main/workflows/engine.ts) decides; this module
 * commits, and every commit a runner makes checks in the same transaction that it still holds the run's lease, so a
 * process that lost its claim (paused past the lease, or presumed dead) can never commit a step over the one that
 * took the run over.
 *
 * Runs are `workflow_run` records: every state change goes through the write path (origin `workflow`), so the change
 * stream tells the app a run moved. Lease columns are bookkeeping and are written directly, as claimCondition says.
 */

export type RunSource = 'api' | 'chat' | 'app' | 'cli' | 'trigger' | 'schedule' | 'webhook';

export interface NewRun {
  workflowId: string;
  version: number;
  triggerType: string;
  triggerData: Record<string, unknown>;
  source: RunSource;
  conversationId?: string | null;
  idempotencyKey?: string | null;
  /** A run that cannot start (its definition no longer validates) is stored failed, so monitoring shows why. */
  failed?: string;
}

export interface RunRef {
  id: string;
  runNumber: number;
  queuedAt: string;
}

/** Thrown inside a runner's commit when the run's lease is no longer this runner's. */
export class LeaseLost extends Error {
  override name = 'LeaseLost';
  constructor(readonly runId: string) {
    super(`the lease on workflow run ${runId} was lost`);
  }
}

export function runReference(runNumber: number): string {
  return `WR-${runNumber}`;
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

// ---------------------------------------------------------------------------------------------------------------
// Claims

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

// ---------------------------------------------------------------------------------------------------------------
// Run state as the engine sees it

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

interface RunRow {
  id: string;
  team_id: string;
  workflow_id: string;
  version: number;
  run_number: number;
  status: RunStatus;
  trigger_type: string;
  trigger_data: string;
  source: RunSource;
  conversation_id: string | null;
  idempotency_key: string | null;
  current_node_id: string | null;
  vars: string;
  step_count: number;
  wake_at: string | null;
  cancel_requested: number;
  error_message: string | null;
  queued_at: string;
  started_at: string | null;
  completed_at: string | null;
  lease_owner: string | null;
  lease_expires_at: string | null;
  created_at: string;
}

function runRow(db: Db, teamId: string, runId: string): RunRow {
  const r = db.prepare('SELECT * FROM workflow_runs WHERE team_id = ? AND id = ?').get(teamId, runId) as RunRow | undefined;
  if (!r) throw new NotFound('workflow run', runId);
  return r;
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

// ---------------------------------------------------------------------------------------------------------------
// A runner's commits (each checks the lease inside its transaction)

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

function commit<T>(db: Db, teamId: string, runId: string, c: RunnerCommit, fn: (w: Writer) => T): T {
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
  return commit(db, teamId, runId, c, (w) => {
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
  return commit(db, teamId, runId, c, (w) => {
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
  commit(db, teamId, runId, c, (w) => {
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
  commit(db, teamId, runId, c, (w) => {
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
  commit(db, teamId, runId, c, (w) => {
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

/** The step failed (or could not be retried): the run fails with the step's message. */
export function failRun(db: Db, teamId: string, runId: string, c: RunnerCommit, stepId: string | null, message: string): void {
  commit(db, teamId, runId, c, (w) => {
    if (stepId) {
      db.prepare(
        `UPDATE workflow_steps SET status = 'failed', error_message = ?, completed_at = ? WHERE id = ? AND run_id = ?`,
      ).run(message, w.now, stepId, runId);
    }
    w.update('workflow_run', runId, { status: 'failed', error_message: message, completed_at: w.now, wake_at: null });
    w.touch('workflow_run', runId);
  });
}

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
  commit(db, teamId, runId, c, (w) => cancelInWrite(w, runId));
}

// ---------------------------------------------------------------------------------------------------------------
// Decisions and cancel (people, through the app API or the CLI)

const FINISHED: readonly RunStatus[] = ['completed', 'failed', 'canceled'];

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

// ---------------------------------------------------------------------------------------------------------------
// Effect ledger

export function effectResult(db: Db, teamId: string, key: string): { result: unknown } | undefined {
  const r = db.prepare('SELECT result FROM workflow_effects WHERE key = ? AND team_id = ?').get(key, teamId) as
    | { result: string | null }
    | undefined;
  return r ? { result: r.result === null ? null : JSON.parse(r.result) } : undefined;
}

/** Records an applied effect inside the write that applied it. */
export function recordEffect(w: Writer, key: string, runId: string, kind: string, result: unknown): void {
  w.db
    .prepare('INSERT INTO workflow_effects (key, team_id, run_id, kind, result, created_at) VALUES (?, ?, ?, ?, ?, ?)')
    .run(key, w.teamId, runId, kind, result === undefined ? null : JSON.stringify(result), w.now);
}

// ---------------------------------------------------------------------------------------------------------------
// Reads as the APIs show them

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

function approval(a: ApprovalRow): WorkflowApproval {
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
    approvals: approvals.map(approval),
  };
}

function runSummary(db: Db, r: RunRow): WorkflowRunSummary {
  const pending = db
    .prepare(`SELECT * FROM workflow_approvals WHERE run_id = ? AND status = 'pending' ORDER BY created_at DESC LIMIT 1`)
    .get(r.id) as ApprovalRow | undefined;
  const { steps: _steps, ...run } = v1Run(r, []);
  return { ...run, ...extras(db, r), stepCount: r.step_count, pendingApproval: pending ? approval(pending) : null };
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
