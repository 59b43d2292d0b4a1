import type { Migration } from './index';

/**
 * What identifies a seller without a VAT id on its e-invoices (issue 37, docs/decisions/0160-e-invoices.md):
 * `teams.tax_number` (BT-32, e.g. a German Steuernummer, which a small business under § 19 UStG states instead of a
 * VAT id) and `teams.legal_registration_id` (BT-30, a commercial register entry or an enterprise number).
 */
export const sellerTaxIds: Migration = {
  version: 28,
  name: 'seller tax ids',
  sql: `
ALTER TABLE teams ADD COLUMN tax_number TEXT;
ALTER TABLE teams ADD COLUMN legal_registration_id TEXT;
`,
};
