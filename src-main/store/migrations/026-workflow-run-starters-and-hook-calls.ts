import type { Migration } from './index';

/**
 * Issue 33, the last of its workflow items:
 * - `workflow_runs.started_by`: who started a run by hand, as the approvals record who decided (`user:<id>`,
 *   `api-key:<id>`, `oauth-client:<id>`, `cli`); NULL for a trigger, a schedule or a webhook. A run's approval is
 *   not decided by the one who started it (docs/decisions/0179-four-eyes-approvals.md). Runs from before have none.
 * - `workflow_hook_calls`: the signed calls of `POST /hooks/workflows/{id}` accepted within their window, by the
 *   signature they carried (the HMAC of timestamp and body), so a replay of one is refused however many processes
 *   serve the data dir and across restarts (docs/decisions/0178-webhook-replays.md). A row lives until its
 *   timestamp leaves the window (`expires_at`), after which the timestamp alone refuses the call; expired rows are
 *   deleted as calls are accepted. Bookkeeping, not a record: no `seq`, not in the change feed, never synced.
 */
export const workflowRunStartersAndHookCalls: Migration = {
  version: 26,
  name: 'workflow run starters, webhook calls accepted',
  sql: `
ALTER TABLE workflow_runs ADD COLUMN started_by TEXT;

CREATE TABLE workflow_hook_calls (
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  workflow_id TEXT NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
  signature TEXT NOT NULL,
  idempotency_key TEXT,
  accepted_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  PRIMARY KEY (workflow_id, signature)
) WITHOUT ROWID;
CREATE INDEX workflow_hook_calls_expiry ON workflow_hook_calls(expires_at);
CREATE INDEX workflow_hook_calls_team ON workflow_hook_calls(team_id);
`,
};
