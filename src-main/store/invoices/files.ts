import type { Db } from '../db';

/**
 * What an invoice PDF needs besides the invoice (the parties: name, address, VAT number), and the record of rendered
 * PDF files in the data dir (`invoice_files`: path relative to the data dir, the invoice seq it was rendered from).
 */

export interface PdfParty {
  name: string;
  /** The address block as the template's text gives it (name on the first line, taken out); null: `address`. */
  detailLines: string[] | null;
  address: {
    addressLine1: string | null;
    addressLine2: string | null;
    zip: string | null;
    city: string | null;
    state: string | null;
    countryCode: string | null;
  };
  vatNumber: string | null;
  email: string | null;
}

interface PartyRow {
  name: string;
  email: string | null;
  address_line1: string | null;
  address_line2: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  country_code: string | null;
  vat_number: string | null;
}

const NO_ADDRESS: PdfParty['address'] = {
  addressLine1: null,
  addressLine2: null,
  zip: null,
  city: null,
  state: null,
  countryCode: null,
};

function fromRow(r: PartyRow): PdfParty {
  return {
    name: r.name,
    detailLines: null,
    address: {
      addressLine1: r.address_line1,
      addressLine2: r.address_line2,
      zip: r.zip,
      city: r.city,
      state: r.state,
      countryCode: r.country_code,
    },
    vatNumber: r.vat_number,
    email: r.email,
  };
}

/** A block of text as printed: its first line the name, the rest as they are; the record's VAT number is kept. */
function fromText(text: string, vatNumber: string | null): PdfParty {
  const [name = '', ...lines] = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  return { name, detailLines: lines, address: NO_ADDRESS, vatNumber, email: null };
}

/**
 * The team (template.fromDetails, else the team's name and address) and the customer (template.customerDetails,
 * else the customer record, else the name on the invoice). The VAT numbers are the team's and the customer's
 * records', printed labelled in the invoice's language (Art. 226 (3) and (4) EU VAT directive).
 */
export function invoiceParties(
  db: Db,
  teamId: string,
  invoice: {
    customerId: string | null;
    customerName: string | null;
    template: { fromDetails: string | null; customerDetails: string | null };
  },
): { from: PdfParty; to: PdfParty } {
  const team = db
    .prepare(
      `SELECT name, NULL AS email, address_line1, address_line2, city, state, zip, country_code, vat_number
       FROM teams WHERE id = ?`,
    )
    .get(teamId) as PartyRow | undefined;
  const teamParty = team ? fromRow(team) : fromText('', null);
  const from = invoice.template.fromDetails ? fromText(invoice.template.fromDetails, teamParty.vatNumber) : teamParty;
  const c = invoice.customerId
    ? (db
        .prepare(
          `SELECT name, coalesce(billing_email, email) AS email, address_line1, address_line2, city, state, zip,
             coalesce(country_code, country) AS country_code, vat_number
           FROM customers WHERE team_id = ? AND id = ?`,
        )
        .get(teamId, invoice.customerId) as PartyRow | undefined)
    : undefined;
  let to: PdfParty;
  if (invoice.template.customerDetails) to = fromText(invoice.template.customerDetails, c?.vat_number ?? null);
  else if (c) to = { ...fromRow(c), name: invoice.customerName ?? c.name };
  else to = fromText(invoice.customerName ?? '', null);
  return { from, to };
}

export interface PdfFileRow {
  invoice_seq: number;
  path: string;
  size: number;
  sha256: string;
  created_at: string;
}

export function pdfFile(db: Db, teamId: string, invoiceId: string): PdfFileRow | undefined {
  return db
    .prepare(
      `SELECT invoice_seq, path, size, sha256, created_at FROM invoice_files WHERE team_id = ? AND invoice_id = ? AND kind = 'pdf'`,
    )
    .get(teamId, invoiceId) as PdfFileRow | undefined;
}

export function recordPdfFile(
  db: Db,
  teamId: string,
  invoiceId: string,
  file: { invoiceSeq: number; path: string; size: number; sha256: string },
): void {
  // Only if the invoice still exists (a delete may have raced the render).
  db.prepare(
    `INSERT INTO invoice_files (team_id, invoice_id, kind, invoice_seq, path, size, sha256, created_at)
     SELECT @team, @invoice, 'pdf', @seq, @path, @size, @sha, @now WHERE EXISTS (SELECT 1 FROM invoices WHERE team_id = @team AND id = @invoice)
     ON CONFLICT (invoice_id, kind) DO UPDATE SET invoice_seq = excluded.invoice_seq, path = excluded.path,
       size = excluded.size, sha256 = excluded.sha256, created_at = excluded.created_at`,
  ).run({
    team: teamId,
    invoice: invoiceId,
    seq: file.invoiceSeq,
    path: file.path,
    size: file.size,
    sha: file.sha256,
    now: new Date().toISOString(),
  });
}
