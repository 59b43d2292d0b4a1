/**
 * The ledger stays consistent under random sequences of the account and category operations that write
 * transactions indirectly: opening balances, balance adjustments, cascading account deletes, category deletes and
 * moves. After every step, derived data equals a recomputation (checkLedger), every account's balance is the sum of
 * its transactions, and the change feed knows every record that exists (and tombstones the ones that went).
 */
import { describe, expect, it } from 'vitest';
import {
  createBankAccount,
  deleteBankAccount,
  getBankAccount,
  updateBankAccount,
} from '../../../../src-main/store/bank-accounts/bank-accounts';
import { createCategory, deleteCategory, listCategories, updateCategory } from '../../../../src-main/store/categories/categories';
import { openDatabase } from '../../../../src-main/store/db';
import { Conflict } from '../../../../src-main/store/errors';
import { checkLedger } from '../../../../src-main/store/ledger/maintenance';
import { ensureTeam } from '../../../../src-main/store/teams/teams';
import { createTransactions } from '../../../../src-main/store/transactions/create';
import { deleteTransactions } from '../../../../src-main/store/transactions/delete';
import { updateTransaction } from '../../../../src-main/store/transactions/update';
import { tmpDir } from '../../../helpers/tmp';

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('ledger invariants under account and category operations', () => {
  it.each([1, 2, 3, 4])('holds after every step of random sequence %i', (seed) => {
    const db = openDatabase(tmpDir());
    const teamId = ensureTeam(db, `Invariant ${seed}`).id;
    const rand = prng(seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
    const day = () => `2026-0${int(1, 6)}-${String(int(1, 28)).padStart(2, '0')}`;
    const accounts: string[] = [];
    const custom: string[] = [];
    const slugs = ['rent', 'software', 'meals', 'income', 'travel', null];
    const ops: string[] = [];

    const accountIds = () => db.prepare('SELECT id FROM bank_accounts WHERE team_id = ?').pluck().all(teamId) as string[];
    for (let step = 0; step < 120; step++) {
      const live = accountIds();
      const roll = rand();
      try {
        if (live.length === 0 || roll < 0.12) {
          const currency = pick(['EUR', 'EUR', 'USD']);
          accounts.push(
            createBankAccount(db, teamId, {
              name: `A${step}`,
              currency,
              openingBalanceMinor: rand() < 0.7 ? int(-50_000, 500_000) : undefined,
              openingDate: day(),
            }).id,
          );
          ops.push('account');
        } else if (roll < 0.45) {
          const account = getBankAccount(db, teamId, pick(live));
          const cats = [...slugs, ...custom];
          createTransactions(
            db,
            teamId,
            Array.from({ length: int(1, 6) }, () => {
              const amount = int(-90_000, 90_000) || 1;
              const split = rand() < 0.25;
              const a = Math.trunc(amount / 3);
              return {
                bankAccountId: account.id,
                name: 'T',
                amountMinor: amount,
                currency: account.currency,
                date: day(),
                manual: rand() < 0.5,
                status: pick(['posted', 'posted', 'pending', 'excluded'] as const),
                internal: rand() < 0.1,
                categorySlug: split ? null : pick(cats),
                splits: split
                  ? [
                      { amountMinor: a, categorySlug: pick(cats) },
                      { amountMinor: amount - a, categorySlug: pick(cats) },
                    ]
                  : undefined,
              };
            }),
          );
          ops.push('transactions');
        } else if (roll < 0.55) {
          const name = `Custom ${step}`;
          const parentSlug = rand() < 0.5 ? pick(['operations', 'taxes']) : undefined;
          const parent = listCategories(db, teamId).find((c) => c.slug === parentSlug);
          custom.push(createCategory(db, teamId, { name, parentId: parent?.id }).slug);
          ops.push('category');
        } else if (roll < 0.63 && custom.length) {
          const slug = pick(custom);
          const cat = listCategories(db, teamId).find((c) => c.slug === slug)!;
          deleteCategory(db, teamId, cat.id);
          custom.splice(custom.indexOf(slug), 1);
          ops.push('delete category');
        } else if (roll < 0.68 && custom.length) {
          const [slug, groupSlug] = [pick(custom), pick(['banking-finance', 'operations', 'technology'])];
          const cat = listCategories(db, teamId).find((c) => c.slug === slug)!;
          const group = listCategories(db, teamId).find((c) => c.slug === groupSlug)!;
          updateCategory(db, teamId, cat.id, { parentId: rand() < 0.3 ? null : group.id });
          ops.push('move category');
        } else if (roll < 0.76) {
          const id = pick(live);
          if (getBankAccount(db, teamId, id).manual) {
            updateBankAccount(db, teamId, id, { balanceMinor: int(-100_000, 900_000) });
            ops.push('balance');
          }
        } else if (roll < 0.84) {
          const ids = db
            .prepare('SELECT id FROM transactions WHERE team_id = ? ORDER BY random() LIMIT 3')
            .pluck()
            .all(teamId) as string[];
          if (ids.length) {
            if (rand() < 0.5) deleteTransactions(db, teamId, ids);
            else updateTransaction(db, teamId, ids[0]!, { reconciledAt: rand() < 0.5 ? '2026-07-01T00:00:00.000Z' : null });
            ops.push('transactions changed');
          }
        } else {
          deleteBankAccount(db, teamId, pick(live), { cascade: true });
          ops.push('delete account');
        }
      } catch (err) {
        // Refusals are part of the rules (a reconciled transaction blocks a cascade or a category delete).
        if (!(err instanceof Conflict)) throw err;
        ops.push('refused');
      }

      const where = `seed ${seed}, step ${step} (${ops[ops.length - 1]})`;
      expect(checkLedger(db, teamId), where).toEqual([]);
      const unbalanced = db
        .prepare(
          `SELECT a.id FROM bank_accounts a WHERE a.team_id = ? AND a.balance_minor <>
             coalesce((SELECT sum(amount_minor) FROM transactions t WHERE t.bank_account_id = a.id), 0)`,
        )
        .all(teamId);
      expect(unbalanced, where).toEqual([]);
      const unknown = db
        .prepare(
          `SELECT t.id FROM transactions t WHERE t.team_id = @team AND NOT EXISTS (
             SELECT 1 FROM changes c WHERE c.team_id = @team AND c.entity = 'transaction' AND c.entity_id = t.id AND c.op = 'upsert')`,
        )
        .all({ team: teamId });
      expect(unknown, where).toEqual([]);
      const ghosts = db
        .prepare(
          `SELECT c.entity_id FROM changes c WHERE c.team_id = @team AND c.entity IN ('transaction', 'bank_account') AND c.op = 'upsert'
             AND NOT EXISTS (SELECT 1 FROM transactions t WHERE t.id = c.entity_id)
             AND NOT EXISTS (SELECT 1 FROM bank_accounts a WHERE a.id = c.entity_id)`,
        )
        .all({ team: teamId });
      expect(ghosts, where).toEqual([]);
      const orphans = db.prepare('SELECT count(*) FROM ledger_daily d WHERE d.team_id = ? AND d.count < 0').pluck().get(teamId);
      expect(orphans, where).toBe(0);
    }
    // The sequences reach every kind of operation.
    for (const kind of ['account', 'transactions', 'category', 'delete category', 'move category', 'delete account', 'balance']) {
      expect(ops, `seed ${seed}`).toContain(kind);
    }
    expect(accounts.length).toBeGreaterThan(0);
    db.close();
  });
});
