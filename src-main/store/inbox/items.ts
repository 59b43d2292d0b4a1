import type { InboxItem, InboxListQuery, InboxStatus } from '../../../src-shared/contract/inbox';
import type { MatchScore } from '../../../src-shared/domain/inbox-match';
import { toMajor } from '../../../src-shared/money';
import type { Db } from '../db';
import { NotFound } from '../errors';
import { type ListPage, type SearchListSpec, searchList } from '../list/search-list';

/**
 * Inbox items as read (docs/decisions/0084-inbox-matching.md): a receipt with the fields extraction or a person set,
 * the transaction it is matched to and its open suggestions, one at a time or as the searchable list.
 */

export interface InboxRow {
  id: string;
  team_id: string;
  file_name: string;
  display_name: string | null;
  sha256: string;
  size: number;
  content_type: string;
  amount_minor: number | null;
  currency: string | null;
  date: string | null;
  tax_amount_minor: number | null;
  tax_rate: number | null;
  website: string | null;
  description: string | null;
  status: InboxStatus;
  transaction_id: string | null;
  attachment_id: string | null;
  created_at: string;
  updated_at: string;
  tx_json: string | null;
  suggestions_json: string;
  einvoice_json: string | null;
}

const SELECT = `SELECT i.*,
  (SELECT json_array(t.id, t.name, t.amount_minor, t.currency, t.date) FROM transactions t
     WHERE t.team_id = i.team_id AND t.id = i.transaction_id) AS tx_json,
  (SELECT json_group_array(json_array(transaction_id, confidence, match_type, scores, name, amount_minor, currency, date)) FROM (
     SELECT s.transaction_id, s.confidence, s.match_type, s.scores, t.name, t.amount_minor, t.currency, t.date
     FROM inbox_suggestions s JOIN transactions t ON t.team_id = s.team_id AND t.id = s.transaction_id
     WHERE s.team_id = i.team_id AND s.inbox_id = i.id AND s.status = 'pending'
     ORDER BY s.confidence DESC, s.transaction_id)) AS suggestions_json,
  (SELECT json_extract(f.extracted_fields, '$.eInvoice') FROM stored_files f
     WHERE f.sha256 = i.sha256 AND f.extraction_method = 'e-invoice') AS einvoice_json
  FROM inbox_items i`;

const money = (minor: number | null, currency: string | null) =>
  minor === null || currency === null ? null : toMajor(minor, currency);

function toItem(r: InboxRow): InboxItem {
  const tx = r.tx_json ? (JSON.parse(r.tx_json) as [string, string, number, string, string]) : null;
  const suggestions = (
    JSON.parse(r.suggestions_json) as [string, number, 'auto' | 'suggested' | 'manual', string, string, number, string, string][]
  ).map(([transactionId, confidence, matchType, scores, name, amount, currency, date]) => {
    const s = JSON.parse(scores) as MatchScore;
    return {
      transactionId,
      transaction: { id: transactionId, name, amount: toMajor(amount, currency), currency, date },
      confidence,
      matchType,
      scores: { amount: s.amount, currency: s.currency, date: s.date, name: s.name },
    };
  });
  return {
    id: r.id,
    fileName: r.file_name,
    displayName: r.display_name,
    amount: money(r.amount_minor, r.currency),
    currency: r.currency,
    taxAmount: money(r.tax_amount_minor, r.currency),
    taxRate: r.tax_rate,
    contentType: r.content_type,
    size: r.size,
    date: r.date,
    status: r.status,
    website: r.website,
    description: r.description,
    transaction: tx ? { id: tx[0], name: tx[1], amount: toMajor(tx[2], tx[3]), currency: tx[3], date: tx[4] } : null,
    attachmentId: r.attachment_id,
    suggestions,
    // A received e-invoice, read from its XML (docs/decisions/0160-e-invoices.md): shown as the invoice it is.
    eInvoice: r.einvoice_json ? (JSON.parse(r.einvoice_json) as InboxItem['eInvoice']) : null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export function inboxRow(db: Db, teamId: string, id: string): InboxRow {
  const r = db.prepare(`${SELECT} WHERE i.team_id = ? AND i.id = ?`).get(teamId, id) as InboxRow | undefined;
  if (!r) throw new NotFound('inbox item', id);
  return r;
}

export function getInboxItem(db: Db, teamId: string, id: string): InboxItem {
  return toItem(inboxRow(db, teamId, id));
}

export function inboxFile(db: Db, teamId: string, id: string): { sha256: string; mimetype: string; fileName: string } {
  const r = inboxRow(db, teamId, id);
  return { sha256: r.sha256, mimetype: r.content_type, fileName: r.file_name };
}

const LIST: SearchListSpec<InboxRow, InboxItem> = {
  name: 'inbox',
  table: 'inbox_items i',
  alias: 'i',
  fts: 'inbox_items_fts',
  sorts: {
    created_at: { sql: 'i.created_at', kind: 'text' },
    date: { sql: "coalesce(i.date, '')", kind: 'text' },
    amount: { sql: 'coalesce(i.amount_minor, -1)', kind: 'number' },
    display_name: { sql: "coalesce(lower(i.display_name), '')", kind: 'text' },
  },
  // Deleted items are listed only when asked for by status.
  status: { column: 'status', otherwise: "i.status <> 'deleted'" },
  select: SELECT,
  toItem,
};

export function listInbox(db: Db, teamId: string, query: InboxListQuery): ListPage<InboxItem> {
  return searchList(db, teamId, LIST, { ...query, statuses: query.status });
}
