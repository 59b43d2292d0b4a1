import type { Migration } from './index';

/**
 * Invoices (docs/decisions/0070…0079): what the `invoices` table of migration 001 lacked for the lifecycle, the
 * numbering, the send queue, the PDFs and payments.
 *
 * - `invoices`: its time zone (due dates are days there; NULL = UTC), scheduled send time, cancel/refund/reminder
 *   times, the tracker project it was drafted from, an internal note. Line items stay JSON in `line_items`
 *   ({name, quantity, unit, priceMinor, vatRate?, taxRate?}); totals stay in the `*_minor` columns.
 * - `invoice_settings`: per team, the number prefix and counter and the defaults of new invoices (template).
 * - `invoice_deliveries`: the durable send queue, one row per email (an invoice or a reminder), unique per team
 *   and idempotency key, claimed with lease columns; `message_id` is fixed at queue time so a retry carries the same
 *   Message-ID.
 * - `invoice_payments`: links of invoices to the ledger's transactions: suggested, applied (the invoice is paid by
 *   it) or dismissed; what was changed on both sides is kept to restore them on unmatch.
 * - `invoice_files`: the rendered PDF of each invoice in the data dir, with the invoice `seq` it was rendered from.
 * - `smtp_settings`: a team's outgoing mail server; its password lives in the data dir's secret file, never here.
 * - `tracker_entries.invoice_id`: the invoice an entry was billed on (NULL = unbilled).
 */
export const invoices: Migration = {
  version: 8,
  name: 'invoices',
  sql: `
ALTER TABLE invoices ADD COLUMN timezone TEXT;
ALTER TABLE invoices ADD COLUMN scheduled_at TEXT;
ALTER TABLE invoices ADD COLUMN canceled_at TEXT;
ALTER TABLE invoices ADD COLUMN refunded_at TEXT;
ALTER TABLE invoices ADD COLUMN reminder_sent_at TEXT;
ALTER TABLE invoices ADD COLUMN tracker_project_id TEXT;
ALTER TABLE invoices ADD COLUMN internal_note TEXT;
CREATE INDEX invoices_team_created ON invoices(team_id, created_at, id);
CREATE INDEX invoices_team_issue ON invoices(team_id, issue_date, id);
CREATE INDEX invoices_team_due ON invoices(team_id, due_date, id);
-- The scheduler's scans across teams: unpaid by due date, scheduled by send time.
CREATE INDEX invoices_status_due ON invoices(status, due_date) WHERE status = 'unpaid';
CREATE INDEX invoices_scheduled ON invoices(scheduled_at) WHERE status = 'scheduled';

CREATE TABLE invoice_settings (
  team_id TEXT PRIMARY KEY REFERENCES teams(id) ON DELETE CASCADE,
  number_prefix TEXT NOT NULL DEFAULT 'INV-',
  number_width INTEGER NOT NULL DEFAULT 4 CHECK (number_width BETWEEN 1 AND 12),
  -- The next number to hand out; NULL until first used (then it starts after the highest number already taken).
  next_number INTEGER,
  template TEXT NOT NULL DEFAULT '{}',
  updated_at TEXT NOT NULL
);

CREATE TABLE invoice_deliveries (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  invoice_id TEXT NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('invoice', 'reminder')),
  idempotency_key TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('queued', 'awaiting_sync', 'sending', 'sent', 'failed', 'canceled')),
  recipient TEXT,
  message_id TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  next_attempt_at TEXT NOT NULL,
  lease_owner TEXT,
  lease_expires_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  sent_at TEXT
);
CREATE UNIQUE INDEX invoice_deliveries_key ON invoice_deliveries(team_id, idempotency_key);
CREATE INDEX invoice_deliveries_ready ON invoice_deliveries(state, next_attempt_at);
CREATE INDEX invoice_deliveries_invoice ON invoice_deliveries(team_id, invoice_id, created_at);

CREATE TABLE invoice_payments (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  invoice_id TEXT NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
  -- The ledger's transaction; NULL for a payment recorded by hand.
  transaction_id TEXT,
  state TEXT NOT NULL CHECK (state IN ('suggested', 'applied', 'dismissed')),
  amount_minor INTEGER NOT NULL,
  currency TEXT NOT NULL,
  paid_on TEXT NOT NULL,
  confidence REAL,
  matched_by TEXT NOT NULL CHECK (matched_by IN ('auto', 'user', 'manual')),
  -- What applying changed, to restore on unmatch: the invoice's status and paid_at, the transaction's fields (JSON).
  restore_invoice TEXT,
  restore_transaction TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE UNIQUE INDEX invoice_payments_pair ON invoice_payments(team_id, invoice_id, transaction_id);
CREATE UNIQUE INDEX invoice_payments_applied_invoice ON invoice_payments(team_id, invoice_id) WHERE state = 'applied';
CREATE UNIQUE INDEX invoice_payments_applied_transaction ON invoice_payments(team_id, transaction_id)
  WHERE state = 'applied' AND transaction_id IS NOT NULL;
CREATE INDEX invoice_payments_team_created ON invoice_payments(team_id, created_at, id);

CREATE TABLE invoice_files (
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  invoice_id TEXT NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('pdf')),
  -- The invoice's seq when this file was rendered: a later change makes it stale.
  invoice_seq INTEGER NOT NULL,
  path TEXT NOT NULL,
  size INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (invoice_id, kind)
) WITHOUT ROWID;
CREATE INDEX invoice_files_team ON invoice_files(team_id);

CREATE TABLE smtp_settings (
  team_id TEXT PRIMARY KEY REFERENCES teams(id) ON DELETE CASCADE,
  host TEXT NOT NULL,
  port INTEGER NOT NULL CHECK (port BETWEEN 1 AND 65535),
  security TEXT NOT NULL CHECK (security IN ('tls', 'starttls', 'none')),
  username TEXT,
  from_address TEXT NOT NULL,
  from_name TEXT,
  updated_at TEXT NOT NULL
);

ALTER TABLE tracker_entries ADD COLUMN invoice_id TEXT REFERENCES invoices(id) ON DELETE SET NULL;
CREATE INDEX tracker_entries_invoice ON tracker_entries(team_id, invoice_id);
`,
};
