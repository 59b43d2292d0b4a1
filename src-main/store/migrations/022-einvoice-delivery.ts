import type { Migration } from './index';

/**
 * E-invoices handed to a Peppol access point (docs/decisions/0162-peppol-access-point.md):
 * - `einvoice_access_points`: a team's access point — the provider, its API's base URL and the sender (the legal
 *   entity the provider sends on behalf of). The API key lives in the data dir's secret file, never here. Local
 *   settings: not synced.
 * - `einvoice_handoffs`: the durable hand-off queue, one row per e-invoice handed over, written in the send's
 *   transaction. `idempotency_guid` is fixed when the row is written, so a retry after a lost answer is recognised
 *   by the provider; the recipient's routing id is fixed with it. Claimed with lease columns like the email queue.
 */
export const einvoiceDelivery: Migration = {
  version: 22,
  name: 'einvoice-delivery',
  sql: `
CREATE TABLE einvoice_access_points (
  team_id TEXT PRIMARY KEY REFERENCES teams(id) ON DELETE CASCADE,
  provider TEXT NOT NULL CHECK (provider IN ('storecove')),
  base_url TEXT NOT NULL,
  legal_entity_id INTEGER NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE einvoice_handoffs (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  invoice_id TEXT NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
  format TEXT NOT NULL,
  recipient TEXT NOT NULL,
  idempotency_guid TEXT NOT NULL UNIQUE,
  state TEXT NOT NULL CHECK (state IN ('waiting', 'sending', 'handed_over', 'failed', 'canceled')),
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  submission_id TEXT,
  next_attempt_at TEXT NOT NULL,
  lease_owner TEXT,
  lease_expires_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  handed_over_at TEXT
);
CREATE INDEX einvoice_handoffs_due ON einvoice_handoffs(state, next_attempt_at);
CREATE INDEX einvoice_handoffs_invoice ON einvoice_handoffs(team_id, invoice_id, created_at);
`,
};
