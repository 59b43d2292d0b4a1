import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Secrets kept out of the database, one JSON file per area in the data dir: `<data dir>/secrets/<name>.json`
 * (an object keyed by team), the folder 0700 and the file 0600, written atomically (temporary file, then rename).
 * SMTP passwords (invoices/smtp-secrets.ts) and the inbox's IMAP password and callback secret live here.
 */

function file(dataDir: string, name: string): string {
  return path.join(dataDir, 'secrets', `${name}.json`);
}

export function readSecretFile<T>(dataDir: string, name: string): Record<string, T> {
  try {
    const v = JSON.parse(fs.readFileSync(file(dataDir, name), 'utf8')) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, T>) : {};
  } catch {
    return {};
  }
}

/** Stores (or, with null, removes) one entry. */
export function writeSecretEntry<T>(dataDir: string, name: string, key: string, value: T | null): void {
  const all = readSecretFile<T>(dataDir, name);
  if (value === null) delete all[key];
  else all[key] = value;
  const target = file(dataDir, name);
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  fs.chmodSync(path.dirname(target), 0o700);
  const tmp = `${target}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, target);
}
