import type { AccountType, BankAccount } from '../../../src-shared/contract/bank-accounts';
import { toMajor } from '../../../src-shared/money';
import { normalizeIban } from '../../../src-shared/validation/iban';
import { ensureCategoriesOnce } from '../categories/categories';
import type { Db } from '../db';
import { Conflict, InvalidReference, NotFound } from '../errors';
import { accountInstitution } from '../institutions/institutions';
import { createTransactions } from '../transactions/create';
import { deleteTransactions } from '../transactions/delete';
import { dropPaymentSuggestions, refuseIfHeld } from '../transactions/holders';
import { write } from '../write';

/**
 * Bank accounts of a team (docs/decisions/0054-bank-accounts-and-balances.md).
 *
 * An account's `balance_minor` is the sum of its transactions, every status (the ledger keeps it in the same
 * transaction as every transaction write, ledger-write.ts). So figures never come from anywhere else: a manual
 * account's opening balance is an "Opening balance" transaction and a balance set by hand a "Balance adjustment"
 * transaction, both status excluded (in the balance, out of reports), both written through createTransactions.
 *
 * Deleting an account with transactions needs `cascade`. The ledger deletes manual transactions but only excludes
 * bank lines (deleteTransactions), and a transaction cannot outlive its account (foreign key), so the cascade runs in
 * one write: (1) refuse if any transaction is reconciled, or held by an invoice's payment or a matched receipt
 * (transaction-holders.ts); (2) deleteTransactions on all of them — manual ones go,
 * bank lines become excluded, and the ledger takes every one of them out of the daily roll-up; (3) the now excluded
 * bank lines, which no report counts any more, are removed with a tombstone each (splits, tags, attachments and
 * provenance go with them by foreign key; the search index by trigger); (4) the account goes. Nothing derived is
 * left pointing at the account.
 */

interface Row {
  id: string;
  name: string;
  type: AccountType;
  currency: string;
  balance_minor: number;
  enabled: number;
  manual: number;
  institution_id: string | null;
  institution_name: string | null;
  institution_logo: string | null;
  enrollment_id: string | null;
  resource_id: string | null;
  expires_at: string | null;
  iban: string | null;
  created_at: string;
  updated_at: string;
  team_country: string | null;
}

const SELECT = `SELECT a.*, (SELECT country_code FROM teams t WHERE t.id = a.team_id) AS team_country FROM bank_accounts a`;

function toAccount(r: Row): BankAccount {
  return {
    id: r.id,
    name: r.name,
    type: r.type,
    balance: { amount: toMajor(r.balance_minor, r.currency), currency: r.currency },
    currency: r.currency,
    institution: accountInstitution({ ...r, teamCountry: r.team_country }),
    enrollment_id: r.enrollment_id,
    resource_id: r.resource_id,
    expires_at: r.expires_at,
    manual: r.manual === 1,
    enabled: r.enabled === 1,
    iban: r.iban,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function getRow(db: Db, teamId: string, id: string): Row | undefined {
  return db.prepare(`${SELECT} WHERE a.team_id = ? AND a.id = ?`).get(teamId, id) as Row | undefined;
}

export function getBankAccount(db: Db, teamId: string, id: string): BankAccount {
  const row = getRow(db, teamId, id);
  if (!row) throw new NotFound('bank account', id);
  return toAccount(row);
}

export function listBankAccounts(db: Db, teamId: string, filters: { enabled?: boolean; manual?: boolean } = {}): BankAccount[] {
  const where = ['a.team_id = @team'];
  if (filters.enabled !== undefined) where.push(`a.enabled = ${filters.enabled ? 1 : 0}`);
  if (filters.manual !== undefined) where.push(`a.manual = ${filters.manual ? 1 : 0}`);
  const rows = db
    .prepare(`${SELECT} WHERE ${where.join(' AND ')} ORDER BY a.name COLLATE NOCASE, a.id`)
    .all({ team: teamId }) as Row[];
  return rows.map(toAccount);
}

function transactionCount(db: Db, teamId: string, accountId: string): number {
  return db
    .prepare('SELECT count(*) FROM transactions WHERE team_id = ? AND bank_account_id = ?')
    .pluck()
    .get(teamId, accountId) as number;
}

/** How many transactions the team has (the ledger commands' progress lines). */
export function teamTransactionCount(db: Db, teamId: string): number {
  return db.prepare('SELECT count(*) FROM transactions WHERE team_id = ?').pluck().get(teamId) as number;
}

/**
 * The balance wrapper's content: the account's balance, or null while a connected account has no transactions yet
 * (its balance is unknown until its bank data arrives; a manual account without transactions holds 0).
 */
export function accountBalance(db: Db, teamId: string, id: string): { amount: number; currency: string } | null {
  const row = getRow(db, teamId, id);
  if (!row) throw new NotFound('bank account', id);
  if (row.manual !== 1 && transactionCount(db, teamId, id) === 0) return null;
  return { amount: toMajor(row.balance_minor, row.currency), currency: row.currency };
}

export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

export interface NewBankAccount {
  /** A caller-chosen id (a sync replica's). */
  id?: string;
  name: string;
  currency: string;
  type?: AccountType;
  enabled?: boolean;
  /** False for an account a bank connection keeps (only a sync pull creates one here). Default true. */
  manual?: boolean;
  /** Minor units; a non-zero one becomes the "Opening balance" transaction. */
  openingBalanceMinor?: number;
  openingDate?: string;
  /** Without spaces (the contract normalizes it). */
  iban?: string | null;
}

export const OPENING_BALANCE = 'Opening balance';
export const BALANCE_ADJUSTMENT = 'Balance adjustment';

/** Creates an account (and its opening balance transaction) in one write: a manual one unless a sync pull says not. */
export function createBankAccount(db: Db, teamId: string, input: NewBankAccount): BankAccount {
  return write(db, teamId, (w) => {
    // A team's first account is where its ledger starts: it needs the category taxonomy from here on.
    ensureCategoriesOnce(db, teamId);
    const id = w.insert('bank_account', {
      id: input.id,
      name: input.name,
      type: input.type ?? 'depository',
      currency: input.currency,
      balance_minor: 0,
      enabled: input.enabled === false ? 0 : 1,
      manual: input.manual === false ? 0 : 1,
      iban: input.iban ?? null,
    });
    if (input.openingBalanceMinor) {
      createTransactions(db, teamId, [
        {
          bankAccountId: id,
          name: OPENING_BALANCE,
          amountMinor: input.openingBalanceMinor,
          currency: input.currency,
          date: input.openingDate ?? todayUtc(new Date(w.now)),
          manual: true,
          status: 'excluded',
          method: 'other',
        },
      ]);
    }
    return getBankAccount(db, teamId, id);
  });
}

export interface BankAccountChange {
  name?: string;
  type?: AccountType;
  enabled?: boolean;
  currency?: string;
  /** Manual accounts: the wanted balance in minor units of the (new) currency; the difference is booked today. */
  balanceMinor?: number;
  iban?: string | null;
}

export function updateBankAccount(db: Db, teamId: string, id: string, change: BankAccountChange): BankAccount {
  return write(db, teamId, (w) => {
    const row = getRow(db, teamId, id);
    if (!row) throw new NotFound('bank account', id);
    if (change.currency !== undefined && change.currency !== row.currency) {
      if (row.manual !== 1) {
        throw new Conflict('A connected account keeps the currency its bank reports', 'field: currency');
      }
      const count = transactionCount(db, teamId, id);
      if (count > 0) {
        throw new Conflict(
          `The account has ${count} transaction${count === 1 ? '' : 's'} in ${row.currency}`,
          'field: currency (it can change only while the account has no transactions)',
        );
      }
    }
    w.update('bank_account', id, {
      name: change.name,
      type: change.type,
      enabled: change.enabled === undefined ? undefined : change.enabled ? 1 : 0,
      currency: change.currency,
      iban: change.iban,
    });
    if (change.balanceMinor !== undefined) {
      if (row.manual !== 1) {
        throw new Conflict(
          "A connected account's balance comes from its bank transactions",
          'field: balance (only manual accounts take a balance)',
        );
      }
      const current = db.prepare('SELECT balance_minor FROM bank_accounts WHERE id = ?').pluck().get(id) as number;
      const difference = change.balanceMinor - current;
      if (difference !== 0) {
        createTransactions(db, teamId, [
          {
            bankAccountId: id,
            name: BALANCE_ADJUSTMENT,
            amountMinor: difference,
            currency: change.currency ?? row.currency,
            date: todayUtc(new Date(w.now)),
            manual: true,
            status: 'excluded',
            method: 'other',
          },
        ]);
      }
    }
    return getBankAccount(db, teamId, id);
  });
}

/** Deletes an account; with `cascade` its transactions too (see the module header). */
export function deleteBankAccount(
  db: Db,
  teamId: string,
  id: string,
  options: { cascade?: boolean } = {},
): { account: BankAccount; transactionsDeleted: number } {
  return write(db, teamId, (w) => {
    const account = getBankAccount(db, teamId, id);
    const ids = db
      .prepare('SELECT id FROM transactions WHERE team_id = ? AND bank_account_id = ? ORDER BY date, id')
      .pluck()
      .all(teamId, id) as string[];
    if (ids.length > 0 && !options.cascade) {
      throw new Conflict(
        `The account has ${ids.length} transaction${ids.length === 1 ? '' : 's'}`,
        'Delete them first, or pass ?cascade=true to delete the account together with its transactions',
      );
    }
    if (ids.length > 0) {
      const reconciled = db
        .prepare('SELECT count(*) FROM transactions WHERE team_id = ? AND bank_account_id = ? AND reconciled_at IS NOT NULL')
        .pluck()
        .get(teamId, id) as number;
      if (reconciled > 0) {
        throw new Conflict(
          `${reconciled} transaction${reconciled === 1 ? ' of the account is' : 's of the account are'} reconciled`,
          'Unreconcile them first: a reconciled transaction is never deleted',
        );
      }
      // The excluded bank lines are removed below too, so every one of them must be free, not only the manual ones.
      refuseIfHeld(db, teamId, ids);
      dropPaymentSuggestions(w, db, teamId, ids);
      const outcomes = deleteTransactions(db, teamId, ids);
      // Excluded now, so counted by no report and no roll-up: removing them changes no figure of any other account.
      for (const o of outcomes) if (o.outcome === 'excluded') w.remove('transaction', o.id);
    }
    w.remove('bank_account', id);
    return { account, transactionsDeleted: ids.length };
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Statements.

export interface StatementLine {
  id: string;
  date: string;
  name: string;
  description: string | null;
  counterpartyName: string | null;
  status: string;
  amountMinor: number;
  balanceMinor: number;
}

export interface StatementData {
  account: BankAccount;
  /** The account's IBAN: its own, else the one its latest imported bank statement named. */
  iban: string | null;
  from: string;
  to: string;
  openingMinor: number;
  closingMinor: number;
  inflowMinor: number;
  outflowMinor: number;
  lines: StatementLine[];
}

/** Most transactions one statement shows. */
export const MAX_STATEMENT_LINES = 20_000;

/**
 * What a statement of the account for [from, to] shows: the balance before `from`, every transaction of the period in
 * booking order (date, id — the ledger's running-balance order) with its running balance, and the balance after.
 * The account's own "Opening balance" transaction is where its ledger starts, not money that came in: inside the
 * period it is taken into the opening balance rather than listed (and counted in money in), and the running
 * balances are opening + Σ amounts line by line (docs/decisions/0057).
 */
export function statementData(db: Db, teamId: string, accountId: string, from: string, to: string): StatementData {
  if (from > to) throw new InvalidReference('to', 'to must not be before from');
  return db.transaction(() => {
    const account = getBankAccount(db, teamId, accountId);
    const count = db
      .prepare('SELECT count(*) FROM transactions WHERE team_id = ? AND bank_account_id = ? AND date >= ? AND date <= ?')
      .pluck()
      .get(teamId, accountId, from, to) as number;
    if (count > MAX_STATEMENT_LINES) {
      throw new InvalidReference(
        'to',
        `The period holds ${count} transactions; a statement shows at most ${MAX_STATEMENT_LINES}: choose a shorter period`,
      );
    }
    const balanceBefore =
      (db
        .prepare(
          `SELECT balance_minor FROM transactions INDEXED BY transactions_account_walk
           WHERE team_id = ? AND bank_account_id = ? AND date < ? ORDER BY date DESC, id DESC LIMIT 1`,
        )
        .pluck()
        .get(teamId, accountId, from) as number | null | undefined) ?? 0;
    const rows = db
      .prepare(
        `SELECT id, date, name, description, counterparty_name, status, amount_minor, balance_minor, manual
           FROM transactions INDEXED BY transactions_account_walk
           WHERE team_id = ? AND bank_account_id = ? AND date >= ? AND date <= ? ORDER BY date, id`,
      )
      .all(teamId, accountId, from, to) as {
      id: string;
      date: string;
      name: string;
      description: string | null;
      counterparty_name: string | null;
      status: string;
      amount_minor: number;
      balance_minor: number;
      manual: number | null;
    }[];
    const isOpening = (r: (typeof rows)[number]) => r.name === OPENING_BALANCE && r.status === 'excluded' && r.manual === 1;
    let openingMinor = balanceBefore;
    for (const r of rows) if (isOpening(r)) openingMinor += r.amount_minor;
    let balance = openingMinor;
    let inflowMinor = 0;
    let outflowMinor = 0;
    const lines: StatementLine[] = [];
    for (const r of rows) {
      if (isOpening(r)) continue;
      balance += r.amount_minor;
      if (r.amount_minor >= 0) inflowMinor += r.amount_minor;
      else outflowMinor -= r.amount_minor;
      lines.push({
        id: r.id,
        date: r.date,
        name: r.name,
        description: r.description,
        counterpartyName: r.counterparty_name,
        status: r.status,
        amountMinor: r.amount_minor,
        balanceMinor: balance,
      });
    }
    const closingMinor = balance;
    const iban = account.iban ?? importedIban(db, teamId, accountId);
    return { account, iban, from, to, openingMinor, closingMinor, inflowMinor, outflowMinor, lines };
  })();
}

/** The IBAN the account's latest imported bank statement named (MT940 :25:, camt, OFX), if it was one. */
function importedIban(db: Db, teamId: string, accountId: string): string | null {
  const refs = db
    .prepare(
      `SELECT account_ref FROM import_batches WHERE team_id = ? AND bank_account_id = ? AND account_ref IS NOT NULL
       ORDER BY created_at DESC LIMIT 5`,
    )
    .pluck()
    .all(teamId, accountId) as string[];
  for (const ref of refs) {
    const iban = normalizeIban(ref);
    if (iban) return iban;
  }
  return null;
}
