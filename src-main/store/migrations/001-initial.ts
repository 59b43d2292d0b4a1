import type { Migration } from './index';

/**
 * The first schema. Conventions every later migration keeps:
 * - every team-owned table has `team_id` (FK to teams), `created_at`, `updated_at` (ISO-8601 UTC) and `seq`, the
 *   team's change sequence number of the row's last write (see store/changes.ts);
 * - ids are UUID v7 text;
 * - money is INTEGER minor units (`*_minor`) next to its ISO 4217 `currency`;
 * - booleans are INTEGER 0/1; free-form objects are JSON text.
 */
export const initial: Migration = {
  version: 1,
  name: 'initial',
  sql: `
CREATE TABLE teams (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  base_currency TEXT NOT NULL DEFAULT 'EUR',
  country_code TEXT,
  fiscal_year_start_month INTEGER NOT NULL DEFAULT 1 CHECK (fiscal_year_start_month BETWEEN 1 AND 12),
  logo_url TEXT,
  change_seq INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX teams_name ON teams(name);

CREATE TABLE users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL COLLATE NOCASE UNIQUE,
  full_name TEXT NOT NULL,
  password_hash TEXT,
  locale TEXT NOT NULL DEFAULT 'en',
  timezone TEXT NOT NULL DEFAULT 'UTC',
  date_format TEXT NOT NULL DEFAULT 'yyyy-MM-dd',
  time_format INTEGER NOT NULL DEFAULT 24,
  week_starts_on_monday INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE team_members (
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('owner', 'member')),
  created_at TEXT NOT NULL,
  PRIMARY KEY (team_id, user_id)
);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  user_id TEXT REFERENCES users(id) ON DELETE SET NULL,
  name TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  key_hint TEXT NOT NULL,
  scopes TEXT NOT NULL,
  created_at TEXT NOT NULL,
  last_used_at TEXT,
  revoked_at TEXT
);
CREATE INDEX api_keys_team ON api_keys(team_id);

-- The change feed: one row per record, holding the sequence number and kind of its latest change.
-- A delete leaves its row here with op = 'delete' (the tombstone), so a feed "changes since seq N" is one query.
CREATE TABLE changes (
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  entity TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  op TEXT NOT NULL CHECK (op IN ('upsert', 'delete')),
  changed_at TEXT NOT NULL,
  PRIMARY KEY (team_id, seq)
) WITHOUT ROWID;
CREATE UNIQUE INDEX changes_entity ON changes(team_id, entity, entity_id);

CREATE TABLE tags (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE UNIQUE INDEX tags_team_name ON tags(team_id, name COLLATE NOCASE);

CREATE TABLE customers (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  email TEXT,
  billing_email TEXT,
  phone TEXT,
  website TEXT,
  contact TEXT,
  country TEXT,
  country_code TEXT,
  address_line1 TEXT,
  address_line2 TEXT,
  city TEXT,
  state TEXT,
  zip TEXT,
  vat_number TEXT,
  peppol_id TEXT,
  note TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX customers_team ON customers(team_id, id);

CREATE TABLE customer_tags (
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  customer_id TEXT NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  tag_id TEXT NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
  PRIMARY KEY (customer_id, tag_id)
) WITHOUT ROWID;
CREATE INDEX customer_tags_tag ON customer_tags(team_id, tag_id);

CREATE TABLE bank_accounts (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('depository', 'credit', 'other_asset', 'loan', 'other_liability')),
  currency TEXT NOT NULL,
  balance_minor INTEGER NOT NULL DEFAULT 0,
  enabled INTEGER NOT NULL DEFAULT 1,
  manual INTEGER NOT NULL DEFAULT 0,
  institution_id TEXT,
  institution_name TEXT,
  institution_logo TEXT,
  connection_id TEXT,
  connection_name TEXT,
  enrollment_id TEXT,
  resource_id TEXT,
  expires_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX bank_accounts_team ON bank_accounts(team_id);

CREATE TABLE transaction_categories (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  slug TEXT NOT NULL,
  name TEXT NOT NULL,
  color TEXT NOT NULL,
  description TEXT,
  tax_rate REAL,
  tax_type TEXT CHECK (tax_type IS NULL OR tax_type IN ('vat', 'gst', 'sales_tax', 'income_tax', 'none')),
  tax_reporting_code TEXT,
  excluded INTEGER NOT NULL DEFAULT 0,
  system INTEGER NOT NULL DEFAULT 0,
  parent_id TEXT REFERENCES transaction_categories(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE UNIQUE INDEX transaction_categories_slug ON transaction_categories(team_id, slug);

CREATE TABLE transactions (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  internal_id TEXT NOT NULL,
  bank_account_id TEXT NOT NULL REFERENCES bank_accounts(id),
  name TEXT NOT NULL,
  description TEXT,
  method TEXT NOT NULL DEFAULT 'other',
  amount_minor INTEGER NOT NULL,
  currency TEXT NOT NULL,
  balance_minor INTEGER,
  base_amount_minor INTEGER,
  base_currency TEXT,
  tax_amount_minor INTEGER,
  tax_rate REAL,
  tax_type TEXT,
  counterparty_name TEXT,
  merchant_name TEXT,
  date TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'posted',
  internal INTEGER,
  recurring INTEGER,
  manual INTEGER,
  frequency TEXT,
  note TEXT,
  category_slug TEXT,
  assigned_id TEXT REFERENCES users(id) ON DELETE SET NULL,
  metadata TEXT NOT NULL DEFAULT '{}',
  notified INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);

CREATE TABLE transaction_tags (
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  transaction_id TEXT NOT NULL REFERENCES transactions(id) ON DELETE CASCADE,
  tag_id TEXT NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
  PRIMARY KEY (transaction_id, tag_id)
) WITHOUT ROWID;

CREATE TABLE invoices (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  -- Kept as a plain reference: deleting a customer leaves its invoices (and the name they were issued to).
  customer_id TEXT,
  customer_name TEXT,
  invoice_number TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('draft', 'scheduled', 'unpaid', 'overdue', 'paid', 'canceled', 'refunded')),
  currency TEXT NOT NULL,
  subtotal_minor INTEGER NOT NULL DEFAULT 0,
  vat_minor INTEGER NOT NULL DEFAULT 0,
  tax_minor INTEGER NOT NULL DEFAULT 0,
  discount_minor INTEGER NOT NULL DEFAULT 0,
  amount_minor INTEGER NOT NULL,
  issue_date TEXT NOT NULL,
  due_date TEXT NOT NULL,
  sent_at TEXT,
  paid_at TEXT,
  line_items TEXT NOT NULL DEFAULT '[]',
  template TEXT NOT NULL DEFAULT '{}',
  note TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE UNIQUE INDEX invoices_number ON invoices(team_id, invoice_number);
CREATE INDEX invoices_customer ON invoices(team_id, customer_id, issue_date);

CREATE TABLE tracker_projects (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT,
  estimate_hours REAL,
  billable INTEGER NOT NULL DEFAULT 1,
  rate_minor INTEGER,
  currency TEXT,
  status TEXT NOT NULL DEFAULT 'in_progress' CHECK (status IN ('in_progress', 'completed')),
  customer_id TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX tracker_projects_team ON tracker_projects(team_id, customer_id);

CREATE TABLE tracker_project_tags (
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES tracker_projects(id) ON DELETE CASCADE,
  tag_id TEXT NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
  PRIMARY KEY (project_id, tag_id)
) WITHOUT ROWID;

CREATE TABLE tracker_entries (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES tracker_projects(id) ON DELETE CASCADE,
  assigned_id TEXT REFERENCES users(id) ON DELETE SET NULL,
  date TEXT NOT NULL,
  start TEXT NOT NULL,
  stop TEXT,
  duration_seconds INTEGER NOT NULL DEFAULT 0,
  description TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX tracker_entries_team_date ON tracker_entries(team_id, date);

CREATE TABLE notifications (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
  type TEXT NOT NULL,
  priority INTEGER NOT NULL CHECK (priority BETWEEN 1 AND 10),
  source TEXT NOT NULL CHECK (source IN ('system', 'user')),
  status TEXT NOT NULL CHECK (status IN ('unread', 'read', 'archived')),
  metadata TEXT NOT NULL DEFAULT '{}',
  last_used_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX notifications_team ON notifications(team_id, created_at);
CREATE INDEX transactions_team_date ON transactions(team_id, date, amount_minor);
CREATE INDEX transactions_team_account ON transactions(team_id, bank_account_id, date);
CREATE INDEX transactions_team_seq ON transactions(team_id, seq);
`,
};
