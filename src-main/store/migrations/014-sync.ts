import type { Migration } from './index';

/**
 * The sync engine's state (docs/decisions/0140-sync-engine.md), beside the tables of migration 005.
 * - `sync_remotes`: each remote's round state for status screens and the CLI (state, progress, last success, last
 *   error, the last round's counts) and how it signs in (an API key or OAuth; the secret itself lives in the OS
 *   keychain or comes with the command, never here).
 * - `sync_records`: per walk of a list (remotes without a change feed), which walk last saw the record and how many
 *   complete walks in a row missed it: a record is gone there only after two.
 * - `sync_cursors`: a walk's number and where a walk in progress stands, so a crash resumes it.
 * - `sync_outbox`: pushes frozen when a push starts: the exact payload bytes and their hash, the Idempotency-Key
 *   fixed at the first send, attempts, state and the last error. A retry resends the same bytes with the same key.
 * - `sync_conflicts`: the group of fields, which side the stated default kept, and a hash of the values so the same
 *   conflict is never recorded twice.
 */
export const sync: Migration = {
  version: 14,
  name: 'sync',
  sql: `
ALTER TABLE sync_remotes ADD COLUMN state TEXT NOT NULL DEFAULT 'idle'
  CHECK (state IN ('idle', 'running', 'failed', 'credentials_expired', 'refused'));
ALTER TABLE sync_remotes ADD COLUMN auth_kind TEXT NOT NULL DEFAULT 'api_key' CHECK (auth_kind IN ('api_key', 'oauth'));
ALTER TABLE sync_remotes ADD COLUMN oauth_client_id TEXT;
ALTER TABLE sync_remotes ADD COLUMN last_success_at TEXT;
ALTER TABLE sync_remotes ADD COLUMN last_error TEXT;
ALTER TABLE sync_remotes ADD COLUMN last_summary TEXT;
ALTER TABLE sync_remotes ADD COLUMN round_started_at TEXT;
ALTER TABLE sync_remotes ADD COLUMN progress_phase TEXT;
ALTER TABLE sync_remotes ADD COLUMN progress_done INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sync_remotes ADD COLUMN progress_total INTEGER NOT NULL DEFAULT 0;

ALTER TABLE sync_records ADD COLUMN seen_walk INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sync_records ADD COLUMN missing_walks INTEGER NOT NULL DEFAULT 0;

ALTER TABLE sync_cursors ADD COLUMN walk_no INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sync_cursors ADD COLUMN walk_cursor TEXT;
ALTER TABLE sync_cursors ADD COLUMN walk_started_at TEXT;

CREATE TABLE sync_outbox (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  remote_id TEXT NOT NULL REFERENCES sync_remotes(id) ON DELETE CASCADE,
  entity TEXT NOT NULL,
  local_id TEXT NOT NULL,
  op TEXT NOT NULL CHECK (op IN ('create', 'update', 'delete')),
  payload TEXT NOT NULL,
  payload_hash TEXT NOT NULL,
  projection TEXT,
  idempotency_key TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'conflict')),
  last_error TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  sent_at TEXT
);
CREATE INDEX sync_outbox_pending ON sync_outbox(remote_id, state, created_at, id);
CREATE INDEX sync_outbox_record ON sync_outbox(remote_id, entity, local_id);

ALTER TABLE sync_conflicts ADD COLUMN group_name TEXT;
ALTER TABLE sync_conflicts ADD COLUMN winner TEXT CHECK (winner IN ('local', 'remote'));
ALTER TABLE sync_conflicts ADD COLUMN values_hash TEXT;
CREATE UNIQUE INDEX sync_conflicts_once ON sync_conflicts(remote_id, entity, local_id, values_hash);
`,
};
