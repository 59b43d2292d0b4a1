import type { InboxItem } from '../../../src-shared/contract/inbox';
import type { Db } from '../db';
import type { NewFile } from '../documents/documents';
import { NotFound } from '../errors';
import type { BlobStore } from '../files/stored-files';
import { getRow } from '../transactions/row';
import { write } from '../write';
import { confirmMatch } from './decisions';
import { getInboxItem } from './items';
import { createInboxItem } from './writes';

/**
 * A receipt uploaded onto a transaction (dropped on its row or its panel): kept as an inbox item matched to that
 * transaction in the same write, so that it is attached (the transaction becomes fulfilled), found in the inbox like
 * any receipt, and undone with unmatch. Its fields are extracted afterwards like any upload's; it is never matched
 * elsewhere. The same file dropped twice on one transaction is attached once: the answer is the item holding it.
 */
export function uploadToTransaction(db: Db, teamId: string, transactionId: string, file: NewFile, blobs: BlobStore): InboxItem {
  return write(db, teamId, () => {
    if (!getRow(db, teamId, transactionId)) throw new NotFound('transaction', transactionId);
    const held = db
      .prepare(
        `SELECT i.id FROM inbox_items i
           JOIN transaction_attachments a ON a.team_id = i.team_id AND a.id = i.attachment_id
          WHERE i.team_id = ? AND a.transaction_id = ? AND a.sha256 = ? AND i.status = 'done'`,
      )
      .pluck()
      .get(teamId, transactionId, file.sha256) as string | undefined;
    if (held) return getInboxItem(db, teamId, held);
    const item = createInboxItem(db, teamId, file, {}, blobs);
    return confirmMatch(db, teamId, item.id, transactionId);
  });
}
