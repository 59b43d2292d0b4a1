import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { renderInvoicePdf } from '../pdf/invoice-pdf';
import type { Db } from '../store/db';
import { NotFound } from '../store/errors';
import { invoiceParties, pdfFile, recordPdfFile } from '../store/invoices/files';
import { getInvoice, getInvoiceRow } from '../store/invoices/read';

/**
 * Every invoice's PDF, stored in the data dir (`invoices/<team id>/<invoice id>.pdf`) and re-rendered when the
 * invoice has changed since (its seq). Written to a temporary file and renamed, so a reader never sees half a file.
 * Without a data dir (an in-memory database) the PDF is rendered and not stored.
 */

export interface InvoicePdf {
  bytes: Buffer;
  fileName: string;
  /** Absolute path in the data dir; undefined when not stored. */
  path?: string;
}

/** Where an invoice's PDF is kept, relative to the data dir. */
function storedPath(teamId: string, invoiceId: string): string {
  return path.join('invoices', teamId, `${invoiceId}.pdf`);
}

export function pdfFileName(invoiceNumber: string): string {
  return `${invoiceNumber.replace(/[^A-Za-z0-9._-]+/g, '_') || 'invoice'}.pdf`;
}

export async function invoicePdf(db: Db, dataDir: string | undefined, teamId: string, invoiceId: string): Promise<InvoicePdf> {
  const row = getInvoiceRow(db, teamId, invoiceId);
  if (!row) throw new NotFound('invoice', invoiceId);
  const fileName = pdfFileName(row.invoice_number);
  if (dataDir) {
    const stored = pdfFile(db, teamId, invoiceId);
    if (stored && stored.invoice_seq === row.seq) {
      try {
        return { bytes: fs.readFileSync(path.join(dataDir, stored.path)), fileName, path: path.join(dataDir, stored.path) };
      } catch {
        // Removed from the disk by hand: render again.
      }
    }
  }
  const invoice = getInvoice(db, teamId, invoiceId);
  const bytes = await renderInvoicePdf({ invoice, ...invoiceParties(db, teamId, invoice) });
  if (!dataDir) return { bytes, fileName };
  const rel = storedPath(teamId, invoiceId);
  const abs = path.join(dataDir, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true, mode: 0o700 });
  const tmp = `${abs}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, bytes, { mode: 0o600 });
  fs.renameSync(tmp, abs);
  recordPdfFile(db, teamId, invoiceId, {
    invoiceSeq: row.seq,
    path: rel,
    size: bytes.length,
    sha256: crypto.createHash('sha256').update(bytes).digest('hex'),
  });
  return { bytes, fileName, path: abs };
}

/** Removes a deleted invoice's PDF from the data dir. */
export function removeInvoicePdf(dataDir: string | undefined, teamId: string, invoiceId: string): void {
  if (!dataDir) return;
  fs.rmSync(path.join(dataDir, storedPath(teamId, invoiceId)), { force: true });
}
