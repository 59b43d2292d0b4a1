import type { Migration } from './index';

/**
 * The one write path's bookkeeping, the sync engine's tables (empty until it runs), leases for background work, and
 * the hosted service's customer enrichment fields. Design: docs/decisions/0007-write-path-and-sync-bookkeeping.md.
 *
 * - `changes.origin`: who made a record's latest change (local user or API, import, rule, workflow, sync pull,
 *   system). The sync engine never pushes back a change whose origin is 'sync'.
 * - `teams.auth_seq`: bumped in the transaction of every revocation of a team's credential, so caches of resolved
 *   credentials are kept per team and survive other teams' (and bookkeeping) writes.
 * - `sync_remotes`: the remote v1 instances a team syncs with. The credential is never stored here: `credential_ref`
 *   names the secret in the OS keychain (desktop) or the data dir's secret file (headless).
 * - `sync_cursors`: per remote and entity, the local change sequence pushed so far and the remote's pull cursor.
 * - `sync_records`: per remote, one row per record that has been synced: the local ↔ remote id map and the base
 *   version (the record as last agreed with the remote: its JSON and a content hash), which three-way merges and
 *   "changed since last sync" checks compare against.
 * - `sync_conflicts`: every conflict a round met, with the three versions, the rule that decided and its outcome,
 *   for the UI to show.
 * - `leases`: named, expiring claims on background work (a scheduler tick, a send queue, a workflow run, a sync
 *   round), so two processes on one data dir never run the same job at once.
 */
export const writePathAndSyncBookkeeping: Migration = {
  version: 5,
  name: 'write-path-and-sync-bookkeeping',
  sql: `
ALTER TABLE changes ADD COLUMN origin TEXT NOT NULL DEFAULT 'local'
  CHECK (origin IN ('local', 'import', 'rule', 'workflow', 'sync', 'system'));
CREATE INDEX changes_team_origin_seq ON changes(team_id, origin, seq);

ALTER TABLE teams ADD COLUMN auth_seq INTEGER NOT NULL DEFAULT 0;

CREATE TABLE sync_remotes (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  base_url TEXT NOT NULL,
  -- 'finops': another Finops Desk server (has a change feed); 'hosted': the hosted service (lists are walked).
  kind TEXT NOT NULL DEFAULT 'finops' CHECK (kind IN ('finops', 'hosted')),
  remote_team_id TEXT,
  credential_ref TEXT,
  enabled INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX sync_remotes_team_url ON sync_remotes(team_id, base_url);

CREATE TABLE sync_cursors (
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  remote_id TEXT NOT NULL REFERENCES sync_remotes(id) ON DELETE CASCADE,
  entity TEXT NOT NULL,
  pushed_seq INTEGER NOT NULL DEFAULT 0,
  pull_cursor TEXT,
  last_complete_walk_at TEXT,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (remote_id, entity)
) WITHOUT ROWID;
CREATE INDEX sync_cursors_team ON sync_cursors(team_id);

CREATE TABLE sync_records (
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  remote_id TEXT NOT NULL REFERENCES sync_remotes(id) ON DELETE CASCADE,
  entity TEXT NOT NULL,
  local_id TEXT NOT NULL,
  remote_record_id TEXT,
  base_json TEXT,
  base_hash TEXT,
  base_seq INTEGER NOT NULL DEFAULT 0,
  synced_at TEXT NOT NULL,
  PRIMARY KEY (remote_id, entity, local_id)
) WITHOUT ROWID;
CREATE UNIQUE INDEX sync_records_remote_id ON sync_records(remote_id, entity, remote_record_id);
CREATE INDEX sync_records_team ON sync_records(team_id);

CREATE TABLE sync_conflicts (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  remote_id TEXT NOT NULL REFERENCES sync_remotes(id) ON DELETE CASCADE,
  entity TEXT NOT NULL,
  local_id TEXT NOT NULL,
  fields TEXT NOT NULL DEFAULT '[]',
  base_json TEXT,
  local_json TEXT,
  remote_json TEXT,
  rule TEXT NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('kept_local', 'took_remote', 'merged', 'pending')),
  created_at TEXT NOT NULL,
  resolved_at TEXT
);
CREATE INDEX sync_conflicts_team ON sync_conflicts(team_id, created_at);

CREATE TABLE leases (
  name TEXT PRIMARY KEY,
  team_id TEXT REFERENCES teams(id) ON DELETE CASCADE,
  owner TEXT NOT NULL,
  acquired_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
) WITHOUT ROWID;

ALTER TABLE customers ADD COLUMN description TEXT;
ALTER TABLE customers ADD COLUMN industry TEXT;
ALTER TABLE customers ADD COLUMN company_type TEXT;
ALTER TABLE customers ADD COLUMN employee_count TEXT;
ALTER TABLE customers ADD COLUMN founded_year INTEGER;
ALTER TABLE customers ADD COLUMN estimated_revenue TEXT;
ALTER TABLE customers ADD COLUMN funding_stage TEXT;
ALTER TABLE customers ADD COLUMN total_funding TEXT;
ALTER TABLE customers ADD COLUMN headquarters_location TEXT;
ALTER TABLE customers ADD COLUMN timezone TEXT;
ALTER TABLE customers ADD COLUMN linkedin_url TEXT;
ALTER TABLE customers ADD COLUMN twitter_url TEXT;
ALTER TABLE customers ADD COLUMN instagram_url TEXT;
ALTER TABLE customers ADD COLUMN facebook_url TEXT;
ALTER TABLE customers ADD COLUMN logo_url TEXT;
ALTER TABLE customers ADD COLUMN ceo_name TEXT;
ALTER TABLE customers ADD COLUMN finance_contact TEXT;
ALTER TABLE customers ADD COLUMN finance_contact_email TEXT;
ALTER TABLE customers ADD COLUMN primary_language TEXT;
ALTER TABLE customers ADD COLUMN fiscal_year_end TEXT;
ALTER TABLE customers ADD COLUMN enrichment_status TEXT;
ALTER TABLE customers ADD COLUMN enriched_at TEXT;
`,
};
