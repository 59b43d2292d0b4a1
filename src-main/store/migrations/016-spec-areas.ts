import type { Migration } from './index';

/**
 * Areas the spec names that were not built (issue 28):
 * - `tracker_categories`: activity types of time entries (name, colour, default hourly rate in their currency,
 *   billable); `tracker_entries.category_id` the entry's (docs/decisions/0146-tracker-categories.md).
 * - `invoice_payments` rebuilt for partial payments and refunds (docs/decisions/0147-partial-payments.md): several
 *   applied payments per invoice (the one-applied-payment index goes), `kind` payment or refund, and the state
 *   `bounced` (money that came back: the payment no longer counts, kept as history); `failure_reason` says why.
 *   A transaction still pays at most one invoice.
 * - `workflow_settings`: a team's workflow settings kept with its data (the HTTP allow-list), so a run advances the
 *   same in the server and in the CLI (docs/decisions/0149-workflow-settings-and-emitted-triggers.md).
 * - `notification_reads`: each member's own status of a team-wide notification; the notification's own status is
 *   what a member who never touched it sees (and what syncs) (docs/decisions/0148-notification-read-state.md).
 */
export const specAreas: Migration = {
  version: 16,
  name: 'spec-areas',
  sql: `
CREATE TABLE tracker_categories (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  color TEXT NOT NULL,
  rate_minor INTEGER,
  currency TEXT NOT NULL,
  billable INTEGER NOT NULL DEFAULT 1 CHECK (billable IN (0, 1)),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE UNIQUE INDEX tracker_categories_name ON tracker_categories(team_id, name COLLATE NOCASE);
ALTER TABLE tracker_entries ADD COLUMN category_id TEXT REFERENCES tracker_categories(id);
CREATE INDEX tracker_entries_category ON tracker_entries(team_id, category_id) WHERE category_id IS NOT NULL;

CREATE TABLE invoice_payments_new (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  invoice_id TEXT NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
  transaction_id TEXT,
  kind TEXT NOT NULL DEFAULT 'payment' CHECK (kind IN ('payment', 'refund')),
  state TEXT NOT NULL CHECK (state IN ('suggested', 'applied', 'dismissed', 'bounced')),
  amount_minor INTEGER NOT NULL CHECK (amount_minor >= 0),
  currency TEXT NOT NULL,
  paid_on TEXT NOT NULL,
  confidence REAL,
  matched_by TEXT NOT NULL CHECK (matched_by IN ('auto', 'user', 'manual')),
  restore_invoice TEXT,
  restore_transaction TEXT,
  failure_reason TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
INSERT INTO invoice_payments_new (id, team_id, invoice_id, transaction_id, state, amount_minor, currency, paid_on,
  confidence, matched_by, restore_invoice, restore_transaction, created_at, updated_at, seq)
SELECT id, team_id, invoice_id, transaction_id, state, abs(amount_minor), currency, paid_on, confidence, matched_by,
  restore_invoice, restore_transaction, created_at, updated_at, seq FROM invoice_payments;
DROP TABLE invoice_payments;
ALTER TABLE invoice_payments_new RENAME TO invoice_payments;
CREATE UNIQUE INDEX invoice_payments_pair ON invoice_payments(team_id, invoice_id, transaction_id);
CREATE UNIQUE INDEX invoice_payments_applied_transaction ON invoice_payments(team_id, transaction_id)
  WHERE state = 'applied' AND transaction_id IS NOT NULL;
CREATE INDEX invoice_payments_team_created ON invoice_payments(team_id, created_at, id);
CREATE INDEX invoice_payments_invoice ON invoice_payments(team_id, invoice_id, state);

CREATE TABLE workflow_settings (
  team_id TEXT PRIMARY KEY REFERENCES teams(id) ON DELETE CASCADE,
  http_hosts TEXT NOT NULL DEFAULT '[]',
  updated_at TEXT NOT NULL
);

CREATE TABLE notification_reads (
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  notification_id TEXT NOT NULL REFERENCES notifications(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  status TEXT NOT NULL CHECK (status IN ('unread', 'read', 'archived')),
  last_used_at TEXT NOT NULL,
  PRIMARY KEY (notification_id, user_id)
);
CREATE INDEX notification_reads_user ON notification_reads(team_id, user_id);
`,
};
