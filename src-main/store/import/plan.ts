import { type BalanceCheck, checkBalances } from '../../../src-shared/domain/import/balance';
import {
  addDays,
  daysBetween,
  decideMatches,
  MATCH_WINDOW_DAYS,
  type ScoredCandidate,
  scoreCandidate,
  TRANSFER_WINDOW_DAYS,
} from '../../../src-shared/domain/import/matching';
import { ImportRefused, type ParsedRow, type ParseResult } from '../../../src-shared/domain/import/types';
import type { Db } from '../db';
import { importAccount } from './account';
import { fingerprints } from './fingerprint';
import { type HeldRow, heldRow } from './rows';
import type { TransferCandidate } from './transfers';

/**
 * Planning an import (docs/decisions/0062–0066), read only: each row of a bank file against the ledger (new,
 * duplicate, linked to a hand-entered row, held for review, rejected), the balance check, an earlier import of the
 * same file, and the transfers the new rows would pair with. The preview shows the plan; commit.ts writes it.
 */

export type PlanOutcome = 'new' | 'duplicate' | 'link' | 'review' | 'rejected';

export interface PlanRow {
  index: number;
  line: number;
  outcome: PlanOutcome;
  row: HeldRow | null;
  /** duplicate: the existing transaction (or review item); link: the hand-entered one. */
  transactionId: string | null;
  /** How a duplicate was recognised, or the link's score. */
  match: 'external_id' | 'fingerprint' | 'review_item' | null;
  score: number | null;
  candidates: ScoredCandidate[];
  reason: string | null;
}

export interface ImportPlan {
  accountId: string;
  currency: string;
  format: string;
  encoding: string;
  sha256: string;
  size: number;
  rows: PlanRow[];
  counts: { rows: number; new: number; duplicate: number; link: number; review: number; rejected: number };
  balance: BalanceCheck;
  /** Another committed (not undone) batch of the team holds the same file. */
  alreadyImported: { batchId: string; accountId: string; createdAt: string } | null;
  /** Transfers the new rows would pair with (applied on commit when unique, else suggested). */
  transfers: TransferCandidate[];
  warnings: string[];
  mapping: unknown;
  notes: string[];
}

/** The account's running balance just before `day` (its last transaction dated earlier), when it has one. */
function ledgerBalanceBefore(db: Db, teamId: string, accountId: string, day: string): number | null {
  const r = db
    .prepare(
      `SELECT balance_minor FROM transactions INDEXED BY transactions_account_walk
       WHERE team_id = ? AND bank_account_id = ? AND date < ? ORDER BY date DESC, id DESC LIMIT 1`,
    )
    .pluck()
    .get(teamId, accountId, day) as number | null | undefined;
  return r ?? null;
}

interface ManualCandidate {
  id: string;
  date: string;
  amount_minor: number;
  name: string;
  description: string | null;
  counterparty_name: string | null;
}

/** Plans the import of a parsed file into an account: read only. Refuses a file with line-level errors. */
export function planImport(db: Db, teamId: string, accountId: string, parsed: ParseResult): ImportPlan {
  const account = importAccount(db, teamId, accountId);
  const file = parsed.file;
  if (file.errors.length > 0) {
    throw new ImportRefused(
      `The file cannot be imported: ${file.errors.length} problem${file.errors.length === 1 ? '' : 's'}, nothing was written`,
      file.errors,
    );
  }
  if (file.rows.length === 0 && file.rejected.length > 0) {
    throw new ImportRefused(
      `None of the file's ${file.rejected.length} rows can be imported into ${account.name}: nothing was written`,
      file.rejected,
    );
  }
  const fps = fingerprints(accountId, file.rows);
  const warnings = [...file.warnings];
  // A bank id that repeats within one file does not identify a line: those rows fall back to their fingerprint.
  const idCounts = new Map<string, number>();
  for (const r of file.rows) if (r.externalId) idCounts.set(r.externalId, (idCounts.get(r.externalId) ?? 0) + 1);
  const unreliable = new Set([...idCounts].filter(([, n]) => n > 1).map(([id]) => id));
  if (unreliable.size)
    warnings.push(`${unreliable.size} bank id(s) repeat within the file; those rows are matched by fingerprint`);

  const byExternal = db.prepare(
    'SELECT id FROM transactions WHERE team_id = ? AND bank_account_id = ? AND external_id = ? LIMIT 1',
  );
  const byFingerprint = db.prepare(
    'SELECT id, external_id FROM transactions WHERE team_id = ? AND bank_account_id = ? AND fingerprint = ?',
  );
  const queued = db.prepare(
    `SELECT id FROM import_review_items WHERE team_id = ? AND bank_account_id = ? AND status = 'open'
     AND (fingerprint = ? OR (external_id IS NOT NULL AND external_id = ?)) LIMIT 1`,
  );

  const rows: PlanRow[] = [];
  const open: { plan: PlanRow; row: ParsedRow }[] = [];
  file.rows.forEach((r, i) => {
    const fp = fps[i]!;
    const plan: PlanRow = {
      index: r.index,
      line: r.line,
      outcome: 'new',
      row: heldRow(r, fp),
      transactionId: null,
      match: null,
      score: null,
      candidates: [],
      reason: r.note ?? null,
    };
    rows.push(plan);
    const ext = r.externalId && !unreliable.has(r.externalId) ? r.externalId : null;
    const hit = ext ? (byExternal.pluck().get(teamId, accountId, ext) as string | undefined) : undefined;
    if (hit) {
      Object.assign(plan, { outcome: 'duplicate', transactionId: hit, match: 'external_id' });
      return;
    }
    // A fingerprint match counts unless both rows carry bank ids and they differ (two distinct lines).
    const fpHit = (byFingerprint.all(teamId, accountId, fp) as { id: string; external_id: string | null }[]).find(
      (t) => !t.external_id || !ext || t.external_id === ext,
    );
    if (fpHit) {
      Object.assign(plan, { outcome: 'duplicate', transactionId: fpHit.id, match: 'fingerprint' });
      return;
    }
    const q = queued.pluck().get(teamId, accountId, fp, ext) as string | undefined;
    if (q) {
      Object.assign(plan, {
        outcome: 'duplicate',
        transactionId: q,
        match: 'review_item',
        reason: 'already held in the review queue',
      });
      return;
    }
    open.push({ plan, row: r });
  });

  // Hand-entered candidates: open manual rows of the account, same amount, within the window.
  if (open.length > 0) {
    const days = open.map((o) => o.row.date).sort();
    const manual = db
      .prepare(
        `SELECT id, date, amount_minor, name, description, counterparty_name FROM transactions
         WHERE team_id = ? AND bank_account_id = ? AND manual = 1 AND external_id IS NULL AND reconciled_at IS NULL
           AND status NOT IN ('excluded', 'archived') AND date BETWEEN ? AND ?`,
      )
      .all(
        teamId,
        accountId,
        addDays(days[0]!, -MATCH_WINDOW_DAYS),
        addDays(days[days.length - 1]!, MATCH_WINDOW_DAYS),
      ) as ManualCandidate[];
    if (manual.length > 0) {
      const byAmount = new Map<number, ManualCandidate[]>();
      for (const m of manual) byAmount.set(m.amount_minor, [...(byAmount.get(m.amount_minor) ?? []), m]);
      const perRow = new Map<number, ScoredCandidate[]>();
      for (const { row } of open) {
        const list = (byAmount.get(row.amountMinor) ?? [])
          .filter((m) => Math.abs(Date.parse(m.date) - Date.parse(row.date)) <= MATCH_WINDOW_DAYS * 86_400_000)
          .map((m) =>
            scoreCandidate(row, {
              transactionId: m.id,
              date: m.date,
              name: m.name,
              description: m.description,
              counterpartyName: m.counterparty_name,
            }),
          );
        perRow.set(row.index, list);
      }
      const decisions = decideMatches(perRow);
      for (const { plan, row } of open) {
        const d = decisions.get(row.index);
        if (!d || d.kind === 'none') continue;
        if (d.kind === 'link') {
          Object.assign(plan, {
            outcome: 'link',
            transactionId: d.candidate.transactionId,
            score: d.candidate.score,
            candidates: [d.candidate],
          });
        } else {
          Object.assign(plan, { outcome: 'review', candidates: d.candidates, reason: d.reason });
        }
      }
    }
  }
  for (const rej of file.rejected) {
    rows.push({
      index: rej.row,
      line: rej.line ?? 0,
      outcome: 'rejected',
      row: null,
      transactionId: null,
      match: null,
      score: null,
      candidates: [],
      reason: rej.message,
    });
  }
  rows.sort((a, b) => a.index - b.index);

  const firstDay = file.rows.map((r) => r.date).sort()[0];
  const ledgerOpening = firstDay ? ledgerBalanceBefore(db, teamId, accountId, firstDay) : null;
  const balance = checkBalances(file, account.currency, ledgerOpening === null ? null : { amountMinor: ledgerOpening });
  // One statement of a file of several: the file's other statements went to other accounts, and are no re-import.
  const earlier = db
    .prepare(
      `SELECT id, bank_account_id, created_at FROM import_batches WHERE team_id = ? AND file_sha256 = ? AND status = 'committed'
         AND (? = 0 OR bank_account_id = ?)
       ORDER BY created_at DESC LIMIT 1`,
    )
    .get(teamId, parsed.sha256, parsed.part ? 1 : 0, accountId) as
    | { id: string; bank_account_id: string; created_at: string }
    | undefined;
  const count = (o: PlanOutcome) => rows.filter((r) => r.outcome === o).length;
  return {
    accountId,
    currency: account.currency,
    format: file.format,
    encoding: file.encoding,
    sha256: parsed.sha256,
    size: parsed.size,
    rows,
    counts: {
      rows: rows.length,
      new: count('new'),
      duplicate: count('duplicate'),
      link: count('link'),
      review: count('review'),
      rejected: count('rejected'),
    },
    balance,
    alreadyImported: earlier ? { batchId: earlier.id, accountId: earlier.bank_account_id, createdAt: earlier.created_at } : null,
    transfers: [],
    warnings,
    mapping: file.mapping,
    notes: parsed.notes,
  };
}

/** The transfers the plan's new rows would pair with (one read of the other accounts' rows around the file's days). */
export function planTransfers(db: Db, teamId: string, plan: ImportPlan): TransferCandidate[] {
  const out: TransferCandidate[] = [];
  const accounts = db.prepare('SELECT count(*) FROM bank_accounts WHERE team_id = ?').pluck().get(teamId) as number;
  const fresh = plan.rows.filter((p) => p.outcome === 'new' && p.row && p.row.amountMinor !== 0);
  if (accounts < 2 || fresh.length === 0) return out;
  const days = fresh.map((p) => p.row!.date).sort();
  const others = db
    .prepare(
      `SELECT t.id, t.bank_account_id AS account, t.date, t.amount_minor AS amount, t.currency FROM transactions t
       WHERE t.team_id = ? AND t.date BETWEEN ? AND ? AND t.bank_account_id <> ?
         AND coalesce(t.internal, 0) = 0 AND t.status NOT IN ('excluded', 'archived')
         AND NOT EXISTS (SELECT 1 FROM transfer_pairs p WHERE p.status IN ('paired', 'dismissed')
           AND (p.out_transaction_id = t.id OR p.in_transaction_id = t.id))`,
    )
    .all(
      teamId,
      addDays(days[0]!, -TRANSFER_WINDOW_DAYS),
      addDays(days[days.length - 1]!, TRANSFER_WINDOW_DAYS),
      plan.accountId,
    ) as { id: string; account: string; date: string; amount: number; currency: string }[];
  const byKey = new Map<string, typeof others>();
  for (const o of others) byKey.set(`${o.currency}|${o.amount}`, [...(byKey.get(`${o.currency}|${o.amount}`) ?? []), o]);
  for (const p of fresh) {
    const found = (byKey.get(`${p.row!.currency}|${-p.row!.amountMinor}`) ?? []).filter(
      (o) => Math.abs(daysBetween(o.date, p.row!.date)) <= TRANSFER_WINDOW_DAYS,
    );
    for (const f of found) {
      out.push({
        transactionId: `row:${p.index}`,
        counterpartId: f.id,
        counterpartAccountId: f.account,
        days: Math.abs(daysBetween(f.date, p.row!.date)),
        unique: found.length === 1,
      });
    }
  }
  return out;
}
