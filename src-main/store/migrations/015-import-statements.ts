import type { Migration } from './index';

/**
 * Import of QIF files and of files holding several accounts' statements (docs/decisions/0068, 0069).
 * - `import_batches.format` takes 'qif'; `account_ref` keeps the account the statement named (an IBAN, an account
 *   number, a QIF account name), so the next file naming it goes to the same account. SQLite cannot change a CHECK
 *   in place: the batch table is rebuilt, with the two tables that refer to it (dropped first, so no cascade runs).
 * - `import_uploads.bank_account_id` may be null: a file of several statements is uploaded for the team, each
 *   statement finding its own account.
 */
export const importStatements: Migration = {
  version: 15,
  name: 'import-statements',
  sql: /* sql */ `
CREATE TABLE import_batches_next (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  bank_account_id TEXT NOT NULL REFERENCES bank_accounts(id) ON DELETE CASCADE,
  file_name TEXT,
  file_sha256 TEXT NOT NULL,
  file_size INTEGER NOT NULL,
  format TEXT NOT NULL CHECK (format IN ('csv', 'ofx', 'camt', 'mt940', 'qif')),
  encoding TEXT NOT NULL,
  mapping TEXT,
  mapping_name TEXT,
  status TEXT NOT NULL CHECK (status IN ('committed', 'undone')),
  rows_total INTEGER NOT NULL,
  created_count INTEGER NOT NULL DEFAULT 0,
  duplicate_count INTEGER NOT NULL DEFAULT 0,
  linked_count INTEGER NOT NULL DEFAULT 0,
  review_count INTEGER NOT NULL DEFAULT 0,
  rejected_count INTEGER NOT NULL DEFAULT 0,
  transfer_count INTEGER NOT NULL DEFAULT 0,
  balance TEXT,
  warnings TEXT NOT NULL DEFAULT '[]',
  undone_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL,
  account_ref TEXT
);
INSERT INTO import_batches_next (id, team_id, bank_account_id, file_name, file_sha256, file_size, format, encoding, mapping,
  mapping_name, status, rows_total, created_count, duplicate_count, linked_count, review_count, rejected_count,
  transfer_count, balance, warnings, undone_at, created_at, updated_at, seq)
SELECT id, team_id, bank_account_id, file_name, file_sha256, file_size, format, encoding, mapping, mapping_name, status,
  rows_total, created_count, duplicate_count, linked_count, review_count, rejected_count, transfer_count, balance,
  warnings, undone_at, created_at, updated_at, seq
FROM import_batches;

CREATE TABLE import_batch_rows_next (
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  batch_id TEXT NOT NULL REFERENCES import_batches_next(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  line INTEGER,
  outcome TEXT NOT NULL CHECK (outcome IN ('created', 'duplicate', 'linked', 'review', 'rejected')),
  transaction_id TEXT,
  match TEXT,
  reason TEXT,
  date TEXT,
  amount_minor INTEGER,
  description TEXT,
  external_id TEXT,
  fingerprint TEXT,
  before TEXT,
  PRIMARY KEY (batch_id, position)
) WITHOUT ROWID;
INSERT INTO import_batch_rows_next SELECT team_id, batch_id, position, line, outcome, transaction_id, match, reason, date,
  amount_minor, description, external_id, fingerprint, before FROM import_batch_rows;

CREATE TABLE import_review_items_next (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  bank_account_id TEXT NOT NULL REFERENCES bank_accounts(id) ON DELETE CASCADE,
  batch_id TEXT NOT NULL REFERENCES import_batches_next(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('open', 'linked', 'created')),
  row TEXT NOT NULL,
  candidates TEXT NOT NULL,
  external_id TEXT,
  fingerprint TEXT,
  resolved_transaction_id TEXT,
  resolved_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
INSERT INTO import_review_items_next SELECT id, team_id, bank_account_id, batch_id, position, status, row, candidates,
  external_id, fingerprint, resolved_transaction_id, resolved_at, created_at, updated_at, seq FROM import_review_items;

DROP TABLE import_batch_rows;
DROP TABLE import_review_items;
DROP TABLE import_batches;
ALTER TABLE import_batches_next RENAME TO import_batches;
ALTER TABLE import_batch_rows_next RENAME TO import_batch_rows;
ALTER TABLE import_review_items_next RENAME TO import_review_items;
CREATE INDEX import_batches_account ON import_batches(team_id, bank_account_id, created_at, id);
CREATE INDEX import_batches_hash ON import_batches(team_id, file_sha256);
CREATE INDEX import_batches_ref ON import_batches(team_id, account_ref) WHERE account_ref IS NOT NULL;
CREATE INDEX import_batch_rows_tx ON import_batch_rows(team_id, transaction_id) WHERE transaction_id IS NOT NULL;
CREATE INDEX import_review_items_queue ON import_review_items(team_id, status, created_at, id);
CREATE INDEX import_review_items_account ON import_review_items(team_id, bank_account_id, fingerprint);
CREATE INDEX import_review_items_batch ON import_review_items(team_id, batch_id);

CREATE TABLE import_uploads_next (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  bank_account_id TEXT REFERENCES bank_accounts(id) ON DELETE CASCADE,
  file_name TEXT,
  sha256 TEXT NOT NULL,
  size INTEGER NOT NULL,
  content BLOB NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
INSERT INTO import_uploads_next SELECT id, team_id, bank_account_id, file_name, sha256, size, content, created_at, expires_at
FROM import_uploads;
DROP TABLE import_uploads;
ALTER TABLE import_uploads_next RENAME TO import_uploads;
CREATE INDEX import_uploads_expiry ON import_uploads(expires_at);
`,
};
