import type { InboxStatus } from '../../../src-shared/contract/inbox';
import { CANDIDATE_WINDOW_DAYS, decideMatch, type MatchScore, scoreMatch } from '../../../src-shared/domain/inbox-match';
import type { Db } from '../db';
import { newId } from '../ids';
import { attachToTransaction } from '../transactions/attachments';
import { type Writer, write } from '../write';
import { type InboxRow, inboxRow } from './items';

/**
 * Matching receipts with transactions (docs/decisions/0084-inbox-matching.md). Scoring and thresholds are
 * src-shared/domain/inbox-match.ts; this module finds candidates, records suggestions, and attaches a match through
 * the ledger (attachToTransaction), which makes the transaction fulfilled. A person's answers are decisions.ts.
 */

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
      const item = inboxRow(db, teamId, id);
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

/** Attaches the item's file to the transaction and marks the item done; its open suggestions give way. */
export function attach(
  w: Writer,
  db: Db,
  teamId: string,
  item: InboxRow,
  transactionId: string,
  source: 'user' | 'system',
): void {
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
