import type { InboxItem } from '../../../src-shared/contract/inbox';
import type { Db } from '../db';
import type { NewFile } from '../documents/documents';
import type { BlobStore } from '../files/stored-files';
import { write } from '../write';
import type { InboxSourceKind } from './sources';
import { createInboxItem } from './writes';

/**
 * Taking receipts in from a folder, a mailbox or the inbound e-mail callback (docs/decisions/0150-inbox-ingestion.md):
 * each becomes an inbox item like an upload, exactly once. The ledger (`inbox_ingested`) keys a mail by its
 * Message-ID and a file by its content; the keys are inserted in the write that creates the items, so a restart, a
 * second process or the same mail arriving by IMAP and by the callback never makes a second item.
 */

export interface IngestInput {
  source: InboxSourceKind;
  /** `message:<Message-ID>` for a mail; absent for a file dropped in the folder. */
  messageKey?: string;
  /** Why a mail gave nothing, when the caller knows better than "no attachment". */
  messageDetail?: string;
  /** Files that are receipts (checked by their bytes). */
  files: readonly NewFile[];
  /** Files that are not, with why (kept in the ledger so they are not looked at again). */
  skipped?: readonly { sha256: string; fileName: string; reason: string }[];
}

export interface IngestResult {
  /** The mail was taken in before: nothing was looked at. */
  duplicateMessage: boolean;
  created: InboxItem[];
  /** Files whose content the team had taken in before. */
  duplicates: string[];
  skipped: { fileName: string; reason: string }[];
}

export const fileKey = (sha256: string) => `file:${sha256}`;

export function ingestToInbox(db: Db, teamId: string, input: IngestInput, blobs: BlobStore): IngestResult {
  const result: IngestResult = { duplicateMessage: false, created: [], duplicates: [], skipped: [] };
  write(db, teamId, (w) => {
    const remember = db.prepare(
      `INSERT INTO inbox_ingested (team_id, key, source, outcome, inbox_item_id, detail, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (team_id, key) DO NOTHING`,
    );
    const add = (key: string, outcome: 'created' | 'duplicate' | 'skipped', itemId: string | null, detail: string | null) =>
      remember.run(teamId, key, input.source, outcome, itemId, detail, w.now).changes === 1;
    if (input.messageKey && isIngested(db, teamId, input.messageKey)) {
      result.duplicateMessage = true;
      return;
    }
    for (const file of input.files) {
      if (isIngested(db, teamId, fileKey(file.sha256))) {
        result.duplicates.push(file.fileName);
        continue;
      }
      const item = createInboxItem(db, teamId, file, {}, blobs);
      add(fileKey(file.sha256), 'created', item.id, file.fileName);
      result.created.push(item);
    }
    for (const s of input.skipped ?? []) {
      add(fileKey(s.sha256), 'skipped', null, `${s.fileName}: ${s.reason}`);
      result.skipped.push({ fileName: s.fileName, reason: s.reason });
    }
    if (input.messageKey) {
      const outcome = result.created.length > 0 ? 'created' : result.duplicates.length > 0 ? 'duplicate' : 'skipped';
      const detail =
        outcome !== 'skipped' ? null : (input.messageDetail ?? (result.skipped.length ? 'no receipt attached' : 'no attachment'));
      add(input.messageKey, outcome, null, detail);
    }
  });
  return result;
}

export function isIngested(db: Db, teamId: string, key: string): boolean {
  return db.prepare('SELECT 1 FROM inbox_ingested WHERE team_id = ? AND key = ?').get(teamId, key) !== undefined;
}

export interface IngestedEntry {
  key: string;
  source: InboxSourceKind;
  outcome: 'created' | 'duplicate' | 'skipped';
  inboxItemId: string | null;
  detail: string | null;
  createdAt: string;
}

/** What the team's sources took in lately, newest first (shown to the owner). */
export function recentIngestions(db: Db, teamId: string, limit = 20): IngestedEntry[] {
  return db
    .prepare(
      `SELECT key, source, outcome, inbox_item_id AS inboxItemId, detail, created_at AS createdAt FROM inbox_ingested
       WHERE team_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?`,
    )
    .all(teamId, limit) as IngestedEntry[];
}
