import type { Migration } from './index';

/**
 * The ledger: what an accountant reviews all day. Design: docs/decisions/0050-ledger-data-model.md.
 *
 * transactions (table from 001) gains:
 * - `review_state` (to_review | needs_receipt | ready | exported | excluded), derived by
 *   src-shared/domain/review-state.ts from the columns below and rewritten by every ledger write, so lists filter
 *   and count by it through an index;
 * - `reviewed_at`, `is_fulfilled` (an attachment, or status completed), `reconciled_at` (set by a statement
 *   reconciliation; edits are refused until unreconciled), `search_rowid` (the FTS row, stable across VACUUM);
 * - indexes for the keyset orders the list offers and for the running balance walk (account, date, id).
 * `balance_minor` is the account's running balance after the transaction in (date, id) order, counting every
 * transaction of the account whatever its status (it is the bank's balance). `base_amount_minor` is the amount in
 * the team's base currency at the rate of the transaction's date (NULL when no rate is known: reported, never 1.0).
 * Both are derived columns: the ledger recomputes them in the same transaction as the write that moves them; they are
 * not record content and record no change of their own.
 *
 * transaction_splits: the parts of one bank line, each with its own amount, category, tax and note; the parts sum to
 * the line exactly. Part of the transaction (link table).
 * transaction_attachments: receipts attached to a transaction (the file lives in the data dir's content-addressed
 * store, by sha256). Part of the transaction.
 * transaction_field_sources: per field, who set it last (user, import, rule, workflow, sync, system) and which rule or
 * batch; a field a person set is locked against rules and imports.
 * ledger_daily: per team, day, currency and category, the inflow and outflow of the transactions that count in
 * reports (not internal, not excluded; split parts by their own category), maintained in the same transaction as
 * every ledger write: metrics read months from here instead of scanning transactions.
 * fx_rates: exchange rates per day as units of the currency per 1 USD (the spec's `{date, usd: {CCY: rate}}`), kept
 * as decimal text so conversions are exact and repeatable. Market data, not a team's record.
 * transactions_fts: full-text search over name, description, counterparty, merchant and note.
 */
export const ledger: Migration = {
  version: 6,
  name: 'ledger',
  sql: `
ALTER TABLE transactions ADD COLUMN review_state TEXT NOT NULL DEFAULT 'to_review'
  CHECK (review_state IN ('to_review', 'needs_receipt', 'ready', 'exported', 'excluded'));
ALTER TABLE transactions ADD COLUMN reviewed_at TEXT;
ALTER TABLE transactions ADD COLUMN is_fulfilled INTEGER NOT NULL DEFAULT 0;
ALTER TABLE transactions ADD COLUMN reconciled_at TEXT;
ALTER TABLE transactions ADD COLUMN search_rowid INTEGER;

UPDATE transactions SET is_fulfilled = (status = 'completed');
UPDATE transactions SET review_state = CASE
  WHEN status IN ('excluded', 'archived') THEN 'excluded'
  WHEN status = 'exported' THEN 'exported'
  WHEN status = 'completed' THEN 'ready'
  ELSE 'to_review' END;
UPDATE transactions SET search_rowid = rowid;

DROP INDEX IF EXISTS transactions_team_account;
CREATE INDEX transactions_account_walk ON transactions(team_id, bank_account_id, date, id);
CREATE INDEX transactions_team_date_id ON transactions(team_id, date, id);
CREATE INDEX transactions_team_amount ON transactions(team_id, amount_minor, id);
CREATE INDEX transactions_team_name ON transactions(team_id, name COLLATE NOCASE, id);
CREATE INDEX transactions_team_category ON transactions(team_id, category_slug, date, id);
CREATE INDEX transactions_team_review ON transactions(team_id, review_state, date, id);
CREATE INDEX transactions_team_status ON transactions(team_id, status, date, id);
CREATE UNIQUE INDEX transactions_search_rowid ON transactions(search_rowid);

CREATE TABLE transaction_splits (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  transaction_id TEXT NOT NULL REFERENCES transactions(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  amount_minor INTEGER NOT NULL,
  category_slug TEXT,
  tax_rate REAL,
  tax_type TEXT,
  note TEXT,
  UNIQUE (transaction_id, position)
);
CREATE INDEX transaction_splits_team ON transaction_splits(team_id, transaction_id);

CREATE TABLE transaction_attachments (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  transaction_id TEXT NOT NULL REFERENCES transactions(id) ON DELETE CASCADE,
  sha256 TEXT NOT NULL,
  filename TEXT,
  size INTEGER NOT NULL,
  mime_type TEXT NOT NULL,
  source_id TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX transaction_attachments_tx ON transaction_attachments(team_id, transaction_id);
CREATE INDEX transaction_attachments_sha ON transaction_attachments(sha256);

CREATE TABLE transaction_field_sources (
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  transaction_id TEXT NOT NULL REFERENCES transactions(id) ON DELETE CASCADE,
  field TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('user', 'import', 'rule', 'workflow', 'sync', 'system')),
  source_id TEXT,
  set_at TEXT NOT NULL,
  PRIMARY KEY (transaction_id, field)
) WITHOUT ROWID;
CREATE INDEX transaction_field_sources_team ON transaction_field_sources(team_id, source, source_id);

CREATE TABLE ledger_daily (
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  day TEXT NOT NULL,
  currency TEXT NOT NULL,
  category_slug TEXT NOT NULL,
  inflow_minor INTEGER NOT NULL DEFAULT 0,
  outflow_minor INTEGER NOT NULL DEFAULT 0,
  count INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (team_id, day, currency, category_slug)
) WITHOUT ROWID;

CREATE TABLE fx_rates (
  currency TEXT NOT NULL,
  day TEXT NOT NULL,
  per_usd TEXT NOT NULL,
  source TEXT NOT NULL DEFAULT 'import',
  imported_at TEXT NOT NULL,
  PRIMARY KEY (currency, day)
) WITHOUT ROWID;

CREATE VIRTUAL TABLE transactions_fts USING fts5(
  name, description, counterparty_name, merchant_name, note,
  content = 'transactions', content_rowid = 'search_rowid',
  tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
);
INSERT INTO transactions_fts(transactions_fts) VALUES ('rebuild');

CREATE TRIGGER transactions_fts_assign AFTER INSERT ON transactions WHEN new.search_rowid IS NULL BEGIN
  UPDATE transactions SET search_rowid = (SELECT coalesce(max(search_rowid), 0) + 1 FROM transactions) WHERE id = new.id;
END;
CREATE TRIGGER transactions_fts_ai AFTER INSERT ON transactions WHEN new.search_rowid IS NOT NULL BEGIN
  INSERT INTO transactions_fts(rowid, name, description, counterparty_name, merchant_name, note)
  VALUES (new.search_rowid, new.name, new.description, new.counterparty_name, new.merchant_name, new.note);
END;
CREATE TRIGGER transactions_fts_ad AFTER DELETE ON transactions WHEN old.search_rowid IS NOT NULL BEGIN
  INSERT INTO transactions_fts(transactions_fts, rowid, name, description, counterparty_name, merchant_name, note)
  VALUES ('delete', old.search_rowid, old.name, old.description, old.counterparty_name, old.merchant_name, old.note);
END;
CREATE TRIGGER transactions_fts_au AFTER UPDATE OF name, description, counterparty_name, merchant_name, note, search_rowid
ON transactions BEGIN
  INSERT INTO transactions_fts(transactions_fts, rowid, name, description, counterparty_name, merchant_name, note)
  SELECT 'delete', old.search_rowid, old.name, old.description, old.counterparty_name, old.merchant_name, old.note
  WHERE old.search_rowid IS NOT NULL;
  INSERT INTO transactions_fts(rowid, name, description, counterparty_name, merchant_name, note)
  SELECT new.search_rowid, new.name, new.description, new.counterparty_name, new.merchant_name, new.note
  WHERE new.search_rowid IS NOT NULL;
END;
`,
};
