import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { renderInvoicePdf } from '../pdf/invoice-pdf';
import type { Db } from '../store/db';
import { NotFound } from '../store/errors';
import { invoiceParties, pdfFile, recordPdfFile } from '../store/invoices/files';
import { frozenParties } from '../store/invoices/parties';
import { getInvoice, getInvoiceRow } from '../store/invoices/read';
import { keptDocument, removeKeptDocuments } from './issued-files';

/**
 * Every invoice's PDF. An issued invoice's is kept as first produced (./issued-files.ts, docs/decisions/0119); one
 * not issued yet is stored in the data dir (`invoices/<team id>/<invoice id>.pdf`) and re-rendered when the
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
  const render = () => {
    const invoice = getInvoice(db, teamId, invoiceId);
    return renderInvoicePdf({ invoice, ...invoiceParties(db, teamId, invoice), issuedAt: frozenParties(row)?.issuedAt ?? null });
  };
  // Issued: the PDF as first produced from what the invoice said that day, never rendered anew (0119).
  if (row.issued_parties) return { bytes: await keptDocument(db, dataDir, teamId, invoiceId, 'pdf', 'pdf', render), fileName };
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
  const bytes = await render();
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

/** Removes a deleted invoice's PDF (and the documents kept of it, if it was issued and canceled) from the data dir. */
export function removeInvoicePdf(dataDir: string | undefined, teamId: string, invoiceId: string): void {
  if (!dataDir) return;
  fs.rmSync(path.join(dataDir, storedPath(teamId, invoiceId)), { force: true });
  removeKeptDocuments(dataDir, teamId, invoiceId);
}
