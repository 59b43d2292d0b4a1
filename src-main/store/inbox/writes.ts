import type { InboxItem, InboxPatch } from '../../../src-shared/contract/inbox';
import { toMajor } from '../../../src-shared/money';
import type { Db } from '../db';
import type { NewFile } from '../documents/documents';
import { Conflict } from '../errors';
import { addFileRef, type BlobStore, dropFileRef, putStoredFile, withBlobCleanup } from '../files/stored-files';
import { minorOf } from '../money-input';
import { getTeam } from '../teams/teams';
import { write } from '../write';
import { extractionValues } from './extraction';
import { getInboxItem, inboxRow } from './items';
import { matchInboxItem } from './matching';

/** Creating (an upload), correcting and deleting inbox items; a correction of a matching field matches again. */

export function createInboxItem(db: Db, teamId: string, file: NewFile, input: { title?: string }, blobs: BlobStore): InboxItem {
  const id = write(db, teamId, (w) => {
    const stored = putStoredFile(db, file, file.bytes, blobs, w.now);
    const itemId = w.insert('inbox_item', {
      file_name: file.fileName,
      display_name: input.title ?? null,
      sha256: file.sha256,
      size: file.size,
      content_type: file.mimetype,
      status: 'new',
    });
    addFileRef(db, teamId, file.sha256, 'inbox_item', itemId, w.now);
    // Content extracted before (the same file uploaded again) applies at once.
    w.update('inbox_item', itemId, extractionValues(db, teamId, stored, inboxRow(db, teamId, itemId)));
    return itemId;
  });
  return getInboxItem(db, teamId, id);
}

export function updateInboxItem(db: Db, teamId: string, id: string, patch: InboxPatch): InboxItem {
  let rematch = false;
  write(db, teamId, (w) => {
    const item = inboxRow(db, teamId, id);
    const currency = patch.currency ?? item.currency ?? getTeam(db, teamId).baseCurrency;
    const values: Record<string, string | number | null | undefined> = {
      display_name: patch.displayName,
      date: patch.date,
      description: patch.description,
      website: patch.website,
      status: patch.status,
    };
    if (patch.currency !== undefined && patch.currency !== item.currency) {
      values.currency = patch.currency;
      // The stored amount keeps its figure in the new currency.
      if (patch.amount === undefined && item.amount_minor !== null && item.currency) {
        values.amount_minor = minorOf(toMajor(item.amount_minor, item.currency), currency, 'amount', 'named');
      }
    }
    if (patch.amount !== undefined) {
      values.amount_minor = patch.amount === null ? null : minorOf(patch.amount, currency, 'amount', 'named');
      values.currency = currency;
    }
    if (patch.status && item.status === 'done') {
      throw new Conflict('The item is matched', 'Unmatch it before changing its status');
    }
    const matchFields = ['display_name', 'date', 'amount_minor', 'currency'].some((k) => values[k] !== undefined);
    if (matchFields && !patch.status && ['pending', 'suggested_match', 'no_match'].includes(item.status)) {
      values.status = 'analyzing';
      rematch = true;
    }
    w.update('inbox_item', id, values);
  });
  if (rematch) matchInboxItem(db, teamId, id);
  return getInboxItem(db, teamId, id);
}

export function deleteInboxItem(db: Db, teamId: string, id: string, blobs: BlobStore): InboxItem {
  return withBlobCleanup(blobs, (trashed) =>
    write(db, teamId, (w) => {
      const item = getInboxItem(db, teamId, id);
      const sha = inboxRow(db, teamId, id).sha256;
      w.remove('inbox_item', id);
      dropFileRef(db, sha, 'inbox_item', id, blobs, trashed);
      return item;
    }),
  );
}
