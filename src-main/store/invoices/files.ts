import type { Db } from '../db';

/**
 * What an invoice PDF needs besides the invoice (the parties' address blocks), and the record of rendered PDF
 * files in the data dir (`invoice_files`: path relative to the data dir, the invoice seq it was rendered from).
 */

export interface PdfParty {
  name: string;
  lines: string[];
}

interface CustomerAddress {
  name: string;
  email: string | null;
  billing_email: string | null;
  address_line1: string | null;
  address_line2: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  country: string | null;
  vat_number: string | null;
}

function fromText(text: string): PdfParty {
  const [name = '', ...lines] = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  return { name, lines };
}

/** The team's block (template.fromDetails, else the team's name) and the customer's (template.customerDetails, else the customer record, else the name on the invoice). */
export function invoiceParties(
  db: Db,
  teamId: string,
  invoice: {
    customerId: string | null;
    customerName: string | null;
    template: { fromDetails: string | null; customerDetails: string | null };
  },
): { from: PdfParty; to: PdfParty } {
  const team = db.prepare('SELECT name, country_code FROM teams WHERE id = ?').get(teamId) as
    | { name: string; country_code: string | null }
    | undefined;
  const from = invoice.template.fromDetails ? fromText(invoice.template.fromDetails) : { name: team?.name ?? '', lines: [] };
  let to: PdfParty;
  if (invoice.template.customerDetails) to = fromText(invoice.template.customerDetails);
  else {
    const c = invoice.customerId
      ? (db
          .prepare(
            `SELECT name, email, billing_email, address_line1, address_line2, city, state, zip, country, vat_number
             FROM customers WHERE team_id = ? AND id = ?`,
          )
          .get(teamId, invoice.customerId) as CustomerAddress | undefined)
      : undefined;
    if (c) {
      const cityLine = [c.zip, c.city, c.state].filter(Boolean).join(' ');
      to = {
        name: invoice.customerName ?? c.name,
        lines: [
          c.address_line1,
          c.address_line2,
          cityLine || null,
          c.country,
          c.vat_number ? `VAT ${c.vat_number}` : null,
          c.billing_email ?? c.email,
        ].filter((x): x is string => Boolean(x)),
      };
    } else to = { name: invoice.customerName ?? '', lines: [] };
  }
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
