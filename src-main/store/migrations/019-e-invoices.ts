import type { Migration } from './index';

/**
 * E-invoices (issue 25, docs/decisions/0160-e-invoices.md):
 * - `customers.e_invoice_format`: the format this customer receives (null: the team's default, else none);
 *   `customers.buyer_reference`: BT-10, e.g. a German public buyer's Leitweg-ID. Local fields: not synced.
 * - `teams.e_invoice_format`: the team's default format; `teams.peppol_id` (BT-34, the team's electronic address),
 *   `teams.email` and `teams.phone` (BG-6, the seller's contact XRechnung requires).
 */
export const eInvoices: Migration = {
  version: 19,
  name: 'e-invoices',
  sql: `
ALTER TABLE customers ADD COLUMN e_invoice_format TEXT;
ALTER TABLE customers ADD COLUMN buyer_reference TEXT;
ALTER TABLE teams ADD COLUMN e_invoice_format TEXT;
ALTER TABLE teams ADD COLUMN peppol_id TEXT;
ALTER TABLE teams ADD COLUMN email TEXT;
ALTER TABLE teams ADD COLUMN phone TEXT;
`,
};
