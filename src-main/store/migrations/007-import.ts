import type { Migration } from './index';

/**
 * Import: bank files become transactions (docs/decisions/0060–0066).
 *
 * transactions gains:
 * - `external_id`: the bank's own id of the line (OFX FITID, CAMT AcctSvcrRef or EndToEndId, MT940 bank reference),
 *   namespaced by kind; `fingerprint`: a stable hash of (account, date, amount, normalised description, occurrence
 *   within the day) for lines without one — both looked up per account by the dedupe, never unique (banks reuse ids
 *   and two identical purchases on one day are two rows);
 * - `import_batch_id`: the batch that created the line, or that linked it to a hand-entered transaction;
 * - `reconciliation_id`: the statement reconciliation that marked it reconciled.
 * Plus the indexes the dedupe (bank id, fingerprint), the hand-entered candidates (open manual rows by date) and the
 * transfer pairing (same amount by date across accounts) read.
 *
 * import_batches: one committed file (hash, format, mapping, counts, balance check, warnings); undone in place.
 * import_batch_rows: the outcome of every row of a batch (created, duplicate of, linked to, queued, rejected).
 * import_review_items: bank rows held out of the ledger because a hand-entered match was ambiguous or weak.
 * import_mappings: named CSV mappings per account, reused on the account's next file.
 * import_uploads: files uploaded over the API between preview and commit (scratch, expire after a day).
 * transfer_pairs: a debit on one account and a credit on another paired as one internal transfer (or suggested).
 * reconciliations: a statement's closing balance and date checked against the account's cleared transactions.
 */
export const importing: Migration = {
  version: 7,
  name: 'import',
  sql: `
ALTER TABLE transactions ADD COLUMN external_id TEXT;
ALTER TABLE transactions ADD COLUMN fingerprint TEXT;
ALTER TABLE transactions ADD COLUMN import_batch_id TEXT;
ALTER TABLE transactions ADD COLUMN reconciliation_id TEXT;
CREATE INDEX transactions_account_external ON transactions(team_id, bank_account_id, external_id) WHERE external_id IS NOT NULL;
CREATE INDEX transactions_account_fingerprint ON transactions(team_id, bank_account_id, fingerprint) WHERE fingerprint IS NOT NULL;
CREATE INDEX transactions_import_batch ON transactions(team_id, import_batch_id) WHERE import_batch_id IS NOT NULL;
CREATE INDEX transactions_reconciliation ON transactions(team_id, reconciliation_id) WHERE reconciliation_id IS NOT NULL;
CREATE INDEX transactions_open_manual ON transactions(team_id, bank_account_id, date)
  WHERE manual = 1 AND external_id IS NULL;
CREATE INDEX transactions_team_amount_date ON transactions(team_id, amount_minor, date);

CREATE TABLE import_batches (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  bank_account_id TEXT NOT NULL REFERENCES bank_accounts(id) ON DELETE CASCADE,
  file_name TEXT,
  file_sha256 TEXT NOT NULL,
  file_size INTEGER NOT NULL,
  format TEXT NOT NULL CHECK (format IN ('csv', 'ofx', 'camt', 'mt940')),
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
  seq INTEGER NOT NULL
);
CREATE INDEX import_batches_account ON import_batches(team_id, bank_account_id, created_at, id);
CREATE INDEX import_batches_hash ON import_batches(team_id, file_sha256);

CREATE TABLE import_batch_rows (
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  batch_id TEXT NOT NULL REFERENCES import_batches(id) ON DELETE CASCADE,
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
CREATE INDEX import_batch_rows_tx ON import_batch_rows(team_id, transaction_id) WHERE transaction_id IS NOT NULL;

CREATE TABLE import_review_items (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  bank_account_id TEXT NOT NULL REFERENCES bank_accounts(id) ON DELETE CASCADE,
  batch_id TEXT NOT NULL REFERENCES import_batches(id) ON DELETE CASCADE,
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
CREATE INDEX import_review_items_queue ON import_review_items(team_id, status, created_at, id);
CREATE INDEX import_review_items_account ON import_review_items(team_id, bank_account_id, fingerprint);
CREATE INDEX import_review_items_batch ON import_review_items(team_id, batch_id);

CREATE TABLE import_mappings (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  bank_account_id TEXT NOT NULL REFERENCES bank_accounts(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  format TEXT NOT NULL,
  config TEXT NOT NULL,
  last_used_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL,
  UNIQUE (team_id, bank_account_id, name)
);

CREATE TABLE import_uploads (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  bank_account_id TEXT NOT NULL REFERENCES bank_accounts(id) ON DELETE CASCADE,
  file_name TEXT,
  sha256 TEXT NOT NULL,
  size INTEGER NOT NULL,
  content BLOB NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE INDEX import_uploads_expiry ON import_uploads(expires_at);

CREATE TABLE transfer_pairs (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  out_transaction_id TEXT NOT NULL REFERENCES transactions(id) ON DELETE CASCADE,
  in_transaction_id TEXT NOT NULL REFERENCES transactions(id) ON DELETE CASCADE,
  status TEXT NOT NULL CHECK (status IN ('paired', 'suggested', 'dismissed')),
  batch_id TEXT,
  days INTEGER NOT NULL,
  before TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE UNIQUE INDEX transfer_pairs_out ON transfer_pairs(out_transaction_id) WHERE status = 'paired';
CREATE UNIQUE INDEX transfer_pairs_in ON transfer_pairs(in_transaction_id) WHERE status = 'paired';
CREATE UNIQUE INDEX transfer_pairs_both ON transfer_pairs(out_transaction_id, in_transaction_id);
CREATE INDEX transfer_pairs_team ON transfer_pairs(team_id, status, created_at, id);
CREATE INDEX transfer_pairs_in_tx ON transfer_pairs(in_transaction_id);
CREATE INDEX transfer_pairs_batch ON transfer_pairs(team_id, batch_id);

CREATE TABLE reconciliations (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  bank_account_id TEXT NOT NULL REFERENCES bank_accounts(id) ON DELETE CASCADE,
  statement_date TEXT NOT NULL,
  statement_balance_minor INTEGER NOT NULL,
  currency TEXT NOT NULL,
  transaction_count INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('reconciled', 'undone')),
  undone_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX reconciliations_account ON reconciliations(team_id, bank_account_id, statement_date, id);
`,
};
