import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../store/db';
import { issuedFile, recordIssuedFile } from '../store/invoices/files';

/**
 * The documents of an issued invoice, kept as first produced (docs/decisions/0119-issued-invoices-frozen.md): the
 * PDF, each e-invoice format asked for, a credit note. The first request after the issue (the e-mail sender, a
 * download, the send route itself) produces it from the parties frozen at issue and stores it in the data dir
 * (`invoices/<team>/issued/<invoice>.<kind>`, a temporary file renamed); every later one gets those bytes, whatever
 * changed since. Without a data dir (an in-memory database) nothing is kept and each request produces it again.
 */

function keptPath(teamId: string, invoiceId: string, kind: string, extension: string): string {
  return path.join('invoices', teamId, 'issued', `${invoiceId}.${kind.replace(/[^A-Za-z0-9._-]+/g, '_')}.${extension}`);
}

export async function keptDocument(
  db: Db,
  dataDir: string | undefined,
  teamId: string,
  invoiceId: string,
  kind: string,
  extension: 'pdf' | 'xml',
  produce: () => Promise<Buffer>,
): Promise<Buffer> {
  if (!dataDir) return produce();
  const stored = issuedFile(db, teamId, invoiceId, kind);
  if (stored) {
    try {
      return fs.readFileSync(path.join(dataDir, stored.path));
    } catch {
      // Removed from the disk by hand: the record stays the truth of what was issued; produced again from the frozen
      // parties it says the same, and is kept under the same name.
    }
  }
  const bytes = await produce();
  const rel = stored?.path ?? keptPath(teamId, invoiceId, kind, extension);
  const abs = path.join(dataDir, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  if (stored) {
    writeAtomically(abs, bytes);
    return bytes;
  }
  // Written under a name of its own first: two producers at once each write theirs, one row wins and is served.
  const own = `${rel}.${crypto.randomBytes(4).toString('hex')}`;
  writeAtomically(path.join(dataDir, own), bytes);
  const kept = recordIssuedFile(db, teamId, invoiceId, {
    kind,
    path: own,
    size: bytes.length,
    sha256: crypto.createHash('sha256').update(bytes).digest('hex'),
  });
  if (kept && kept.path !== own) {
    fs.rmSync(path.join(dataDir, own), { force: true });
    return fs.readFileSync(path.join(dataDir, kept.path));
  }
  return bytes;
}

function writeAtomically(abs: string, bytes: Buffer): void {
  const tmp = `${abs}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, bytes);
  fs.renameSync(tmp, abs);
}

/** Removes the kept documents of a deleted invoice (a canceled one) from the data dir. */
export function removeKeptDocuments(dataDir: string | undefined, teamId: string, invoiceId: string): void {
  if (!dataDir) return;
  const dir = path.join(dataDir, 'invoices', teamId, 'issued');
  let names: string[] = [];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) if (name.startsWith(`${invoiceId}.`)) fs.rmSync(path.join(dir, name), { force: true });
}
