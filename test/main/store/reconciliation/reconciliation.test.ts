import { afterEach, describe, expect, it } from 'vitest';
import { Conflict, InvalidReference } from '../../../../src-main/store/errors';
import {
  previewReconciliation,
  reconcile,
  statementCurrency,
  unreconcile,
} from '../../../../src-main/store/reconciliation/reconciliation';
import { createTransactions } from '../../../../src-main/store/transactions/create';
import { deleteTransactions } from '../../../../src-main/store/transactions/delete';
import { getTransaction } from '../../../../src-main/store/transactions/read';
import { type Books, books } from '../../import/helpers';

/** Statement reconciliation in the store: the difference, the lines that explain it, the marks and their undo. */
let b: Books;
afterEach(() => b?.db.close());

function ledger(b: Books) {
  return createTransactions(b.db, b.team, [
    { bankAccountId: b.checking, name: 'Opening', amountMinor: 100_000, currency: 'EUR', date: '2026-03-01', manual: true },
    { bankAccountId: b.checking, name: 'Rent', amountMinor: -40_000, currency: 'EUR', date: '2026-03-02', manual: false },
    {
      bankAccountId: b.checking,
      name: 'Printer (hand-entered)',
      amountMinor: -12_900,
      currency: 'EUR',
      date: '2026-03-20',
      manual: true,
    },
    {
      bankAccountId: b.checking,
      name: 'Card',
      amountMinor: -2_500,
      currency: 'EUR',
      date: '2026-03-30',
      manual: false,
      status: 'pending',
    },
    { bankAccountId: b.checking, name: 'Fee', amountMinor: -500, currency: 'EUR', date: '2026-04-01', manual: false },
  ]);
}

describe('reconciliation', () => {
  it('names the hand-entered row the bank never booked, a pending row and a row dated after the statement', () => {
    b = books();
    const [, , printer, card, fee] = ledger(b);
    const input = { bankAccountId: b.checking, statementDate: '2026-03-31' };
    // The bank's statement lacks the hand-entered printer: 600.00, where the ledger's cleared rows say 471.00.
    const gap = previewReconciliation(b.db, b.team, { ...input, statementBalanceMinor: 60_000 });
    expect(gap).toMatchObject({ clearedBalance: 471, difference: 129, balanced: false });
    expect(gap.candidates[0]).toMatchObject({ transactionId: printer, reason: expect.stringMatching(/hand-entered/) });
    expect(previewReconciliation(b.db, b.team, { ...input, statementBalanceMinor: 44_600 }).candidates[0]).toMatchObject({
      transactionId: card,
      reason: expect.stringMatching(/pending/),
    });
    expect(previewReconciliation(b.db, b.team, { ...input, statementBalanceMinor: 46_600 }).candidates[0]).toMatchObject({
      transactionId: fee,
      reason: expect.stringMatching(/after the statement/),
    });
    expect(() => reconcile(b.db, b.team, { ...input, statementBalanceMinor: 60_000 })).toThrow(Conflict);
    expect(getTransaction(b.db, b.team, printer!).reconciledAt).toBeNull();
  });

  it('marks the cleared rows, refuses their deletion, and undoes only the latest reconciliation', () => {
    b = books();
    const [opening, rent, printer] = ledger(b);
    const first = reconcile(b.db, b.team, {
      bankAccountId: b.checking,
      statementDate: '2026-03-10',
      statementBalanceMinor: 60_000,
    });
    expect(first.reconciliation.transactionCount).toBe(2);
    expect(getTransaction(b.db, b.team, rent!).reconciledAt).not.toBeNull();
    expect(() => deleteTransactions(b.db, b.team, [opening!])).toThrow(Conflict);
    const second = reconcile(b.db, b.team, {
      bankAccountId: b.checking,
      statementDate: '2026-03-31',
      statementBalanceMinor: 47_100,
    });
    expect(second.reconciliation.transactionCount).toBe(1);
    expect(() => unreconcile(b.db, b.team, first.reconciliation.id)).toThrow(/later reconciliation/);
    unreconcile(b.db, b.team, second.reconciliation.id);
    expect(getTransaction(b.db, b.team, printer!).reconciledAt).toBeNull();
    expect(getTransaction(b.db, b.team, rent!).reconciledAt).not.toBeNull();
    unreconcile(b.db, b.team, first.reconciliation.id);
    expect(deleteTransactions(b.db, b.team, [printer!])).toEqual([{ id: printer, outcome: 'deleted' }]);
  });

  it('keeps teams apart', () => {
    b = books();
    ledger(b);
    expect(() =>
      previewReconciliation(b.db, b.other, { bankAccountId: b.checking, statementDate: '2026-03-31', statementBalanceMinor: 0 }),
    ).toThrow(/bank account/);
  });

  it("reads a statement's currency from the team's own account, a field error otherwise", () => {
    b = books();
    expect(statementCurrency(b.db, b.team, b.checking)).toBe('EUR');
    expect(() => statementCurrency(b.db, b.other, b.checking)).toThrow(InvalidReference);
    expect(() => statementCurrency(b.db, b.team, 'no-such-account')).toThrow(/Unknown bank account/);
  });
});
