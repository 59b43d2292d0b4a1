import type { Migration } from './index';

/**
 * Workflows: definitions and their versions, schedule bookkeeping, runs, steps, approvals and the effect ledger.
 * Design: docs/decisions/0100-workflow-definition-format.md and 0101-durable-workflow-engine.md.
 *
 * - `workflows`: one per workflow (the `workflow` entity). `promoted_version` is the version that runs (NULL: none
 *   promoted yet); `trigger_types` repeats the promoted version's trigger types (JSON array) so a trigger source
 *   finds the workflows to start with one indexed query. `webhook_secret` signs inbound webhook calls.
 * - `workflow_versions`: every imported definition, numbered per workflow; part of the workflow record.
 * - `workflow_schedules`: one row per schedule trigger of an active workflow's promoted version, with the next time
 *   it fires; a time missed while no process ran fires once (bookkeeping, not a record).
 * - `workflow_runs` (the `workflow_run` entity): a run's durable state. `current_node_id` + `step_count` say where it
 *   is; `wake_at` when a waiting run becomes ready again (a delay's end, an approval's deadline, or "now" after a
 *   decision); `lease_owner`/`lease_expires_at` the process running it (store/leases.ts claimCondition).
 *   `idempotency_key` is unique per team and workflow: the body key shared by execute, chat and the other starts.
 * - `workflow_steps`: one row per executed node, committed as running before its node runs and completed after;
 *   `effect_key` is the idempotency key its effect carries, the same on a retry. Part of the run record.
 * - `workflow_approvals`: a person's decision a run waits for, with an optional deadline and its outcome.
 * - `workflow_effects`: effects already applied, by idempotency key, written in the effect's own transaction, so
 *   repeating a step never repeats the effect.
 */
export const workflows: Migration = {
  version: 11,
  name: 'workflows',
  sql: `
CREATE TABLE workflows (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT,
  active INTEGER NOT NULL DEFAULT 0,
  api_execution INTEGER NOT NULL DEFAULT 0,
  promoted_version INTEGER,
  trigger_types TEXT NOT NULL DEFAULT '[]',
  webhook_secret TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX workflows_team ON workflows(team_id, created_at);

CREATE TABLE workflow_versions (
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  workflow_id TEXT NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  definition TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (workflow_id, version)
) WITHOUT ROWID;
CREATE INDEX workflow_versions_team ON workflow_versions(team_id);

CREATE TABLE workflow_schedules (
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  workflow_id TEXT NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
  trigger_index INTEGER NOT NULL,
  cron TEXT NOT NULL,
  timezone TEXT NOT NULL,
  next_fire_at TEXT NOT NULL,
  last_fired_at TEXT,
  PRIMARY KEY (workflow_id, trigger_index)
) WITHOUT ROWID;
CREATE INDEX workflow_schedules_due ON workflow_schedules(next_fire_at);
CREATE INDEX workflow_schedules_team ON workflow_schedules(team_id);

CREATE TABLE workflow_runs (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  workflow_id TEXT NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  run_number INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'waiting', 'completed', 'failed', 'canceled')),
  trigger_type TEXT NOT NULL,
  trigger_data TEXT NOT NULL DEFAULT '{}',
  source TEXT NOT NULL CHECK (source IN ('api', 'chat', 'app', 'cli', 'trigger', 'schedule', 'webhook')),
  conversation_id TEXT,
  idempotency_key TEXT,
  current_node_id TEXT,
  vars TEXT NOT NULL DEFAULT '{}',
  step_count INTEGER NOT NULL DEFAULT 0,
  wake_at TEXT,
  cancel_requested INTEGER NOT NULL DEFAULT 0,
  error_message TEXT,
  queued_at TEXT NOT NULL,
  started_at TEXT,
  completed_at TEXT,
  lease_owner TEXT,
  lease_expires_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE UNIQUE INDEX workflow_runs_key ON workflow_runs(team_id, workflow_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE UNIQUE INDEX workflow_runs_number ON workflow_runs(team_id, run_number);
CREATE INDEX workflow_runs_team ON workflow_runs(team_id, created_at);
CREATE INDEX workflow_runs_workflow ON workflow_runs(workflow_id, created_at);
CREATE INDEX workflow_runs_ready ON workflow_runs(status, wake_at) WHERE status IN ('pending', 'running', 'waiting');

CREATE TABLE workflow_steps (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  run_id TEXT NOT NULL REFERENCES workflow_runs(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  node_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('running', 'waiting', 'completed', 'failed', 'canceled')),
  attempt INTEGER NOT NULL DEFAULT 1,
  effect_key TEXT NOT NULL,
  output TEXT,
  error_message TEXT,
  started_at TEXT NOT NULL,
  completed_at TEXT,
  UNIQUE (run_id, position)
);
CREATE INDEX workflow_steps_team ON workflow_steps(team_id);

CREATE TABLE workflow_approvals (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  run_id TEXT NOT NULL REFERENCES workflow_runs(id) ON DELETE CASCADE,
  step_id TEXT NOT NULL UNIQUE REFERENCES workflow_steps(id) ON DELETE CASCADE,
  node_id TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT,
  status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected', 'canceled')),
  deadline_at TEXT,
  deadline_outcome TEXT CHECK (deadline_outcome IS NULL OR deadline_outcome IN ('approved', 'rejected')),
  decided_by TEXT,
  decided_at TEXT,
  comment TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX workflow_approvals_run ON workflow_approvals(run_id, status);
CREATE INDEX workflow_approvals_team ON workflow_approvals(team_id, status);

CREATE TABLE workflow_effects (
  key TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  run_id TEXT NOT NULL REFERENCES workflow_runs(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  result TEXT,
  created_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX workflow_effects_run ON workflow_effects(run_id);
CREATE INDEX workflow_effects_team ON workflow_effects(team_id);
`,
};
