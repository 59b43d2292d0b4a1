import type { Migration } from './index';

/**
 * What is issued stays issued, and the invoice speaks its customer's language (issue 36,
 * docs/decisions/0119-issued-invoices-frozen.md, 0120-invoice-vat-and-language.md, 0122-dunning-levels.md):
 * - `invoices.issued_parties`: the seller and the buyer as they stood when the invoice was issued (JSON: the
 *   e-invoice sources' party fields, the payee IBAN with the seller), written by the issue move. The PDF and the
 *   e-invoice of an issued invoice read them, never the team's or the customer's record as it is later. Invoices
 *   issued before this migration take the records as they are now (the best that is known, frozen from here on).
 * - `issued_invoice_files`: the documents of an issued invoice as first produced (the PDF, each e-invoice format, a
 *   credit note), kept in the data dir and served as they are from then on: a correction is a credit note or a new
 *   invoice, never a changed file. Local bookkeeping beside the invoice, not synced.
 * - `customers.invoice_locale`: the language (BCP 47) the customer's invoices are written in, with its date format.
 *   A local extension, not synced (the hosted customer has no such field).
 * - `invoice_settings.dunning`: the team's reminder levels (days after the due date, fee) as JSON.
 * - `invoice_deliveries.subject`, `.message`: what the person wrote in the send dialog (null: the default text);
 *   `.reminder_level`, `.fee_minor`: the level of a reminder and the fee it states (docs/decisions/0122).
 */
export const issuedInvoices: Migration = {
  version: 27,
  name: 'issued-invoices',
  sql: `
ALTER TABLE invoices ADD COLUMN issued_parties TEXT;

CREATE TABLE issued_invoice_files (
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  invoice_id TEXT NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
  -- 'pdf', an e-invoice format ('xrechnung-cii', 'factur-x-en16931', …) or 'credit-note:<format>'.
  kind TEXT NOT NULL,
  path TEXT NOT NULL,
  size INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (invoice_id, kind)
) WITHOUT ROWID;
CREATE INDEX issued_invoice_files_team ON issued_invoice_files(team_id);

ALTER TABLE customers ADD COLUMN invoice_locale TEXT;
ALTER TABLE invoice_settings ADD COLUMN dunning TEXT;
ALTER TABLE invoice_deliveries ADD COLUMN subject TEXT;
ALTER TABLE invoice_deliveries ADD COLUMN message TEXT;
ALTER TABLE invoice_deliveries ADD COLUMN reminder_level INTEGER;
ALTER TABLE invoice_deliveries ADD COLUMN fee_minor INTEGER;

UPDATE invoices SET issued_parties = json_object(
  'seller', (SELECT json_object(
      'name', t.name, 'vatNumber', t.vat_number, 'addressLine1', t.address_line1, 'addressLine2', t.address_line2,
      'city', t.city, 'zip', t.zip, 'state', t.state, 'countryCode', t.country_code, 'peppolId', t.peppol_id,
      'email', t.email, 'phone', t.phone,
      'iban', (SELECT b.iban FROM bank_accounts b WHERE b.team_id = t.id AND b.enabled = 1 AND b.iban IS NOT NULL
                 AND b.iban <> '' ORDER BY b.currency = invoices.currency DESC, b.created_at, b.id LIMIT 1),
      'bic', NULL)
    FROM teams t WHERE t.id = invoices.team_id),
  'buyer', coalesce((SELECT json_object(
      'name', c.name, 'vatNumber', c.vat_number, 'addressLine1', c.address_line1, 'addressLine2', c.address_line2,
      'city', c.city, 'zip', c.zip, 'state', c.state, 'countryCode', c.country_code, 'peppolId', c.peppol_id,
      'email', coalesce(c.billing_email, c.email), 'phone', c.phone, 'buyerReference', c.buyer_reference)
    FROM customers c WHERE c.team_id = invoices.team_id AND c.id = invoices.customer_id),
    json_object('name', coalesce(invoices.customer_name, ''), 'vatNumber', NULL, 'addressLine1', NULL,
      'addressLine2', NULL, 'city', NULL, 'zip', NULL, 'state', NULL, 'countryCode', NULL, 'peppolId', NULL,
      'email', NULL, 'phone', NULL, 'buyerReference', NULL)),
  'issuedAt', coalesce(invoices.sent_at, invoices.updated_at))
WHERE invoices.sent_at IS NOT NULL OR invoices.status IN ('unpaid', 'overdue', 'paid', 'refunded');
`,
};
