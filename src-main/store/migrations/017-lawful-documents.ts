import type { Migration } from './index';

/**
 * What invoices and statements must show (issue 28, docs/decisions/0078, 0057):
 * - `teams`: the team's postal address and VAT number, printed as the seller on invoices and as the account holder on
 *   statements (the country is `country_code`).
 * - `bank_accounts.iban`: the account's IBAN, printed on its statements (local only: the hosted account has none).
 * - `invoices.supply_date`, `supply_end_date`: the date of supply, or the service period from one day to the other
 *   (EU VAT directive Art. 226 (7), §14 (4) 6. UStG); none given, the invoice says the supply date is its issue date.
 */
export const lawfulDocuments: Migration = {
  version: 17,
  name: 'lawful-documents',
  sql: `
ALTER TABLE teams ADD COLUMN address_line1 TEXT;
ALTER TABLE teams ADD COLUMN address_line2 TEXT;
ALTER TABLE teams ADD COLUMN zip TEXT;
ALTER TABLE teams ADD COLUMN city TEXT;
ALTER TABLE teams ADD COLUMN state TEXT;
ALTER TABLE teams ADD COLUMN vat_number TEXT;
ALTER TABLE bank_accounts ADD COLUMN iban TEXT;
ALTER TABLE invoices ADD COLUMN supply_date TEXT;
ALTER TABLE invoices ADD COLUMN supply_end_date TEXT;
`,
};
