import type { Migration } from './index';

/**
 * Invoices in sync (docs/decisions/0143-invoice-sync.md):
 * - `invoices.invoice_number` may wait empty (`''`): a team that syncs with a remote leaves numbering to the remote,
 *   which numbers an invoice when it is first pushed; the local copy takes that number. The column keeps its NOT NULL
 *   (rebuilding `invoices` would cascade into its deliveries and payments), so the unique index of numbers leaves the
 *   empty ones out and the store reads `''` as "no number yet".
 * - `invoice_deliveries`: an email waiting for sync is relayed through the remote's send route. `relay_key` is the
 *   Idempotency-Key fixed when the relay is frozen (every retry sends it again, so the remote queues one email);
 *   `relayed_at` says the remote took it (the local SMTP sender never claims such a row); `remote_delivery_id` is the
 *   remote's own delivery, whose state is shown back here.
 */
export const invoiceSync: Migration = {
  version: 20,
  name: 'invoice-sync',
  sql: `
DROP INDEX invoices_number;
CREATE UNIQUE INDEX invoices_number ON invoices(team_id, invoice_number) WHERE invoice_number <> '';
ALTER TABLE invoice_deliveries ADD COLUMN relay_key TEXT;
ALTER TABLE invoice_deliveries ADD COLUMN relayed_at TEXT;
ALTER TABLE invoice_deliveries ADD COLUMN remote_delivery_id TEXT;
CREATE INDEX invoice_deliveries_relay ON invoice_deliveries(team_id, state) WHERE state IN ('awaiting_sync', 'sending');
`,
};
