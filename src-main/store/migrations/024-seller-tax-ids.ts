import type { Migration } from './index';

/**
 * Issue 37:
 * - What identifies a seller without a VAT id on its e-invoices (docs/decisions/0160-e-invoices.md):
 *   `teams.tax_number` (BT-32, e.g. a German Steuernummer, which a small business under § 19 UStG states instead of
 *   a VAT id) and `teams.legal_registration_id` (BT-30, a commercial register entry or an enterprise number).
 * - `invoices.rich_text`: the hosted invoice editor's blocks as sent (JSON; their plain text is in the template and
 *   the note), docs/decisions/0163. A local field, not synced.
 */
export const sellerTaxIds: Migration = {
  version: 24,
  name: 'seller tax ids, invoice rich text',
  sql: `
ALTER TABLE teams ADD COLUMN tax_number TEXT;
ALTER TABLE teams ADD COLUMN legal_registration_id TEXT;
ALTER TABLE invoices ADD COLUMN rich_text TEXT;
`,
};
