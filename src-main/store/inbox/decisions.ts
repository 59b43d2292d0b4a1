import type { InboxItem } from '../../../src-shared/contract/inbox';
import type { Db } from '../db';
import { Conflict, InvalidReference, NotFound } from '../errors';
import { newId } from '../ids';
import { detachFromTransaction } from '../transactions/attachments';
import { write } from '../write';
import { getInboxItem, inboxRow } from './items';
import { attach, matchInboxItem } from './matching';

/** A person's answers to matching: confirm a transaction for an item, decline a suggestion, undo a match. */

export function confirmMatch(db: Db, teamId: string, id: string, transactionId: string): InboxItem {
  write(db, teamId, (w) => {
    const item = inboxRow(db, teamId, id);
    if (item.status === 'done') {
      if (item.transaction_id === transactionId) return;
      throw new Conflict(
        `The item is already matched to transaction ${item.transaction_id}`,
        'Unmatch it first (POST /v1/inbox/{id}/unmatch)',
      );
    }
    if (!db.prepare('SELECT 1 FROM transactions WHERE team_id = ? AND id = ?').get(teamId, transactionId)) {
      throw new InvalidReference('transactionId', `No transaction with id ${transactionId} in this team`);
    }
    const existing = db
      .prepare('SELECT match_type FROM inbox_suggestions WHERE team_id = ? AND inbox_id = ? AND transaction_id = ?')
      .get(teamId, id, transactionId) as { match_type: string } | undefined;
    attach(w, db, teamId, item, transactionId, 'user');
    db.prepare(
      `INSERT INTO inbox_suggestions (id, team_id, inbox_id, transaction_id, confidence, scores, match_type, status, created_at, decided_at)
       VALUES (?, ?, ?, ?, 1, '{}', ?, 'confirmed', ?, ?)
       ON CONFLICT (inbox_id, transaction_id) DO UPDATE SET status = 'confirmed', decided_at = excluded.decided_at`,
    ).run(newId(), teamId, id, transactionId, existing ? existing.match_type : 'manual', w.now, w.now);
  });
  return getInboxItem(db, teamId, id);
}

export function declineMatch(db: Db, teamId: string, id: string, transactionId: string): InboxItem {
  write(db, teamId, (w) => {
    const item = inboxRow(db, teamId, id);
    const r = db
      .prepare(
        "UPDATE inbox_suggestions SET status = 'declined', decided_at = ? WHERE team_id = ? AND inbox_id = ? AND transaction_id = ? AND status = 'pending'",
      )
      .run(w.now, teamId, id, transactionId);
    if (r.changes === 0) {
      throw new InvalidReference('transactionId', `Transaction ${transactionId} is not an open suggestion for this item`);
    }
    const open = db
      .prepare("SELECT count(*) FROM inbox_suggestions WHERE team_id = ? AND inbox_id = ? AND status = 'pending'")
      .pluck()
      .get(teamId, id) as number;
    const status = item.status === 'suggested_match' && open === 0 ? 'pending' : item.status;
    if (!w.update('inbox_item', id, { status })) w.touch('inbox_item', id);
  });
  return getInboxItem(db, teamId, id);
}

export function unmatch(db: Db, teamId: string, id: string): InboxItem {
  write(db, teamId, (w) => {
    const item = inboxRow(db, teamId, id);
    if (item.status !== 'done' || !item.transaction_id) {
      throw new Conflict(`The item is not matched (status ${item.status})`);
    }
    if (
      item.attachment_id &&
      db.prepare('SELECT 1 FROM transactions WHERE team_id = ? AND id = ?').get(teamId, item.transaction_id)
    ) {
      try {
        detachFromTransaction(db, teamId, item.transaction_id, item.attachment_id);
      } catch (err) {
        // The attachment was already removed from the transaction directly: nothing left to detach.
        if (!(err instanceof NotFound)) throw err;
      }
    }
    db.prepare(
      "UPDATE inbox_suggestions SET status = 'unmatched', decided_at = ? WHERE team_id = ? AND inbox_id = ? AND transaction_id = ?",
    ).run(w.now, teamId, id, item.transaction_id);
    // Back to matching: other candidates may fit (the unmatched transaction is never suggested again).
    w.update('inbox_item', id, { status: 'analyzing', transaction_id: null, attachment_id: null, matched_at: null });
  });
  matchInboxItem(db, teamId, id);
  return getInboxItem(db, teamId, id);
}
