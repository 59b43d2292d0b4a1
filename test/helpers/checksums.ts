import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/**
 * Per-table checksums of a database file (every row of every ordinary table, in rowid or key order, hashed) and
 * the check that every stored file a database names is in a data dir with the bytes its name promises: what a
 * backup round trip and the crash harness compare.
 */
export function tableChecksums(file: string, { skip = [] as readonly string[] } = {}): Record<string, string> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare(
        "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name",
      )
      .all() as { name: string; sql: string }[];
    const out: Record<string, string> = {};
    for (const t of tables) {
      if (skip.includes(t.name)) continue;
      const withoutRowid = /WITHOUT ROWID/i.test(t.sql);
      const rows = db
        .prepare(`SELECT * FROM "${t.name}" ${withoutRowid ? 'ORDER BY 1, 2' : 'ORDER BY rowid'}`)
        .raw()
        .all();
      const hash = crypto.createHash('sha256');
      for (const r of rows) hash.update(JSON.stringify(r, (_k, v) => (Buffer.isBuffer(v) ? v.toString('base64') : v)));
      out[t.name] = `${rows.length}:${hash.digest('hex').slice(0, 16)}`;
    }
    return out;
  } finally {
    db.close();
  }
}

/** The stored files a database names whose blob in `dataDir` is missing or holds other bytes. */
export function missingBlobs(dbFile: string, dataDir: string): string[] {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    const shas = db.prepare('SELECT sha256 FROM stored_files').pluck().all() as string[];
    return shas.filter((sha) => {
      const file = path.join(dataDir, 'files', sha.slice(0, 2), sha);
      return !fs.existsSync(file) || crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex') !== sha;
    });
  } finally {
    db.close();
  }
}

/** A small valid PDF whose bytes differ by `n` (a distinct stored blob per upload). */
export function tinyPdf(n: number): Buffer {
  return Buffer.from(
    `%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n` +
      `trailer << /Root 1 0 R >>\n%%EOF\n% receipt ${n}\n`,
  );
}
