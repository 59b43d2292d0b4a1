import type { CsvMapping } from '../../../src-shared/contract/import-mapping';
import { type ApiBalanceCheck, type BalanceCheck, balanceForApi, checkBalances } from '../../../src-shared/domain/import/balance';
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
import { toMajor } from '../../../src-shared/money';
import type { Db } from '../db';
import { Conflict, InvalidReference, NotFound } from '../errors';
import { publish } from '../events';
import { listFingerprint } from '../list/cursor';
import { keysetPage } from '../list/keyset';
import { write } from '../write';
import { fingerprints } from './fingerprint';
import {
  createBankRows,
  type HeldRow,
  heldRow,
  type LinkSnapshot,
  linkBankRow,
  reconciledAmong,
  removeBankRows,
  restoreLinked,
} from './rows';
import { batchPairs, pairTransfers, removeTransferPair, type TransferCandidate } from './transfers';

/**
 * Import batches (docs/decisions/0062–0066): a bank file planned against the ledger (preview: new, duplicate,
 * linked to a hand-entered row, held for review, rejected; the balance check; an earlier import of the same file),
 * then committed as one SQLite transaction that records every row's outcome, and undone as one.
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

interface Account {
  id: string;
  currency: string;
  name: string;
}

export function importAccount(db: Db, teamId: string, accountId: string): Account {
  const a = db.prepare('SELECT id, currency, name FROM bank_accounts WHERE team_id = ? AND id = ?').get(teamId, accountId) as
    | Account
    | undefined;
  if (!a) throw new NotFound('bank account', accountId);
  return a;
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
      reason: null,
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
  const earlier = db
    .prepare(
      `SELECT id, bank_account_id, created_at FROM import_batches WHERE team_id = ? AND file_sha256 = ? AND status = 'committed'
       ORDER BY created_at DESC LIMIT 1`,
    )
    .get(teamId, parsed.sha256) as { id: string; bank_account_id: string; created_at: string } | undefined;
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

export interface CommitOptions {
  fileName?: string | null;
  mappingName?: string | null;
  /** Commit although the file's balances do not add up (recorded as a warning on the batch). */
  acceptBalanceMismatch?: boolean;
  /** Commit although the same file was imported before (its rows will be duplicates). */
  allowReimport?: boolean;
  /** Progress of the write, for long imports (rows written so far of the total to write). */
  onProgress?: (done: number, total: number) => void;
  /** Called as each phase of the commit begins (long imports show where they are; the bench times them). */
  onPhase?: (phase: 'plan' | 'create' | 'link' | 'review' | 'rows' | 'transfers' | 'rules' | 'done') => void;
  /** Run the team's rules on the created rows (default true). */
  applyRules?: boolean;
  /** Called with the created transaction ids inside the commit's transaction. */
  afterCreate?: (ids: readonly string[]) => void;
}

export interface ImportBatch {
  id: string;
  bankAccountId: string;
  fileName: string | null;
  fileSha256: string;
  fileSize: number;
  format: string;
  encoding: string;
  mapping: CsvMapping | null;
  mappingName: string | null;
  status: 'committed' | 'undone';
  counts: {
    rows: number;
    created: number;
    duplicate: number;
    linked: number;
    review: number;
    rejected: number;
    transfers: number;
  };
  balance: ApiBalanceCheck | null;
  warnings: string[];
  undoneAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface CommitResult {
  batch: ImportBatch;
  createdIds: string[];
  links: { index: number; line: number; transactionId: string; score: number | null }[];
  review: { index: number; line: number; itemId: string; candidates: string[] }[];
  rejected: { index: number; line: number; reason: string }[];
  transfers: { paired: number; suggested: number };
}

const CHUNK = 5000;

/** Plans and commits in one SQLite transaction: all of it or nothing. */
export function commitImport(
  db: Db,
  teamId: string,
  accountId: string,
  parsed: ParseResult,
  options: CommitOptions = {},
): CommitResult {
  return write(
    db,
    teamId,
    (w) => {
      const phase = options.onPhase ?? (() => {});
      phase('plan');
      const plan = planImport(db, teamId, accountId, parsed);
      if (plan.alreadyImported && !options.allowReimport) {
        throw new Conflict(
          `This file was already imported (batch ${plan.alreadyImported.batchId}, ${plan.alreadyImported.createdAt})`,
          'Nothing was written. Re-importing it would only find duplicates; pass allowReimport to record it anyway, or undo the earlier batch first',
        );
      }
      const warnings = [...plan.warnings];
      if (plan.balance.status === 'mismatch') {
        if (!options.acceptBalanceMismatch && plan.balance.openingSource === 'file') {
          throw new Conflict(
            `The statement does not add up: ${plan.balance.message}`,
            'Nothing was written. Fix the file, or pass acceptBalanceMismatch to import it with a warning',
          );
        }
        warnings.push(`Balance check: ${plan.balance.message}`);
      }
      const batchId = w.insert('import_batch', {
        bank_account_id: accountId,
        file_name: options.fileName ?? null,
        file_sha256: plan.sha256,
        file_size: plan.size,
        format: plan.format,
        encoding: plan.encoding,
        mapping: plan.mapping ? JSON.stringify(plan.mapping) : null,
        mapping_name: options.mappingName ?? null,
        status: 'committed',
        rows_total: plan.counts.rows,
        balance: JSON.stringify(plan.balance),
        warnings: JSON.stringify(warnings),
      });

      phase('create');
      const toCreate = plan.rows.filter((r) => r.outcome === 'new');
      const total = toCreate.length + plan.counts.link + plan.counts.review;
      let done = 0;
      const createdIds: string[] = [];
      for (let i = 0; i < toCreate.length; i += CHUNK) {
        const chunk = toCreate.slice(i, i + CHUNK);
        const ids = createBankRows(
          db,
          teamId,
          accountId,
          batchId,
          chunk.map((r) => r.row!),
          plan.format,
        );
        chunk.forEach((r, j) => {
          r.transactionId = ids[j]!;
        });
        createdIds.push(...ids);
        done += chunk.length;
        options.onProgress?.(done, total);
      }
      phase('link');
      const snapshots = new Map<number, LinkSnapshot>();
      const links: CommitResult['links'] = [];
      for (const r of plan.rows) {
        if (r.outcome !== 'link') continue;
        snapshots.set(r.index, linkBankRow(db, teamId, r.transactionId!, batchId, r.row!));
        links.push({ index: r.index, line: r.line, transactionId: r.transactionId!, score: r.score });
        options.onProgress?.(++done, total);
      }
      phase('review');
      const review: CommitResult['review'] = [];
      for (const r of plan.rows) {
        if (r.outcome !== 'review') continue;
        const itemId = w.insert('import_review_item', {
          bank_account_id: accountId,
          batch_id: batchId,
          position: r.index,
          status: 'open',
          row: JSON.stringify({ ...r.row, format: plan.format }),
          candidates: JSON.stringify(r.candidates),
          external_id: r.row!.externalId,
          fingerprint: r.row!.fingerprint,
        });
        r.transactionId = itemId;
        review.push({ index: r.index, line: r.line, itemId, candidates: r.candidates.map((c) => c.transactionId) });
        options.onProgress?.(++done, total);
      }
      phase('rows');
      const insertRow = db.prepare(
        `INSERT INTO import_batch_rows (team_id, batch_id, position, line, outcome, transaction_id, match, reason, date, amount_minor,
           description, external_id, fingerprint, before)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      for (const r of plan.rows) {
        const outcome = r.outcome === 'new' ? 'created' : r.outcome === 'link' ? 'linked' : r.outcome;
        const match = r.outcome === 'link' ? `score ${r.score}` : r.outcome === 'review' ? JSON.stringify(r.candidates) : r.match;
        insertRow.run(
          teamId,
          batchId,
          r.index,
          r.line,
          outcome,
          r.transactionId,
          match,
          r.reason,
          r.row?.date ?? null,
          r.row?.amountMinor ?? null,
          r.row?.description ?? r.row?.name ?? null,
          r.row?.externalId ?? null,
          r.row?.fingerprint ?? null,
          snapshots.has(r.index) ? JSON.stringify({ snapshot: snapshots.get(r.index), row: r.row }) : null,
        );
      }
      phase('transfers');
      const pairing = pairTransfers(db, teamId, [...createdIds, ...links.map((l) => l.transactionId)], batchId);
      // The team's rules (and confident category suggestions) run on the rows the import created, in this transaction
      // (src-main/rules subscribes to the event).
      phase('rules');
      publish(w, 'transactions.imported', { transactionIds: createdIds, runRules: options.applyRules !== false });
      options.afterCreate?.(createdIds);
      phase('done');
      w.update('import_batch', batchId, {
        created_count: createdIds.length,
        duplicate_count: plan.counts.duplicate,
        linked_count: links.length,
        review_count: review.length,
        rejected_count: plan.counts.rejected,
        transfer_count: pairing.paired.length,
      });
      return {
        batch: getImportBatch(db, teamId, batchId),
        createdIds,
        links,
        review,
        rejected: plan.rows
          .filter((r) => r.outcome === 'rejected')
          .map((r) => ({ index: r.index, line: r.line, reason: r.reason ?? '' })),
        transfers: { paired: pairing.paired.length, suggested: pairing.suggested.length },
      };
    },
    { origin: 'import' },
  );
}

interface BatchRow {
  id: string;
  bank_account_id: string;
  file_name: string | null;
  file_sha256: string;
  file_size: number;
  format: string;
  encoding: string;
  mapping: string | null;
  mapping_name: string | null;
  status: 'committed' | 'undone';
  rows_total: number;
  created_count: number;
  duplicate_count: number;
  linked_count: number;
  review_count: number;
  rejected_count: number;
  transfer_count: number;
  balance: string | null;
  warnings: string;
  undone_at: string | null;
  created_at: string;
  updated_at: string;
  currency: string;
}

function toBatch(r: BatchRow): ImportBatch {
  return {
    id: r.id,
    bankAccountId: r.bank_account_id,
    fileName: r.file_name,
    fileSha256: r.file_sha256,
    fileSize: r.file_size,
    format: r.format,
    encoding: r.encoding,
    mapping: r.mapping ? (JSON.parse(r.mapping) as CsvMapping) : null,
    mappingName: r.mapping_name,
    status: r.status,
    counts: {
      rows: r.rows_total,
      created: r.created_count,
      duplicate: r.duplicate_count,
      linked: r.linked_count,
      review: r.review_count,
      rejected: r.rejected_count,
      transfers: r.transfer_count,
    },
    balance: r.balance ? balanceForApi(JSON.parse(r.balance) as BalanceCheck, r.currency) : null,
    warnings: JSON.parse(r.warnings) as string[],
    undoneAt: r.undone_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export function getImportBatch(db: Db, teamId: string, id: string): ImportBatch {
  const r = db
    .prepare(
      'SELECT b.*, a.currency FROM import_batches b JOIN bank_accounts a ON a.id = b.bank_account_id WHERE b.team_id = ? AND b.id = ?',
    )
    .get(teamId, id) as BatchRow | undefined;
  if (!r) throw new NotFound('import batch', id);
  return toBatch(r);
}

export function listImportBatches(
  db: Db,
  teamId: string,
  q: { bankAccountId?: string; cursor?: string; pageSize?: number },
): { data: ImportBatch[]; meta: { cursor: string | null; hasNextPage: boolean; hasPreviousPage: boolean } } {
  const where = ['b.team_id = @team'];
  if (q.bankAccountId) where.push('b.bank_account_id = @account');
  const page = keysetPage(db, {
    from: 'import_batches b',
    id: 'b.id',
    where,
    params: { team: teamId, account: q.bankAccountId ?? null },
    sort: { sql: 'b.created_at', kind: 'text' },
    direction: 'desc',
    pageSize: q.pageSize ?? 50,
    fingerprint: listFingerprint(['import_batches', teamId, q.bankAccountId ?? null]),
    cursor: q.cursor,
  });
  return {
    data: page.ids.map((id) => getImportBatch(db, teamId, id)),
    meta: { cursor: page.cursor, hasNextPage: page.hasNextPage, hasPreviousPage: page.hasPreviousPage },
  };
}

export interface BatchRowOutcome {
  position: number;
  line: number | null;
  outcome: 'created' | 'duplicate' | 'linked' | 'review' | 'rejected';
  transactionId: string | null;
  match: string | null;
  reason: string | null;
  date: string | null;
  amount: number | null;
  description: string | null;
  externalId: string | null;
}

interface OutcomeRow {
  position: number;
  line: number | null;
  outcome: BatchRowOutcome['outcome'];
  transaction_id: string | null;
  match: string | null;
  reason: string | null;
  date: string | null;
  amount_minor: number | null;
  description: string | null;
  external_id: string | null;
  before: string | null;
}

/** A page of a batch's per-row outcomes, in file order; `outcome` filters. */
export function listBatchRows(
  db: Db,
  teamId: string,
  batchId: string,
  q: { outcome?: BatchRowOutcome['outcome']; after?: number; limit?: number },
): { data: BatchRowOutcome[]; next: number | null } {
  const batch = getImportBatch(db, teamId, batchId);
  const currency =
    (db.prepare('SELECT currency FROM bank_accounts WHERE id = ?').pluck().get(batch.bankAccountId) as string) ?? 'EUR';
  const limit = q.limit ?? 200;
  const rows = db
    .prepare(
      `SELECT * FROM import_batch_rows WHERE team_id = @team AND batch_id = @batch AND position > @after
       AND (@outcome IS NULL OR outcome = @outcome) ORDER BY position LIMIT @limit`,
    )
    .all({ team: teamId, batch: batchId, after: q.after ?? -1, outcome: q.outcome ?? null, limit: limit + 1 }) as OutcomeRow[];
  const page = rows.slice(0, limit);
  return {
    data: page.map((r) => ({
      position: r.position,
      line: r.line,
      outcome: r.outcome,
      transactionId: r.transaction_id,
      match: r.match,
      reason: r.reason,
      date: r.date,
      amount: r.amount_minor === null ? null : toMajor(r.amount_minor, currency),
      description: r.description,
      externalId: r.external_id,
    })),
    next: rows.length > limit ? page[page.length - 1]!.position : null,
  };
}

/**
 * Undoes a batch in one transaction: the transfers it paired are unpaired, the rows it linked get back what they
 * were, the rows it created (and the rows created from its review items) are removed, its open review items go.
 * Refused, naming the rows, when any row it created or linked has been reconciled since.
 */
export function undoImportBatch(db: Db, teamId: string, batchId: string): ImportBatch {
  return write(
    db,
    teamId,
    (w) => {
      const batch = getImportBatch(db, teamId, batchId);
      if (batch.status === 'undone') throw new Conflict('The batch is already undone');
      const rows = db
        .prepare(
          `SELECT position, line, outcome, transaction_id, before FROM import_batch_rows
           WHERE team_id = ? AND batch_id = ? AND outcome IN ('created', 'linked') AND transaction_id IS NOT NULL`,
        )
        .all(teamId, batchId) as OutcomeRow[];
      const created = rows.filter((r) => r.outcome === 'created').map((r) => r.transaction_id!);
      const linked = rows.filter((r) => r.outcome === 'linked');
      const touched = [...created, ...linked.map((r) => r.transaction_id!)];
      const reconciled = reconciledAmong(db, teamId, touched);
      if (reconciled.length > 0) {
        const lineOf = new Map(rows.map((r) => [r.transaction_id, r.line]));
        throw new Conflict(
          `The batch cannot be undone: ${reconciled.length} of its rows ${reconciled.length === 1 ? 'was' : 'were'} reconciled since`,
          `Unreconcile first: ${reconciled
            .slice(0, 20)
            .map((r) => `line ${lineOf.get(r.id) ?? '?'} (${r.date} ${r.name}, transaction ${r.id})`)
            .join('; ')}`,
        );
      }
      for (const pairId of batchPairs(db, teamId, batchId, touched)) removeTransferPair(db, teamId, pairId);
      for (const r of linked) {
        const { snapshot } = JSON.parse(r.before!) as { snapshot: LinkSnapshot };
        restoreLinked(db, teamId, r.transaction_id!, snapshot, batchId);
      }
      removeBankRows(db, teamId, created);
      for (const id of db
        .prepare('SELECT id FROM import_review_items WHERE team_id = ? AND batch_id = ?')
        .pluck()
        .all(teamId, batchId) as string[]) {
        w.remove('import_review_item', id);
      }
      w.update('import_batch', batchId, { status: 'undone', undone_at: w.now });
      return getImportBatch(db, teamId, batchId);
    },
    { origin: 'import' },
  );
}

/** Checks an account id from a request: another team's is the same as none. */
export function checkImportAccount(db: Db, teamId: string, accountId: string, field = 'bankAccountId'): Account {
  try {
    return importAccount(db, teamId, accountId);
  } catch {
    throw new InvalidReference(field, `Unknown bank account ${accountId}`);
  }
}
