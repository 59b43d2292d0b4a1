import type { InboxItem, InboxListQuery, InboxPatch, InboxStatus } from '../../../src-shared/contract/inbox';
import { CANDIDATE_WINDOW_DAYS, decideMatch, type MatchScore, scoreMatch } from '../../../src-shared/domain/inbox-match';
import { currencyExponent, MoneyError, toMajor, toMinor } from '../../../src-shared/money';
import type { Db } from '../db';
import { extractedFieldsOf, type NewFile } from '../documents/documents';
import { Conflict, InvalidReference, NotFound } from '../errors';
import {
  addFileRef,
  type BlobStore,
  dropFileRef,
  putStoredFile,
  type StoredFile,
  storedFile,
  withBlobCleanup,
} from '../files/stored-files';
import { newId } from '../ids';
import { listFingerprint } from '../list/cursor';
import { ftsQuery } from '../list/fts';
import { keysetPage, placeholders, type SortColumn } from '../list/keyset';
import { getTeam } from '../teams/teams';
import { attachToTransaction, detachFromTransaction } from '../transactions/attachments';
import { type Writer, write } from '../write';

/**
 * The inbox: receipts and their reconciliation with transactions (docs/decisions/0084-inbox-matching.md). Scoring
 * and thresholds are src-shared/domain/inbox-match.ts; this module finds candidates, records suggestions, and
 * confirms a match through the ledger (attachToTransaction), which makes the transaction fulfilled.
 */

interface Row {
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
}

const SELECT = `SELECT i.*,
  (SELECT json_array(t.id, t.name, t.amount_minor, t.currency, t.date) FROM transactions t
     WHERE t.team_id = i.team_id AND t.id = i.transaction_id) AS tx_json,
  (SELECT json_group_array(json_array(transaction_id, confidence, match_type, scores, name, amount_minor, currency, date)) FROM (
     SELECT s.transaction_id, s.confidence, s.match_type, s.scores, t.name, t.amount_minor, t.currency, t.date
     FROM inbox_suggestions s JOIN transactions t ON t.team_id = s.team_id AND t.id = s.transaction_id
     WHERE s.team_id = i.team_id AND s.inbox_id = i.id AND s.status = 'pending'
     ORDER BY s.confidence DESC, s.transaction_id)) AS suggestions_json
  FROM inbox_items i`;

const money = (minor: number | null, currency: string | null) =>
  minor === null || currency === null ? null : toMajor(minor, currency);

function toItem(r: Row): InboxItem {
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
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function row(db: Db, teamId: string, id: string): Row {
  const r = db.prepare(`${SELECT} WHERE i.team_id = ? AND i.id = ?`).get(teamId, id) as Row | undefined;
  if (!r) throw new NotFound('inbox item', id);
  return r;
}

export function getInboxItem(db: Db, teamId: string, id: string): InboxItem {
  return toItem(row(db, teamId, id));
}

export function inboxFile(db: Db, teamId: string, id: string): { sha256: string; mimetype: string; fileName: string } {
  const r = row(db, teamId, id);
  return { sha256: r.sha256, mimetype: r.content_type, fileName: r.file_name };
}

const SORTS: Record<string, SortColumn> = {
  created_at: { sql: 'i.created_at', kind: 'text' },
  date: { sql: "coalesce(i.date, '')", kind: 'text' },
  amount: { sql: 'coalesce(i.amount_minor, -1)', kind: 'number' },
  display_name: { sql: "coalesce(lower(i.display_name), '')", kind: 'text' },
};

export function listInbox(
  db: Db,
  teamId: string,
  query: InboxListQuery,
): { data: InboxItem[]; meta: { cursor: string | null; hasPreviousPage: boolean; hasNextPage: boolean } } {
  const where = ['i.team_id = @team'];
  const params: Record<string, unknown> = { team: teamId };
  const match = ftsQuery(query.q);
  if (match) {
    where.push('i.search_rowid IN (SELECT rowid FROM inbox_items_fts WHERE inbox_items_fts MATCH @match)');
    params.match = match;
  }
  if (query.status?.length) {
    where.push('i.status IN (SELECT value FROM json_each(@statuses))');
    params.statuses = JSON.stringify(query.status);
  } else {
    where.push("i.status <> 'deleted'");
  }
  const column = query.sort?.column ?? 'created_at';
  const direction = query.sort?.direction ?? (query.sort ? 'asc' : 'desc');
  const page = keysetPage(db, {
    from: 'inbox_items i',
    id: 'i.id',
    where,
    params,
    sort: SORTS[column]!,
    direction,
    pageSize: query.pageSize,
    cursor: query.cursor,
    fingerprint: listFingerprint(['inbox', teamId, column, direction, match, [...(query.status ?? [])].sort()]),
  });
  const rows =
    page.ids.length === 0
      ? []
      : (db
          .prepare(`${SELECT} WHERE i.team_id = ? AND i.id IN (${placeholders(page.ids.length)})`)
          .all(teamId, ...page.ids) as Row[]);
  const byId = new Map(rows.map((r) => [r.id, toItem(r)]));
  return {
    data: page.ids.flatMap((id) => byId.get(id) ?? []),
    meta: { cursor: page.cursor, hasPreviousPage: page.hasPreviousPage, hasNextPage: page.hasNextPage },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Extraction results → the item's fields.

function minorOrNull(amount: number | null, currency: string): number | null {
  if (amount === null) return null;
  try {
    return toMinor(amount, currency);
  } catch (err) {
    // More decimals than the currency has (a receipt total read as 1280.00 JPY is fine; 12.5 JPY is not): rounded.
    if (err instanceof MoneyError) return Math.round(amount * 10 ** currencyExponent(currency));
    throw err;
  }
}

/**
 * The columns an item takes from its file's extraction: found values fill only fields nobody set (a correction
 * made while extraction ran is kept). A completed or failed extraction moves a new/processing item on to analyzing.
 */
function extractionValues(db: Db, teamId: string, file: StoredFile, current?: Row): Record<string, string | number | null> {
  const status = current?.status ?? 'new';
  const early = status === 'new' || status === 'processing';
  if (file.extraction_status === 'pending') return {};
  if (file.extraction_status === 'processing') return early ? { status: 'processing' } : {};
  if (!early) return {};
  if (file.extraction_status === 'failed') return { status: 'pending' };
  const f = extractedFieldsOf(file);
  const currency = current?.currency ?? f?.currency ?? getTeam(db, teamId).baseCurrency;
  const values: Record<string, string | number | null> = {
    status: 'analyzing',
    content: file.extracted_text ? file.extracted_text.slice(0, 100_000) : null,
  };
  if (!current || current.amount_minor === null) {
    values.amount_minor = f ? minorOrNull(f.amount, currency) : null;
    values.currency = currency;
    values.tax_amount_minor = f ? minorOrNull(f.vatAmount, currency) : null;
    values.tax_rate = f?.vatRate ?? null;
  }
  if (!current?.display_name) values.display_name = f?.merchant ?? null;
  if (!current?.date) values.date = f?.date ?? null;
  if (!current?.website) values.website = f?.website ?? null;
  return values;
}

/** Copies a file's extraction state onto every inbox item holding it, team by team. Returns the teams touched. */
export function applyExtractionToInbox(db: Db, sha: string): string[] {
  const file = storedFile(db, sha);
  if (!file) return [];
  const items = db.prepare('SELECT id, team_id FROM inbox_items WHERE sha256 = ?').all(sha) as { id: string; team_id: string }[];
  const teams = [...new Set(items.map((i) => i.team_id))];
  for (const teamId of teams) {
    write(
      db,
      teamId,
      (w) => {
        for (const i of items.filter((x) => x.team_id === teamId)) {
          w.update('inbox_item', i.id, extractionValues(db, teamId, file, row(db, teamId, i.id)));
        }
      },
      { origin: 'system' },
    );
  }
  return teams;
}

// ---------------------------------------------------------------------------------------------------------------
// Matching.

interface Candidate {
  id: string;
  amount_minor: number;
  currency: string;
  base_amount_minor: number | null;
  base_currency: string | null;
  date: string;
  name: string;
  merchant_name: string | null;
  counterparty_name: string | null;
}

const shiftDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The newest transaction change of the team: matching re-runs for waiting items when it moves. */
function transactionsSeq(db: Db, teamId: string): number {
  return (db.prepare('SELECT coalesce(max(seq), 0) FROM transactions WHERE team_id = ?').pluck().get(teamId) as number) ?? 0;
}

export interface MatchResult {
  status: InboxStatus;
  transactionId?: string;
}

/**
 * Scores the team's transactions near the item's date against it and acts: attaches automatically above the auto
 * threshold (unambiguous), records suggestions above the suggest threshold, or leaves the item pending.
 * Transactions declined or unmatched for this item, and transactions another receipt already matched, are skipped.
 */
export function matchInboxItem(db: Db, teamId: string, id: string): MatchResult {
  return write(
    db,
    teamId,
    (w) => {
      const item = row(db, teamId, id);
      const seq = transactionsSeq(db, teamId);
      if (!['analyzing', 'pending', 'suggested_match'].includes(item.status)) {
        w.update('inbox_item', id, { match_checked_seq: seq });
        return { status: item.status };
      }
      const date = item.date ?? item.created_at.slice(0, 10);
      let candidates: Candidate[] = [];
      if (item.amount_minor !== null && item.amount_minor !== 0 && item.currency) {
        const r = Math.abs(item.amount_minor);
        candidates = db
          .prepare(
            `SELECT t.id, t.amount_minor, t.currency, t.base_amount_minor, t.base_currency, t.date, t.name, t.merchant_name,
                    t.counterparty_name
             FROM transactions t
             WHERE t.team_id = @team AND t.date BETWEEN @from AND @to AND t.status NOT IN ('excluded', 'archived')
               AND ((t.currency = @cur AND abs(t.amount_minor) BETWEEN @lo AND @hi)
                 OR (t.base_currency = @cur AND abs(t.base_amount_minor) BETWEEN @lo AND @hi))
               AND t.id NOT IN (SELECT transaction_id FROM inbox_suggestions
                                WHERE team_id = @team AND inbox_id = @item AND status IN ('declined', 'unmatched'))
               AND NOT EXISTS (SELECT 1 FROM inbox_items o WHERE o.team_id = @team AND o.transaction_id = t.id AND o.id <> @item)`,
          )
          .all({
            team: teamId,
            item: id,
            from: shiftDays(date, -CANDIDATE_WINDOW_DAYS),
            to: shiftDays(date, CANDIDATE_WINDOW_DAYS),
            cur: item.currency,
            lo: Math.floor(r * 0.94),
            hi: Math.ceil(r * 1.06),
          }) as Candidate[];
      }
      const scored = candidates.map((c) => ({
        candidate: c,
        score: scoreMatch(
          { amountMinor: item.amount_minor as number, currency: item.currency as string, date, merchant: item.display_name },
          {
            amountMinor: c.amount_minor,
            currency: c.currency,
            baseAmountMinor: c.base_amount_minor,
            baseCurrency: c.base_currency,
            date: c.date,
            names: [c.name, c.merchant_name, c.counterparty_name],
          },
        ),
      }));
      const decision = decideMatch(scored);
      // Earlier open suggestions give way to this round's.
      db.prepare(
        "UPDATE inbox_suggestions SET status = 'superseded', decided_at = ? WHERE team_id = ? AND inbox_id = ? AND status = 'pending'",
      ).run(w.now, teamId, id);
      const record = (c: Candidate, score: MatchScore, matchType: 'auto' | 'suggested', status: 'pending' | 'confirmed') =>
        db
          .prepare(
            `INSERT INTO inbox_suggestions (id, team_id, inbox_id, transaction_id, confidence, scores, match_type, status, created_at, decided_at)
             VALUES (@id, @team, @item, @tx, @confidence, @scores, @type, @status, @now, @decided)
             ON CONFLICT (inbox_id, transaction_id) DO UPDATE SET confidence = excluded.confidence, scores = excluded.scores,
               match_type = excluded.match_type, status = excluded.status, decided_at = excluded.decided_at`,
          )
          .run({
            id: newId(),
            team: teamId,
            item: id,
            tx: c.id,
            confidence: score.confidence,
            scores: JSON.stringify(score),
            type: matchType,
            status,
            now: w.now,
            decided: status === 'pending' ? null : w.now,
          });
      if (decision.kind === 'auto') {
        record(decision.best.candidate, decision.best.score, 'auto', 'confirmed');
        attach(w, db, teamId, item, decision.best.candidate.id, 'system');
        w.update('inbox_item', id, { match_checked_seq: transactionsSeq(db, teamId) });
        return { status: 'done', transactionId: decision.best.candidate.id };
      }
      if (decision.kind === 'suggest') {
        for (const c of decision.candidates) record(c.candidate, c.score, 'suggested', 'pending');
      }
      const status: InboxStatus = decision.kind === 'suggest' ? 'suggested_match' : 'pending';
      if (!w.update('inbox_item', id, { status, match_checked_seq: seq })) w.touch('inbox_item', id);
      return { status };
    },
    { origin: 'system' },
  );
}

/** Items whose matching is due: just analyzed, or waiting while the team's transactions changed since. */
export function itemsToMatch(db: Db, limit = 50): { teamId: string; id: string }[] {
  return db
    .prepare(
      `SELECT i.team_id AS teamId, i.id FROM inbox_items i
       WHERE i.status = 'analyzing'
          OR (i.status IN ('pending', 'suggested_match') AND i.amount_minor IS NOT NULL
              AND i.match_checked_seq < (SELECT coalesce(max(seq), 0) FROM transactions t WHERE t.team_id = i.team_id))
       ORDER BY i.status = 'analyzing' DESC, i.created_at LIMIT ?`,
    )
    .all(limit) as { teamId: string; id: string }[];
}

export const NO_MATCH_AFTER_DAYS = 90;

/** Pending items older than 90 days become no_match (the hosted rule). Returns how many. */
export function expireStaleInbox(db: Db, now = new Date()): number {
  const cutoff = new Date(now.getTime() - NO_MATCH_AFTER_DAYS * 86_400_000).toISOString();
  const stale = db.prepare("SELECT team_id, id FROM inbox_items WHERE status = 'pending' AND created_at < ?").all(cutoff) as {
    team_id: string;
    id: string;
  }[];
  const teams = new Map<string, string[]>();
  for (const s of stale) teams.set(s.team_id, [...(teams.get(s.team_id) ?? []), s.id]);
  for (const [teamId, ids] of teams) {
    write(
      db,
      teamId,
      (w) => {
        for (const id of ids) w.update('inbox_item', id, { status: 'no_match' });
      },
      { origin: 'system' },
    );
  }
  return stale.length;
}

// ---------------------------------------------------------------------------------------------------------------
// Match actions.

function attach(w: Writer, db: Db, teamId: string, item: Row, transactionId: string, source: 'user' | 'system'): void {
  const attachmentId = attachToTransaction(
    db,
    teamId,
    transactionId,
    { sha256: item.sha256, filename: item.file_name, size: item.size, mimeType: item.content_type, sourceId: item.id },
    { source },
  );
  db.prepare(
    "UPDATE inbox_suggestions SET status = 'superseded', decided_at = ? WHERE team_id = ? AND inbox_id = ? AND status = 'pending'",
  ).run(w.now, teamId, item.id);
  w.update('inbox_item', item.id, {
    status: 'done',
    transaction_id: transactionId,
    attachment_id: attachmentId,
    matched_at: w.now,
  });
}

export function confirmMatch(db: Db, teamId: string, id: string, transactionId: string): InboxItem {
  write(db, teamId, (w) => {
    const item = row(db, teamId, id);
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
    const item = row(db, teamId, id);
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
    const item = row(db, teamId, id);
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

// ---------------------------------------------------------------------------------------------------------------
// Writing.

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
    w.update('inbox_item', itemId, extractionValues(db, teamId, stored, row(db, teamId, itemId)));
    return itemId;
  });
  return getInboxItem(db, teamId, id);
}

export function updateInboxItem(db: Db, teamId: string, id: string, patch: InboxPatch): InboxItem {
  let rematch = false;
  write(db, teamId, (w) => {
    const item = row(db, teamId, id);
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
        values.amount_minor = minorFor(toMajor(item.amount_minor, item.currency), currency);
      }
    }
    if (patch.amount !== undefined) {
      values.amount_minor = patch.amount === null ? null : minorFor(patch.amount, currency);
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

function minorFor(amount: number, currency: string): number {
  try {
    return toMinor(amount, currency);
  } catch (err) {
    if (err instanceof MoneyError) throw new InvalidReference('amount', `amount: ${err.message}`);
    throw err;
  }
}

export function deleteInboxItem(db: Db, teamId: string, id: string, blobs: BlobStore): InboxItem {
  return withBlobCleanup(blobs, (trashed) =>
    write(db, teamId, (w) => {
      const item = getInboxItem(db, teamId, id);
      const sha = row(db, teamId, id).sha256;
      w.remove('inbox_item', id);
      dropFileRef(db, sha, 'inbox_item', id, blobs, trashed);
      return item;
    }),
  );
}
