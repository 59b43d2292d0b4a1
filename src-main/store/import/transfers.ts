import { addDays, daysBetween, TRANSFER_WINDOW_DAYS } from '../../../src-shared/domain/import/matching';
import { toMajor } from '../../../src-shared/money';
import type { Db } from '../db';
import { Conflict, NotFound } from '../errors';
import { updateTransaction } from '../transactions/update';
import { write } from '../write';

/**
 * Transfers between the team's own accounts (docs/decisions/0065-transfer-pairing.md): a debit on one account and a
 * credit of exactly the same amount and currency on another, booked within TRANSFER_WINDOW_DAYS of each other
 * (either way), become one linked pair, both marked internal — so the roll-up leaves them out of income, expense
 * and every metric. Pairing runs on each commit for the rows it created or linked, against every other account's
 * rows, so it works whichever file arrives first. A pair is applied only when each side has exactly one candidate;
 * otherwise every candidate pair is stored as a suggestion for a person. Unpairing restores both rows' internal flag.
 */

interface Side {
  id: string;
  bank_account_id: string;
  amount_minor: number;
  currency: string;
  date: string;
  internal: number | null;
}

const ELIGIBLE = `coalesce(t.internal, 0) = 0 AND t.status NOT IN ('excluded', 'archived') AND t.amount_minor <> 0`;

/** Rows already in a pair (paired or dismissed): never offered again. */
function taken(db: Db, teamId: string): Set<string> {
  const out = new Set<string>();
  const rows = db
    .prepare(
      "SELECT out_transaction_id AS a, in_transaction_id AS b FROM transfer_pairs WHERE team_id = ? AND status IN ('paired', 'dismissed')",
    )
    .all(teamId) as { a: string; b: string }[];
  for (const r of rows) {
    out.add(r.a);
    out.add(r.b);
  }
  return out;
}

function sides(db: Db, teamId: string, ids: readonly string[]): Side[] {
  // CROSS JOIN keeps the id list first: one primary-key lookup per id (the team index would scan the team instead).
  return db
    .prepare(
      `SELECT t.id, t.bank_account_id, t.amount_minor, t.currency, t.date, t.internal
       FROM json_each(?) j CROSS JOIN transactions t ON t.id = j.value WHERE t.team_id = ? AND ${ELIGIBLE}`,
    )
    .all(JSON.stringify(ids), teamId) as Side[];
}

export interface TransferCandidate {
  transactionId: string;
  counterpartId: string;
  counterpartAccountId: string;
  days: number;
  /** Applied on commit (one candidate each way), else only suggested. */
  unique: boolean;
}

/**
 * The counterparts of the given rows, read only (the preview shows them; the commit applies them). One read of the
 * team's eligible rows around the given rows' days, matched in memory: an import of 100,000 rows asks the database
 * once, not twice per row.
 */
export function transferCandidates(db: Db, teamId: string, ids: readonly string[]): TransferCandidate[] {
  const accounts = db.prepare('SELECT count(*) FROM bank_accounts WHERE team_id = ?').pluck().get(teamId) as number;
  if (accounts < 2 || ids.length === 0) return [];
  const skip = taken(db, teamId);
  const mine = sides(db, teamId, ids).filter((s) => !skip.has(s.id));
  if (mine.length === 0) return [];
  const days = mine.map((s) => s.date).sort();
  const window = 2 * TRANSFER_WINDOW_DAYS;
  const around = (
    db
      .prepare(
        `SELECT t.id, t.bank_account_id, t.amount_minor, t.currency, t.date, t.internal FROM transactions t
         WHERE t.team_id = ? AND t.date BETWEEN ? AND ? AND ${ELIGIBLE}`,
      )
      .all(teamId, addDays(days[0]!, -window), addDays(days[days.length - 1]!, window)) as Side[]
  ).filter((r) => !skip.has(r.id));
  const byKey = new Map<string, Side[]>();
  for (const r of around) {
    const key = `${r.currency}|${r.amount_minor}`;
    const list = byKey.get(key);
    if (list) list.push(r);
    else byKey.set(key, [r]);
  }
  // A counterpart: the opposite amount in the same currency, on another account, within the window.
  const counterparts = (s: Side) =>
    (byKey.get(`${s.currency}|${-s.amount_minor}`) ?? []).filter(
      (c) => c.bank_account_id !== s.bank_account_id && Math.abs(daysBetween(c.date, s.date)) <= TRANSFER_WINDOW_DAYS,
    );
  const out: TransferCandidate[] = [];
  for (const s of mine) {
    const found = counterparts(s);
    for (const c of found) {
      const back = counterparts(c);
      out.push({
        transactionId: s.id,
        counterpartId: c.id,
        counterpartAccountId: c.bank_account_id,
        days: Math.abs(daysBetween(s.date, c.date)),
        unique: found.length === 1 && back.length === 1 && back[0]!.id === s.id,
      });
    }
  }
  return out;
}

export interface PairingResult {
  paired: { pairId: string; outId: string; inId: string }[];
  suggested: { pairId: string; outId: string; inId: string }[];
}

function applyPair(
  db: Db,
  teamId: string,
  outId: string,
  inId: string,
  batchId: string | null,
  days: number,
  pairId?: string,
): string {
  const before: Record<string, number | null> = {};
  for (const id of [outId, inId]) {
    before[id] = db.prepare('SELECT internal FROM transactions WHERE team_id = ? AND id = ?').pluck().get(teamId, id) as
      | number
      | null;
    updateTransaction(db, teamId, id, { internal: true }, { source: 'import', sourceId: batchId, respectLocks: true });
  }
  return write(db, teamId, (w) => {
    if (pairId) {
      w.update('transfer_pair', pairId, { status: 'paired', before: JSON.stringify(before), batch_id: batchId });
      return pairId;
    }
    return w.insert('transfer_pair', {
      out_transaction_id: outId,
      in_transaction_id: inId,
      status: 'paired',
      batch_id: batchId,
      days,
      before: JSON.stringify(before),
    });
  });
}

/** Pairs (or suggests) transfers for the given rows; runs inside the caller's write. */
export function pairTransfers(db: Db, teamId: string, ids: readonly string[], batchId: string | null): PairingResult {
  const result: PairingResult = { paired: [], suggested: [] };
  const done = new Set<string>();
  const candidates = transferCandidates(db, teamId, ids);
  const amountOf = new Map<string, number>();
  const amount = db.prepare('SELECT amount_minor FROM transactions WHERE team_id = ? AND id = ?').pluck();
  for (const c of candidates)
    if (!amountOf.has(c.transactionId)) amountOf.set(c.transactionId, amount.get(teamId, c.transactionId) as number);
  for (const c of candidates) {
    const row = db
      .prepare('SELECT amount_minor FROM transactions WHERE team_id = ? AND id = ?')
      .pluck()
      .get(teamId, c.transactionId) as number;
    const [outId, inId] = row < 0 ? [c.transactionId, c.counterpartId] : [c.counterpartId, c.transactionId];
    const key = `${outId}|${inId}`;
    if (done.has(key)) continue;
    done.add(key);
    if (c.unique && !done.has(`paired:${outId}`) && !done.has(`paired:${inId}`)) {
      done.add(`paired:${outId}`);
      done.add(`paired:${inId}`);
      const existing = db
        .prepare("SELECT id FROM transfer_pairs WHERE out_transaction_id = ? AND in_transaction_id = ? AND status = 'suggested'")
        .pluck()
        .get(outId, inId) as string | undefined;
      result.paired.push({ pairId: applyPair(db, teamId, outId, inId, batchId, c.days, existing), outId, inId });
      continue;
    }
    const exists = db
      .prepare('SELECT 1 FROM transfer_pairs WHERE out_transaction_id = ? AND in_transaction_id = ?')
      .get(outId, inId);
    if (exists) continue;
    const pairId = write(db, teamId, (w) =>
      w.insert('transfer_pair', {
        out_transaction_id: outId,
        in_transaction_id: inId,
        status: 'suggested',
        batch_id: batchId,
        days: c.days,
      }),
    );
    result.suggested.push({ pairId, outId, inId });
  }
  return result;
}

export interface TransferPair {
  id: string;
  status: 'paired' | 'suggested' | 'dismissed';
  outTransactionId: string;
  inTransactionId: string;
  outAccountId: string;
  inAccountId: string;
  amount: number;
  amountMinor: number;
  currency: string;
  outDate: string;
  inDate: string;
  days: number;
  batchId: string | null;
  createdAt: string;
  updatedAt: string;
}

interface PairRow {
  id: string;
  status: TransferPair['status'];
  out_transaction_id: string;
  in_transaction_id: string;
  batch_id: string | null;
  days: number;
  before: string | null;
  created_at: string;
  updated_at: string;
  out_account: string;
  in_account: string;
  amount_minor: number;
  currency: string;
  out_date: string;
  in_date: string;
}

const PAIR_SELECT = `SELECT p.*, o.bank_account_id AS out_account, i.bank_account_id AS in_account, i.amount_minor, i.currency,
  o.date AS out_date, i.date AS in_date
  FROM transfer_pairs p JOIN transactions o ON o.id = p.out_transaction_id JOIN transactions i ON i.id = p.in_transaction_id`;

function toPair(r: PairRow, toMajor: (m: number, c: string) => number): TransferPair {
  return {
    id: r.id,
    status: r.status,
    outTransactionId: r.out_transaction_id,
    inTransactionId: r.in_transaction_id,
    outAccountId: r.out_account,
    inAccountId: r.in_account,
    amount: toMajor(r.amount_minor, r.currency),
    amountMinor: r.amount_minor,
    currency: r.currency,
    outDate: r.out_date,
    inDate: r.in_date,
    days: r.days,
    batchId: r.batch_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function pairRow(db: Db, teamId: string, id: string): PairRow {
  const r = db.prepare(`${PAIR_SELECT} WHERE p.team_id = ? AND p.id = ?`).get(teamId, id) as PairRow | undefined;
  if (!r) throw new NotFound('transfer pair', id);
  return r;
}

export function getTransferPair(db: Db, teamId: string, id: string): TransferPair {
  return toPair(pairRow(db, teamId, id), toMajor);
}

export function listTransferPairs(
  db: Db,
  teamId: string,
  q: { status?: TransferPair['status']; accountId?: string; batchId?: string; limit?: number },
): TransferPair[] {
  const where = ['p.team_id = @team'];
  if (q.status) where.push('p.status = @status');
  if (q.accountId) where.push('(o.bank_account_id = @account OR i.bank_account_id = @account)');
  if (q.batchId) where.push('p.batch_id = @batch');
  return (
    db.prepare(`${PAIR_SELECT} WHERE ${where.join(' AND ')} ORDER BY p.created_at DESC, p.id DESC LIMIT @limit`).all({
      team: teamId,
      status: q.status ?? null,
      account: q.accountId ?? null,
      batch: q.batchId ?? null,
      limit: q.limit ?? 200,
    }) as PairRow[]
  ).map((r) => toPair(r, toMajor));
}

/** Unpairs: both rows get back the internal flag they had; the pair is kept as dismissed so it is not offered again. */
export function unpairTransfer(db: Db, teamId: string, id: string, sourceId: string | null = null): TransferPair {
  return write(
    db,
    teamId,
    (w) => {
      const r = pairRow(db, teamId, id);
      if (r.status === 'paired') {
        const before = JSON.parse(r.before ?? '{}') as Record<string, number | null>;
        for (const tx of [r.out_transaction_id, r.in_transaction_id]) {
          updateTransaction(
            db,
            teamId,
            tx,
            { internal: before[tx] === 1 },
            { source: 'import', sourceId: sourceId ?? r.batch_id },
          );
        }
      }
      w.update('transfer_pair', id, { status: 'dismissed' });
      return getTransferPair(db, teamId, id);
    },
    { origin: 'import' },
  );
}

/** Applies a suggested pair (a person's decision); the other suggestions of either row are dismissed. */
export function acceptTransfer(db: Db, teamId: string, id: string): TransferPair {
  return write(
    db,
    teamId,
    (w) => {
      const r = pairRow(db, teamId, id);
      if (r.status !== 'suggested') throw new Conflict(`The transfer pair is ${r.status}, not suggested`);
      const taken = db
        .prepare(
          "SELECT 1 FROM transfer_pairs WHERE status = 'paired' AND (out_transaction_id IN (?, ?) OR in_transaction_id IN (?, ?))",
        )
        .get(r.out_transaction_id, r.in_transaction_id, r.out_transaction_id, r.in_transaction_id);
      if (taken) throw new Conflict('One of the two transactions is already paired with another');
      applyPair(db, teamId, r.out_transaction_id, r.in_transaction_id, r.batch_id, r.days, id);
      const others = db
        .prepare(
          `SELECT id FROM transfer_pairs WHERE team_id = ? AND status = 'suggested' AND id <> ?
           AND (out_transaction_id IN (?, ?) OR in_transaction_id IN (?, ?))`,
        )
        .pluck()
        .all(teamId, id, r.out_transaction_id, r.in_transaction_id, r.out_transaction_id, r.in_transaction_id) as string[];
      for (const o of others) w.update('transfer_pair', o, { status: 'dismissed' });
      return getTransferPair(db, teamId, id);
    },
    { origin: 'import' },
  );
}

/** Pairs of a batch (applied or suggested), for undo. */
export function batchPairs(db: Db, teamId: string, batchId: string, txIds: readonly string[]): string[] {
  const ids = new Set(
    db.prepare('SELECT id FROM transfer_pairs WHERE team_id = ? AND batch_id = ?').pluck().all(teamId, batchId) as string[],
  );
  const stmt = db.prepare(
    'SELECT id FROM transfer_pairs WHERE team_id = ? AND (out_transaction_id = ? OR in_transaction_id = ?)',
  );
  for (const t of txIds) for (const id of stmt.pluck().all(teamId, t, t) as string[]) ids.add(id);
  return [...ids];
}

/** Removes a pair record outright (undo of the batch that made it, after its rows were restored). */
export function removeTransferPair(db: Db, teamId: string, id: string): void {
  const r = pairRow(db, teamId, id);
  write(db, teamId, (w) => {
    if (r.status === 'paired') {
      const before = JSON.parse(r.before ?? '{}') as Record<string, number | null>;
      for (const tx of [r.out_transaction_id, r.in_transaction_id]) {
        updateTransaction(db, teamId, tx, { internal: before[tx] === 1 }, { source: 'import', sourceId: r.batch_id });
      }
    }
    w.remove('transfer_pair', id);
  });
}
