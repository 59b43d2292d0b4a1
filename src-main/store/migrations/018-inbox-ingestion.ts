import type { Migration } from './index';

/**
 * Inbox ingestion (docs/decisions/0150-inbox-ingestion.md):
 * - `inbox_sources`: where a team's receipts arrive besides uploads, one row per kind: a watched folder (`config`
 *   {path}), a mailbox fetched over IMAP ({host, port, security, user, mailbox}; the password lives in the data dir's
 *   secret file, never here), and the inbound e-mail callback (`address`, the random path segment of its URL; its
 *   signing secret lives in the secret file too). `cursor` is the IMAP position ({uidValidity, lastUid}); the last
 *   run's time and error are shown to the owner.
 * - `inbox_ingested`: the ledger that makes ingestion idempotent across restarts and processes: one row per mail
 *   (`message:<Message-ID>`) and per file (`file:<sha256>`) a team has taken in, whatever became of it (created an
 *   item, was a duplicate, was skipped for a reason). A key is inserted in the write that creates the item, so two
 *   processes cannot both take the same mail or file.
 */
export const inboxIngestion: Migration = {
  version: 18,
  name: 'inbox-ingestion',
  sql: `
CREATE TABLE inbox_sources (
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('folder', 'imap', 'webhook')),
  config TEXT NOT NULL DEFAULT '{}',
  address TEXT UNIQUE,
  cursor TEXT,
  last_run_at TEXT,
  last_error TEXT,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (team_id, kind)
);

CREATE TABLE inbox_ingested (
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('folder', 'imap', 'webhook')),
  outcome TEXT NOT NULL CHECK (outcome IN ('created', 'duplicate', 'skipped')),
  inbox_item_id TEXT,
  detail TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (team_id, key)
);
CREATE INDEX inbox_ingested_team_created ON inbox_ingested(team_id, created_at);
`,
};
