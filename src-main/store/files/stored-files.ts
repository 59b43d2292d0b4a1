import crypto from 'node:crypto';
import type { Db } from '../db';
import { NotFound } from '../errors';
import { claimCondition } from '../leases';

/**
 * The SQL side of the content-addressed file store (docs/decisions/0082-document-storage.md): one `stored_files`
 * row per distinct content, the references that hold it (documents and inbox items in `stored_file_refs`, the
 * ledger's `transaction_attachments` by sha256), the extraction queue on the same row, and download links.
 * The blob on disk is created and removed by the caller's BlobStore inside the same transaction.
 */

/** File operations done inside the database transaction (src-main/infra/blob-store.ts implements them). */
export interface BlobStore {
  ensure(sha: string, bytes: Uint8Array): void;
  /** Moves the blob aside; returns where to (undefined when it was not there). */
  trash(sha: string): string | undefined;
  restore(sha: string, trashed: string): void;
  empty(trashed: readonly string[]): void;
}

export interface StoredFile {
  sha256: string;
  size: number;
  mimetype: string;
  extraction_status: 'pending' | 'processing' | 'completed' | 'failed';
  extraction_attempts: number;
  extraction_error: string | null;
  extraction_method: string | null;
  extracted_text: string | null;
  extracted_fields: string | null;
  extracted_at: string | null;
}

export function storedFile(db: Db, sha: string): StoredFile | undefined {
  return db.prepare('SELECT * FROM stored_files WHERE sha256 = ?').get(sha) as StoredFile | undefined;
}

/** Inside a write: the row for this content (created if new) and its blob on disk. */
export function putStoredFile(
  db: Db,
  file: { sha256: string; size: number; mimetype: string },
  bytes: Uint8Array,
  blobs: BlobStore,
  now: string,
): StoredFile {
  db.prepare('INSERT OR IGNORE INTO stored_files (sha256, size, mimetype, created_at) VALUES (?, ?, ?, ?)').run(
    file.sha256,
    file.size,
    file.mimetype,
    now,
  );
  blobs.ensure(file.sha256, bytes);
  return storedFile(db, file.sha256)!;
}

export function addFileRef(db: Db, teamId: string, sha: string, ownerEntity: string, ownerId: string, now: string): void {
  db.prepare(
    'INSERT OR IGNORE INTO stored_file_refs (sha256, team_id, owner_entity, owner_id, created_at) VALUES (?, ?, ?, ?, ?)',
  ).run(sha, teamId, ownerEntity, ownerId, now);
}

/** Every holder of the content: documents, inbox items, and the ledger's transaction attachments. */
export function referenceCount(db: Db, sha: string): number {
  return db
    .prepare(
      `SELECT (SELECT count(*) FROM stored_file_refs WHERE sha256 = @sha)
            + (SELECT count(*) FROM transaction_attachments WHERE sha256 = @sha)`,
    )
    .pluck()
    .get({ sha }) as number;
}

/**
 * Inside a write: drops a record's reference; when nothing holds the content any more, its row goes and its blob
 * is moved to the trash (`trashed` collects it for after the commit).
 */
export function dropFileRef(
  db: Db,
  sha: string,
  ownerEntity: string,
  ownerId: string,
  blobs: BlobStore,
  trashed: { sha: string; path: string }[],
): void {
  db.prepare('DELETE FROM stored_file_refs WHERE owner_entity = ? AND owner_id = ? AND sha256 = ?').run(
    ownerEntity,
    ownerId,
    sha,
  );
  releaseIfUnreferenced(db, sha, blobs, trashed);
}

/** For holders outside this module (a detached transaction attachment): removes the content if nothing holds it. */
export function releaseIfUnreferenced(db: Db, sha: string, blobs: BlobStore, trashed: { sha: string; path: string }[]): boolean {
  if (referenceCount(db, sha) > 0) return false;
  db.prepare('DELETE FROM stored_files WHERE sha256 = ?').run(sha);
  const path = blobs.trash(sha);
  if (path) trashed.push({ sha, path });
  return true;
}

/**
 * Runs `fn` (which commits a write that may trash blobs) and then empties the trash; if `fn` throws, the trashed
 * blobs are put back, since their rows were rolled back with it.
 */
export function withBlobCleanup<T>(blobs: BlobStore, fn: (trashed: { sha: string; path: string }[]) => T): T {
  const trashed: { sha: string; path: string }[] = [];
  let result: T;
  try {
    result = fn(trashed);
  } catch (err) {
    for (const t of trashed) blobs.restore(t.sha, t.path);
    throw err;
  }
  blobs.empty(trashed.map((t) => t.path));
  return result;
}

/** Stored files nothing references (a team deleted, a transaction's attachments cascaded away). */
export function unreferencedFiles(db: Db, limit = 100): string[] {
  return db
    .prepare(
      `SELECT sha256 FROM stored_files f
       WHERE NOT EXISTS (SELECT 1 FROM stored_file_refs r WHERE r.sha256 = f.sha256)
         AND NOT EXISTS (SELECT 1 FROM transaction_attachments a WHERE a.sha256 = f.sha256)
         AND NOT EXISTS (SELECT 1 FROM documents d WHERE d.sha256 = f.sha256)
         AND NOT EXISTS (SELECT 1 FROM inbox_items i WHERE i.sha256 = f.sha256)
       LIMIT ?`,
    )
    .pluck()
    .all(limit) as string[];
}

export function isStoredFile(db: Db, sha: string): boolean {
  return db.prepare('SELECT 1 FROM stored_files WHERE sha256 = ?').get(sha) !== undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// The extraction queue: one job per content, claimed with a lease so two processes never extract the same file.

export const MAX_EXTRACTION_ATTEMPTS = 3;

/** What a file that ended its reader's process every time it was claimed is failed with. */
export const ABANDONED_EXTRACTION = `the extraction never finished in ${MAX_EXTRACTION_ATTEMPTS} attempts (the process reading the file ended each time): not tried again`;

/**
 * Files whose claim expired with no attempt left: each attempt ended the process that held it (a crash, a kill), so
 * another would too. They are failed for good instead of claimed again, so one file cannot put the server into a
 * crash loop. Returns their hashes (their documents and inbox items take the failure).
 */
export function failAbandonedExtractions(db: Db, now = new Date()): string[] {
  return db
    .prepare(
      `UPDATE stored_files SET extraction_status = 'failed', extraction_error = @error, lease_owner = NULL, lease_expires_at = NULL
       WHERE extraction_status = 'processing' AND lease_expires_at <= @now AND extraction_attempts >= @max
       RETURNING sha256`,
    )
    .pluck()
    .all({ error: ABANDONED_EXTRACTION, now: now.toISOString(), max: MAX_EXTRACTION_ATTEMPTS }) as string[];
}

/**
 * Claims the oldest file waiting for extraction (or whose claim expired: its holder died) that has an attempt left.
 * The claim counts as an attempt. Returns undefined when there is nothing to do.
 */
export function claimExtraction(db: Db, owner: string, leaseMs: number, now = new Date()): StoredFile | undefined {
  return db
    .transaction(() => {
      const params = {
        owner,
        now: now.toISOString(),
        until: new Date(now.getTime() + leaseMs).toISOString(),
        max: MAX_EXTRACTION_ATTEMPTS,
      };
      return db
        .prepare(
          `UPDATE stored_files SET extraction_status = 'processing', lease_owner = @owner, lease_expires_at = @until,
             extraction_attempts = extraction_attempts + 1
           WHERE sha256 = (
             SELECT sha256 FROM stored_files
             WHERE extraction_status IN ('pending', 'processing') AND ${claimCondition} AND extraction_attempts < @max
               AND EXISTS (SELECT 1 FROM stored_file_refs r WHERE r.sha256 = stored_files.sha256)
             ORDER BY created_at LIMIT 1)
           RETURNING *`,
        )
        .get(params) as StoredFile | undefined;
    })
    .immediate();
}

/**
 * What says which language a stored file is likely written in: the locales of the people of the teams holding it,
 * and those teams' countries (the OCR languages are chosen from them, src-main/documents/ocr.ts).
 */
export function fileLanguageHints(db: Db, sha: string): { locales: string[]; countries: string[] } {
  const locales = db
    .prepare(
      `SELECT DISTINCT u.locale FROM stored_file_refs r JOIN team_members m ON m.team_id = r.team_id
       JOIN users u ON u.id = m.user_id WHERE r.sha256 = ? ORDER BY m.role = 'owner' DESC, u.locale`,
    )
    .pluck()
    .all(sha) as string[];
  const countries = db
    .prepare(
      `SELECT DISTINCT t.country_code FROM stored_file_refs r JOIN teams t ON t.id = r.team_id
       WHERE r.sha256 = ? AND t.country_code IS NOT NULL ORDER BY t.country_code`,
    )
    .pluck()
    .all(sha) as string[];
  return { locales, countries };
}

export interface ExtractionOutcome {
  method: string;
  text: string;
  fields: unknown;
}

/** Records the result if the claim is still ours (a claim lost to expiry leaves the row to its new holder). */
export function completeExtraction(db: Db, sha: string, owner: string, outcome: ExtractionOutcome, now = new Date()): boolean {
  const r = db
    .prepare(
      `UPDATE stored_files SET extraction_status = 'completed', extraction_method = ?, extracted_text = ?,
         extracted_fields = ?, extracted_at = ?, extraction_error = NULL, lease_owner = NULL, lease_expires_at = NULL
       WHERE sha256 = ? AND lease_owner = ?`,
    )
    .run(outcome.method, outcome.text, JSON.stringify(outcome.fields), now.toISOString(), sha, owner);
  return r.changes === 1;
}

/**
 * A failed attempt: retried after a back-off (1, then 4 minutes) until MAX_EXTRACTION_ATTEMPTS, then failed for good;
 * `final` fails it for good at once (a file its reader refused or that ran the reader past its limits: the same file
 * would do the same again). Returns the new status, or undefined when the claim was no longer ours.
 */
export function failExtraction(
  db: Db,
  sha: string,
  owner: string,
  error: string,
  now = new Date(),
  final = false,
): 'pending' | 'failed' | undefined {
  const row = db.prepare('SELECT extraction_attempts FROM stored_files WHERE sha256 = ? AND lease_owner = ?').get(sha, owner) as
    | { extraction_attempts: number }
    | undefined;
  if (!row) return undefined;
  const last = final || row.extraction_attempts >= MAX_EXTRACTION_ATTEMPTS;
  const retryAt = new Date(now.getTime() + 60_000 * 4 ** (row.extraction_attempts - 1)).toISOString();
  db.prepare(
    `UPDATE stored_files SET extraction_status = ?, extraction_error = ?, lease_owner = NULL, lease_expires_at = ?
     WHERE sha256 = ?`,
  ).run(last ? 'failed' : 'pending', error.slice(0, 500), last ? null : retryAt, sha);
  return last ? 'failed' : 'pending';
}

// ---------------------------------------------------------------------------------------------------------------
// Download links (the hosted "presigned URL"): a random token, shown once, kept as its SHA-256.

export const LINK_PREFIX = 'finops_dl_';

const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

export function createDownloadLink(
  db: Db,
  teamId: string,
  owner: { entity: string; id: string },
  ttlSeconds: number,
  now = new Date(),
): { token: string; expiresAt: string } {
  const token = LINK_PREFIX + crypto.randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + ttlSeconds * 1000).toISOString();
  db.transaction(() => {
    db.prepare('DELETE FROM download_links WHERE expires_at <= ?').run(now.toISOString());
    db.prepare(
      'INSERT INTO download_links (token_hash, team_id, owner_entity, owner_id, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(hashToken(token), teamId, owner.entity, owner.id, expiresAt, now.toISOString());
  }).immediate();
  return { token, expiresAt };
}

/** The record a live link points at; NotFound for an unknown or expired token (the two are not told apart). */
export function resolveDownloadLink(db: Db, token: string, now = new Date()): { teamId: string; entity: string; id: string } {
  const row = token.startsWith(LINK_PREFIX)
    ? (db
        .prepare('SELECT team_id, owner_entity, owner_id, expires_at FROM download_links WHERE token_hash = ?')
        .get(hashToken(token)) as { team_id: string; owner_entity: string; owner_id: string; expires_at: string } | undefined)
    : undefined;
  if (!row || row.expires_at <= now.toISOString()) throw new NotFound('download link', 'token');
  return { teamId: row.team_id, entity: row.owner_entity, id: row.owner_id };
}
