import type { RunStatus } from '../../../../src-shared/contract/workflows';
import type { Db } from '../../db';
import { NotFound } from '../../errors';

/**
 * Workflow runs, their steps and approvals, and the effect ledger: the durable half of the engine
 * (docs/decisions/0101-durable-workflow-engine.md). The engine (src-main/workflows/engine.ts) decides; the modules
 * of this folder commit: enqueue.ts, claims.ts (leases), state.ts (what the engine reads), steps.ts (a runner's
 * commits), approvals.ts and cancel.ts (people's decisions), effects.ts (the effect ledger), reads.ts (the APIs).
 *
 * Runs are `workflow_run` records: every state change goes through the write path (origin `workflow`), so the change
 * stream tells the app a run moved. Lease columns are bookkeeping and are written directly, as claimCondition says.
 * This module holds the run's stored row.
 */

export type RunSource = 'api' | 'chat' | 'app' | 'cli' | 'trigger' | 'schedule' | 'webhook';

export function runReference(runNumber: number): string {
  return `WR-${runNumber}`;
}

export interface RunRow {
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
  started_by: string | null;
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

export function runRow(db: Db, teamId: string, runId: string): RunRow {
  const r = db.prepare('SELECT * FROM workflow_runs WHERE team_id = ? AND id = ?').get(teamId, runId) as RunRow | undefined;
  if (!r) throw new NotFound('workflow run', runId);
  return r;
}
