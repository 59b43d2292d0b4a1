import { formatMinor } from '../../../src-shared/domain/import/amounts';
import { addDays } from '../../../src-shared/domain/import/matching';
import { toMajor } from '../../../src-shared/money';
import type { Db } from '../db';
import { Conflict, InvalidReference, NotFound } from '../errors';
import { ledgerWrite } from '../ledger/derived-data';
import { listFingerprint } from '../list/cursor';
import { keysetPage } from '../list/keyset';
import { updateTransactions } from '../transactions/update';

/**
 * Statement reconciliation (docs/decisions/0066-reconciliation.md): the person enters a bank statement's closing
 * balance and date; the account's cleared transactions up to that date (posted, completed, exported — not pending,
 * excluded or archived) are summed and compared. When they agree, the not yet reconciled ones are marked reconciled
 * (the ledger then refuses changes to their amount, date, status, splits and internal flag, and their deletion).
 * When they do not, nothing is marked and the difference comes with the lines that could explain it. Undo clears
 * the marks of the account's latest reconciliation.
 */
const CLEARED = "('posted', 'completed', 'exported')";

export interface ReconciliationInput {
  bankAccountId: string;
  statementDate: string;
  statementBalanceMinor: number;
}

export interface ReconciliationCandidate {
  transactionId: string;
  date: string;
  amount: number;
  name: string;
  status: string;
  reason: string;
}

export interface ReconciliationPreview {
  bankAccountId: string;
  currency: string;
  statementDate: string;
  statementBalance: number;
  clearedBalance: number;
  difference: number;
  /** Cleared rows up to the date: already reconciled, and to be marked now. */
  reconciledBefore: number;
  toMark: number;
  balanced: boolean;
  candidates: ReconciliationCandidate[];
  message: string;
}

function accountRow(db: Db, teamId: string, id: string): { id: string; currency: string } | undefined {
  return db.prepare('SELECT id, currency FROM bank_accounts WHERE team_id = ? AND id = ?').get(teamId, id) as
    | { id: string; currency: string }
    | undefined;
}

function account(db: Db, teamId: string, id: string): { id: string; currency: string } {
  const a = accountRow(db, teamId, id);
  if (!a) throw new NotFound('bank account', id);
  return a;
}

/** The currency of the account a statement is entered for (its closing balance is in it): a field error when unknown. */
export function statementCurrency(db: Db, teamId: string, bankAccountId: string): string {
  const a = accountRow(db, teamId, bankAccountId);
  if (!a) throw new InvalidReference('bankAccountId', `Unknown bank account ${bankAccountId}`);
  return a.currency;
}

interface CandRow {
  id: string;
  date: string;
  amount_minor: number;
  name: string;
  status: string;
  manual: number | null;
  external_id: string | null;
}

export function previewReconciliation(db: Db, teamId: string, input: ReconciliationInput): ReconciliationPreview {
  const acc = account(db, teamId, input.bankAccountId);
  const p = { team: teamId, account: acc.id, day: input.statementDate };
  const sums = db
    .prepare(
      `SELECT coalesce(sum(amount_minor), 0) AS cleared, count(*) AS n, coalesce(sum(reconciled_at IS NOT NULL), 0) AS done
       FROM transactions WHERE team_id = @team AND bank_account_id = @account AND date <= @day AND status IN ${CLEARED}`,
    )
    .get(p) as { cleared: number; n: number; done: number };
  const difference = input.statementBalanceMinor - sums.cleared;
  const m = (v: number) => toMajor(v, acc.currency);
  const candidates: ReconciliationCandidate[] = [];
  if (difference !== 0) {
    const seen = new Set<string>();
    const add = (rows: CandRow[], reason: (r: CandRow) => string) => {
      for (const r of rows) {
        if (seen.has(r.id) || candidates.length >= 50) continue;
        seen.add(r.id);
        candidates.push({
          transactionId: r.id,
          date: r.date,
          amount: m(r.amount_minor),
          name: r.name,
          status: r.status,
          reason: reason(r),
        });
      }
    };
    const cols = 'id, date, amount_minor, name, status, manual, external_id';
    // On the statement but not counted: booked after the date by us, still pending, or excluded.
    add(
      db
        .prepare(
          `SELECT ${cols} FROM transactions WHERE team_id = @team AND bank_account_id = @account AND amount_minor = @diff
           AND ((status = 'pending' AND date <= @day) OR (status IN ('excluded', 'archived') AND date <= @day)
             OR (status IN ${CLEARED} AND date > @day AND date <= @after))
           ORDER BY abs(julianday(date) - julianday(@day)), id LIMIT 20`,
        )
        .all({ ...p, diff: difference, after: addDays(input.statementDate, 7) }) as CandRow[],
      (r) =>
        r.status === 'pending'
          ? `pending, so not counted: clearing it closes the gap of ${formatMinor(difference, acc.currency)}`
          : r.date > input.statementDate
            ? `dated ${r.date}, after the statement: if the bank booked it by ${input.statementDate}, it closes the gap`
            : `${r.status}, so not counted: if the bank booked it, it closes the gap`,
    );
    // Counted but not on the statement: a doubled row, a hand-entered one the bank never booked.
    add(
      db
        .prepare(
          `SELECT ${cols} FROM transactions WHERE team_id = @team AND bank_account_id = @account AND amount_minor = @diff
           AND status IN ${CLEARED} AND date <= @day AND reconciled_at IS NULL
           ORDER BY manual DESC, date DESC, id LIMIT 20`,
        )
        .all({ ...p, diff: -difference }) as CandRow[],
      (r) =>
        r.manual === 1 && !r.external_id
          ? 'hand-entered and not matched to a bank row: if the bank never booked it, it explains the gap'
          : 'counted: if it is not on the statement (a doubled line), it explains the gap',
    );
    // Pending rows whose sum could explain it, nearest first.
    add(
      db
        .prepare(
          `SELECT ${cols} FROM transactions WHERE team_id = @team AND bank_account_id = @account AND status = 'pending' AND date <= @day
           ORDER BY date DESC, id LIMIT 20`,
        )
        .all(p) as CandRow[],
      () => 'pending, so not counted',
    );
  }
  return {
    bankAccountId: acc.id,
    currency: acc.currency,
    statementDate: input.statementDate,
    statementBalance: m(input.statementBalanceMinor),
    clearedBalance: m(sums.cleared),
    difference: m(difference),
    reconciledBefore: sums.done,
    toMark: sums.n - sums.done,
    balanced: difference === 0,
    candidates,
    message:
      difference === 0
        ? `The ${sums.n} cleared transactions up to ${input.statementDate} add up to the statement's ${formatMinor(input.statementBalanceMinor, acc.currency)}`
        : `The cleared transactions up to ${input.statementDate} add up to ${formatMinor(sums.cleared, acc.currency)}, the statement says ${formatMinor(input.statementBalanceMinor, acc.currency)}: a difference of ${formatMinor(difference, acc.currency)}`,
  };
}

export interface Reconciliation {
  id: string;
  bankAccountId: string;
  statementDate: string;
  statementBalance: number;
  currency: string;
  transactionCount: number;
  status: 'reconciled' | 'undone';
  undoneAt: string | null;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: string;
  bank_account_id: string;
  statement_date: string;
  statement_balance_minor: number;
  currency: string;
  transaction_count: number;
  status: Reconciliation['status'];
  undone_at: string | null;
  created_at: string;
  updated_at: string;
}

const toRec = (r: Row): Reconciliation => ({
  id: r.id,
  bankAccountId: r.bank_account_id,
  statementDate: r.statement_date,
  statementBalance: toMajor(r.statement_balance_minor, r.currency),
  currency: r.currency,
  transactionCount: r.transaction_count,
  status: r.status,
  undoneAt: r.undone_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export function getReconciliation(db: Db, teamId: string, id: string): Reconciliation {
  const r = db.prepare('SELECT * FROM reconciliations WHERE team_id = ? AND id = ?').get(teamId, id) as Row | undefined;
  if (!r) throw new NotFound('reconciliation', id);
  return toRec(r);
}

export function listReconciliations(db: Db, teamId: string, q: { bankAccountId?: string; cursor?: string; pageSize?: number }) {
  const where = ['r.team_id = @team'];
  if (q.bankAccountId) where.push('r.bank_account_id = @account');
  const page = keysetPage(db, {
    from: 'reconciliations r',
    id: 'r.id',
    where,
    params: { team: teamId, account: q.bankAccountId ?? null },
    sort: { sql: 'r.created_at', kind: 'text' },
    direction: 'desc',
    pageSize: q.pageSize ?? 50,
    fingerprint: listFingerprint(['reconciliations', teamId, q.bankAccountId ?? null]),
    cursor: q.cursor,
  });
  return {
    data: page.ids.map((id) => getReconciliation(db, teamId, id)),
    meta: { cursor: page.cursor, hasNextPage: page.hasNextPage, hasPreviousPage: page.hasPreviousPage },
  };
}

/** Reconciles when the statement agrees; a difference is a Conflict naming it (nothing is marked). */
export function reconcile(
  db: Db,
  teamId: string,
  input: ReconciliationInput,
): { reconciliation: Reconciliation; preview: ReconciliationPreview } {
  return ledgerWrite(db, teamId, (lw) => {
    const preview = previewReconciliation(db, teamId, input);
    if (!preview.balanced) {
      throw new Conflict(
        preview.message,
        'Nothing was marked. Preview the reconciliation for the lines that could explain the difference',
      );
    }
    const acc = account(db, teamId, input.bankAccountId);
    const ids = db
      .prepare(
        `SELECT id FROM transactions WHERE team_id = ? AND bank_account_id = ? AND date <= ? AND status IN ${CLEARED}
         AND reconciled_at IS NULL`,
      )
      .pluck()
      .all(teamId, acc.id, input.statementDate) as string[];
    const id = lw.w.insert('reconciliation', {
      bank_account_id: acc.id,
      statement_date: input.statementDate,
      statement_balance_minor: input.statementBalanceMinor,
      currency: acc.currency,
      transaction_count: ids.length,
      status: 'reconciled',
    });
    if (ids.length)
      updateTransactions(
        db,
        teamId,
        ids,
        { reconciledAt: lw.w.now, extra: { reconciliation_id: id } },
        { source: 'system', sourceId: id },
      );
    return { reconciliation: getReconciliation(db, teamId, id), preview };
  });
}

/** Clears the marks of a reconciliation; only the account's latest standing one (a later one rests on it). */
export function unreconcile(db: Db, teamId: string, id: string): Reconciliation {
  return ledgerWrite(db, teamId, (lw) => {
    const rec = getReconciliation(db, teamId, id);
    if (rec.status === 'undone') throw new Conflict('The reconciliation is already undone');
    const later = db
      .prepare(
        `SELECT id, statement_date FROM reconciliations WHERE team_id = ? AND bank_account_id = ? AND status = 'reconciled'
         AND id <> ? AND (statement_date > ? OR (statement_date = ? AND created_at > ?)) LIMIT 1`,
      )
      .get(teamId, rec.bankAccountId, id, rec.statementDate, rec.statementDate, rec.createdAt) as
      | { id: string; statement_date: string }
      | undefined;
    if (later)
      throw new Conflict(`A later reconciliation (${later.statement_date}, ${later.id}) rests on this one`, 'Undo it first');
    const ids = db
      .prepare('SELECT id FROM transactions WHERE team_id = ? AND reconciliation_id = ?')
      .pluck()
      .all(teamId, id) as string[];
    if (ids.length)
      updateTransactions(
        db,
        teamId,
        ids,
        { reconciledAt: null, extra: { reconciliation_id: null } },
        { source: 'system', sourceId: id },
      );
    lw.w.update('reconciliation', id, { status: 'undone', undone_at: lw.w.now });
    return getReconciliation(db, teamId, id);
  });
}
