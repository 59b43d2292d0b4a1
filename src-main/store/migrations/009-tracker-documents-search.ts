import type { Migration } from './index';

/**
 * Tracker, documents, inbox and search (docs/decisions/0080…0089).
 *
 * - Tracker: at most one running timer (an entry without `stop`) per team and assignee, held by a partial unique
 *   index, so two parallel starts can never leave two timers running even if the code's check were bypassed.
 * - Stored files: content-addressed blobs in the data dir (`files/<sha256[0:2]>/<sha256>`). `stored_files` has one
 *   row per distinct content (size, type found from the bytes, and the extraction queue: status, attempts, lease);
 *   `stored_file_refs` one row per record holding the file (a document, an inbox item, a transaction attachment).
 *   A blob is deleted with its last reference. Extraction runs once per content and its result is copied to every
 *   record that holds it.
 * - `download_links`: short-lived links to a stored file (the hosted "presigned URL"), by the token's hash.
 * - Documents (the hosted "vault") and inbox items (receipts waiting to be matched), with match suggestions.
 * - Full-text search: FTS5 external-content tables over invoices, tracker projects, documents and inbox items, each
 *   keyed by a stable `search_rowid` like customers_fts (migration 002 says why), kept in step by triggers.
 *
 * The FTS statements come from `fts` below, local to this file, so nothing outside it can change this migration.
 */
function fts(table: string, columns: readonly string[]): string {
  const name = `${table}_fts`;
  const cols = columns.join(', ');
  const newCols = columns.map((c) => `new.${c}`).join(', ');
  const oldCols = columns.map((c) => `old.${c}`).join(', ');
  return `
ALTER TABLE ${table} ADD COLUMN search_rowid INTEGER;
UPDATE ${table} SET search_rowid = rowid;
CREATE UNIQUE INDEX ${table}_search_rowid ON ${table}(search_rowid);
CREATE VIRTUAL TABLE ${name} USING fts5(
  ${cols},
  content = '${table}', content_rowid = 'search_rowid',
  tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
);
INSERT INTO ${name}(${name}) VALUES ('rebuild');
CREATE TRIGGER ${name}_assign AFTER INSERT ON ${table} WHEN new.search_rowid IS NULL BEGIN
  UPDATE ${table} SET search_rowid = (SELECT coalesce(max(search_rowid), 0) + 1 FROM ${table}) WHERE id = new.id;
END;
CREATE TRIGGER ${name}_ai AFTER INSERT ON ${table} WHEN new.search_rowid IS NOT NULL BEGIN
  INSERT INTO ${name}(rowid, ${cols}) VALUES (new.search_rowid, ${newCols});
END;
CREATE TRIGGER ${name}_ad AFTER DELETE ON ${table} WHEN old.search_rowid IS NOT NULL BEGIN
  INSERT INTO ${name}(${name}, rowid, ${cols}) VALUES ('delete', old.search_rowid, ${oldCols});
END;
CREATE TRIGGER ${name}_au AFTER UPDATE ON ${table} BEGIN
  INSERT INTO ${name}(${name}, rowid, ${cols}) SELECT 'delete', old.search_rowid, ${oldCols} WHERE old.search_rowid IS NOT NULL;
  INSERT INTO ${name}(rowid, ${cols}) SELECT new.search_rowid, ${newCols} WHERE new.search_rowid IS NOT NULL;
END;
`;
}

export const trackerDocumentsSearch: Migration = {
  version: 9,
  name: 'tracker-documents-search',
  sql: `
CREATE UNIQUE INDEX tracker_entries_running ON tracker_entries(team_id, coalesce(assigned_id, '')) WHERE stop IS NULL;
CREATE INDEX tracker_entries_project ON tracker_entries(team_id, project_id, date);
CREATE INDEX tracker_projects_team_created ON tracker_projects(team_id, created_at, id);
CREATE INDEX tracker_project_tags_project ON tracker_project_tags(team_id, project_id);

CREATE TABLE stored_files (
  sha256 TEXT PRIMARY KEY,
  size INTEGER NOT NULL,
  mimetype TEXT NOT NULL,
  created_at TEXT NOT NULL,
  extraction_status TEXT NOT NULL DEFAULT 'pending'
    CHECK (extraction_status IN ('pending', 'processing', 'completed', 'failed')),
  extraction_attempts INTEGER NOT NULL DEFAULT 0,
  extraction_error TEXT,
  extraction_method TEXT,
  extracted_text TEXT,
  extracted_fields TEXT,
  extracted_at TEXT,
  lease_owner TEXT,
  lease_expires_at TEXT
) WITHOUT ROWID;
CREATE INDEX stored_files_queue ON stored_files(extraction_status, created_at);

CREATE TABLE stored_file_refs (
  sha256 TEXT NOT NULL REFERENCES stored_files(sha256),
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  owner_entity TEXT NOT NULL,
  owner_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (owner_entity, owner_id, sha256)
) WITHOUT ROWID;
CREATE INDEX stored_file_refs_sha ON stored_file_refs(sha256);
CREATE INDEX stored_file_refs_team ON stored_file_refs(team_id);

-- Short-lived download links (the hosted "presigned URL"): the token is shown once and stored as its SHA-256.
CREATE TABLE download_links (
  token_hash TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  owner_entity TEXT NOT NULL,
  owner_id TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  created_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX download_links_expiry ON download_links(expires_at);

CREATE TABLE documents (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  file_name TEXT NOT NULL,
  path_tokens TEXT NOT NULL DEFAULT '[]',
  sha256 TEXT NOT NULL REFERENCES stored_files(sha256),
  size INTEGER NOT NULL,
  mimetype TEXT NOT NULL,
  processing_status TEXT NOT NULL DEFAULT 'pending'
    CHECK (processing_status IN ('pending', 'processing', 'completed', 'failed')),
  summary TEXT,
  date TEXT,
  content TEXT,
  metadata TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX documents_team_created ON documents(team_id, created_at, id);
CREATE INDEX documents_sha ON documents(sha256);

CREATE TABLE inbox_items (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  file_name TEXT NOT NULL,
  display_name TEXT,
  sha256 TEXT NOT NULL REFERENCES stored_files(sha256),
  size INTEGER NOT NULL,
  content_type TEXT NOT NULL,
  amount_minor INTEGER,
  currency TEXT,
  date TEXT,
  tax_amount_minor INTEGER,
  tax_rate REAL,
  tax_type TEXT,
  website TEXT,
  description TEXT,
  content TEXT,
  status TEXT NOT NULL DEFAULT 'new' CHECK (status IN
    ('new', 'processing', 'analyzing', 'pending', 'suggested_match', 'no_match', 'done', 'archived', 'deleted', 'other')),
  transaction_id TEXT,
  attachment_id TEXT,
  matched_at TEXT,
  -- the team's change sequence when suggestions were last computed: newer transactions trigger a re-check
  match_checked_seq INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX inbox_items_team_created ON inbox_items(team_id, created_at, id);
CREATE INDEX inbox_items_team_status ON inbox_items(team_id, status, created_at);
CREATE INDEX inbox_items_sha ON inbox_items(sha256);
CREATE INDEX inbox_items_transaction ON inbox_items(team_id, transaction_id);

CREATE TABLE inbox_suggestions (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  inbox_id TEXT NOT NULL REFERENCES inbox_items(id) ON DELETE CASCADE,
  transaction_id TEXT NOT NULL,
  confidence REAL NOT NULL,
  scores TEXT NOT NULL DEFAULT '{}',
  match_type TEXT NOT NULL CHECK (match_type IN ('auto', 'suggested', 'manual')),
  status TEXT NOT NULL CHECK (status IN ('pending', 'confirmed', 'declined', 'unmatched', 'superseded')),
  created_at TEXT NOT NULL,
  decided_at TEXT,
  UNIQUE (inbox_id, transaction_id)
);
CREATE INDEX inbox_suggestions_team ON inbox_suggestions(team_id, inbox_id, status);
${fts('invoices', ['invoice_number', 'customer_name', 'note'])}
${fts('tracker_projects', ['name', 'description'])}
${fts('documents', ['title', 'file_name', 'summary', 'content'])}
${fts('inbox_items', ['display_name', 'file_name', 'description', 'website', 'content'])}
`,
};
