import type { Migration } from './index';

/**
 * The Idempotency-Key guard's memory (see store/idempotency.ts and docs/decisions/0011-idempotency-key-guard.md).
 *
 * One row per (team, credential, route, key). It is server bookkeeping, not a team record: it has no `seq`, is not
 * written to the change feed and is never synced. `state` is 'running' from the moment a request takes the key
 * until its response is stored ('done'); a running row whose `lease_expires_at` has passed belongs to a request
 * that died and may be taken over. Rows live until `expires_at` (24 h after the first request) and are purged
 * lazily. Times are ISO-8601 UTC text, which compares correctly as text.
 */
export const idempotency: Migration = {
  version: 4,
  name: 'idempotency',
  sql: `
CREATE TABLE idempotency_keys (
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  credential_id TEXT NOT NULL,
  route TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('running', 'done')),
  owner TEXT NOT NULL,
  lease_expires_at TEXT,
  status_code INTEGER,
  content_type TEXT,
  response_body BLOB,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  PRIMARY KEY (team_id, credential_id, route, idempotency_key)
) WITHOUT ROWID;
CREATE INDEX idempotency_keys_expiry ON idempotency_keys(expires_at);
`,
};
