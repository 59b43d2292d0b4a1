import type { PartySource } from '../../../src-shared/domain/einvoice/from-invoice';
import type { Db } from '../db';
import { invoicePartiesOf } from './parties';
import { requireInvoiceRow } from './read';

/**
 * What an invoice PDF needs besides the invoice (the parties: name, address, VAT number; the IBAN it is paid to),
 * and the record of rendered PDF files in the data dir: `invoice_files` for invoices not issued (path relative to
 * the data dir, the invoice seq it was rendered from), `issued_invoice_files` for the documents of issued ones.
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

const NO_ADDRESS: PdfParty['address'] = {
  addressLine1: null,
  addressLine2: null,
  zip: null,
  city: null,
  state: null,
  countryCode: null,
};

function fromSource(p: PartySource): PdfParty {
  return {
    name: p.name,
    detailLines: null,
    address: {
      addressLine1: p.addressLine1,
      addressLine2: p.addressLine2,
      zip: p.zip,
      city: p.city,
      state: p.state,
      countryCode: p.countryCode,
    },
    vatNumber: p.vatNumber,
    email: p.email,
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
 * The team (template.fromDetails, else the seller's name and address) and the customer (template.customerDetails,
 * else the buyer's). The parties are the invoice's (./parties.ts): frozen at issue, else as the records stand. The
 * VAT numbers are the parties', printed labelled in the invoice's language (Art. 226 (3) and (4) EU VAT directive).
 * The seller's IBAN goes with it, for the payment block.
 */
export function invoiceParties(
  db: Db,
  teamId: string,
  invoice: { id: string; template: { fromDetails: string | null; customerDetails: string | null } },
): { from: PdfParty; to: PdfParty; iban: string | null } {
  const { seller, buyer } = invoicePartiesOf(db, teamId, requireInvoiceRow(db, teamId, invoice.id));
  const from = invoice.template.fromDetails ? fromText(invoice.template.fromDetails, seller.vatNumber) : fromSource(seller);
  const to = invoice.template.customerDetails ? fromText(invoice.template.customerDetails, buyer.vatNumber) : fromSource(buyer);
  return { from, to, iban: seller.iban };
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

export interface IssuedFileRow {
  kind: string;
  path: string;
  size: number;
  sha256: string;
  created_at: string;
}

/** A document of an issued invoice as first produced ('pdf', an e-invoice format, 'credit-note:<format>'). */
export function issuedFile(db: Db, teamId: string, invoiceId: string, kind: string): IssuedFileRow | undefined {
  return db
    .prepare(
      'SELECT kind, path, size, sha256, created_at FROM issued_invoice_files WHERE team_id = ? AND invoice_id = ? AND kind = ?',
    )
    .get(teamId, invoiceId, kind) as IssuedFileRow | undefined;
}

export function issuedFiles(db: Db, teamId: string, invoiceId: string): IssuedFileRow[] {
  return db
    .prepare(
      'SELECT kind, path, size, sha256, created_at FROM issued_invoice_files WHERE team_id = ? AND invoice_id = ? ORDER BY kind',
    )
    .all(teamId, invoiceId) as IssuedFileRow[];
}

/**
 * Keeps the first copy of an issued invoice's document: a second producer (the e-mail sender and a download at the
 * same moment) finds the first one's row and keeps it. Returns the row that is kept.
 */
export function recordIssuedFile(
  db: Db,
  teamId: string,
  invoiceId: string,
  file: { kind: string; path: string; size: number; sha256: string },
): IssuedFileRow | undefined {
  db.prepare(
    `INSERT INTO issued_invoice_files (team_id, invoice_id, kind, path, size, sha256, created_at)
     SELECT @team, @invoice, @kind, @path, @size, @sha, @now
     WHERE EXISTS (SELECT 1 FROM invoices WHERE team_id = @team AND id = @invoice)
     ON CONFLICT (invoice_id, kind) DO NOTHING`,
  ).run({
    team: teamId,
    invoice: invoiceId,
    kind: file.kind,
    path: file.path,
    size: file.size,
    sha: file.sha256,
    now: new Date().toISOString(),
  });
  return issuedFile(db, teamId, invoiceId, file.kind);
}
