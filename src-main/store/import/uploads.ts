import type { Db } from '../db';
import { NotFound } from '../errors';
import { newId } from '../ids';

/**
 * Files uploaded over the API between the preview and the commit: kept a day, so a person can adjust the mapping
 * and commit without sending the file again. Scratch storage of the team, not a record (no change feed).
 */
export const UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

export interface StoredUpload {
  id: string;
  /** Null for a file of several accounts' statements: each finds its own account. */
  bankAccountId: string | null;
  fileName: string | null;
  sha256: string;
  size: number;
  content: Buffer;
  createdAt: string;
}

export function storeUpload(
  db: Db,
  teamId: string,
  u: { bankAccountId: string | null; fileName: string | null; sha256: string; content: Buffer },
  now = new Date(),
): string {
  const id = newId();
  db.transaction(() => {
    db.prepare('DELETE FROM import_uploads WHERE expires_at < ?').run(now.toISOString());
    db.prepare(
      `INSERT INTO import_uploads (id, team_id, bank_account_id, file_name, sha256, size, content, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      teamId,
      u.bankAccountId,
      u.fileName,
      u.sha256,
      u.content.length,
      u.content,
      now.toISOString(),
      new Date(now.getTime() + UPLOAD_TTL_MS).toISOString(),
    );
  })();
  return id;
}

export function getUpload(db: Db, teamId: string, id: string, now = new Date()): StoredUpload {
  const r = db
    .prepare('SELECT * FROM import_uploads WHERE team_id = ? AND id = ? AND expires_at >= ?')
    .get(teamId, id, now.toISOString()) as
    | {
        id: string;
        bank_account_id: string | null;
        file_name: string | null;
        sha256: string;
        size: number;
        content: Buffer;
        created_at: string;
      }
    | undefined;
  if (!r) throw new NotFound('import upload', id);
  return {
    id: r.id,
    bankAccountId: r.bank_account_id,
    fileName: r.file_name,
    sha256: r.sha256,
    size: r.size,
    content: r.content,
    createdAt: r.created_at,
  };
}

export function deleteUpload(db: Db, teamId: string, id: string): void {
  db.prepare('DELETE FROM import_uploads WHERE team_id = ? AND id = ?').run(teamId, id);
}
