import { afterEach, describe, expect, it } from 'vitest';
import { Prng } from '../../../../src-main/demo/prng';
import { ensureDefaultCategories } from '../../../../src-main/store/categories/categories';
import { currentSeq } from '../../../../src-main/store/changes';
import { type Db, openDatabase } from '../../../../src-main/store/db';
import { Conflict, InvalidReference, NotFound } from '../../../../src-main/store/errors';
import { checkLedger, recomputeBaseAmounts } from '../../../../src-main/store/ledger/maintenance';
import { createTag } from '../../../../src-main/store/tags/tags';
import { updateTeam } from '../../../../src-main/store/teams/team-api';
import { createTeam } from '../../../../src-main/store/teams/teams';
import { attachToTransaction, detachFromTransaction } from '../../../../src-main/store/transactions/attachments';
import { createTransactions, type NewTransaction } from '../../../../src-main/store/transactions/create';
import { deleteTransactions } from '../../../../src-main/store/transactions/delete';
import { listTransactions } from '../../../../src-main/store/transactions/list';
import { getTransaction } from '../../../../src-main/store/transactions/read';
import { reviewCounts } from '../../../../src-main/store/transactions/review';
import { updateTransaction, updateTransactions } from '../../../../src-main/store/transactions/update';
import { write } from '../../../../src-main/store/write';
import { tmpDir } from '../../../helpers/tmp';

let db: Db;
afterEach(() => db?.close());

interface Fixture {
  team: string;
  other: string;
  eur: string;
  usd: string;
}

function fixture(): Fixture {
  db = openDatabase(tmpDir());
  const team = createTeam(db, { name: 'Ledger Co', baseCurrency: 'EUR', countryCode: 'DE' }).id;
  const other = createTeam(db, { name: 'Other Co' }).id;
  for (const t of [team, other]) ensureDefaultCategories(db, t, { countryCode: 'DE' });
  const [eur, usd] = write(db, team, (w) => [
    w.insert('bank_account', { name: 'Checking', type: 'depository', currency: 'EUR', manual: 1 }),
    w.insert('bank_account', { name: 'Dollar', type: 'depository', currency: 'USD', manual: 1 }),
  ]) as [string, string];
  const rate = db.prepare("INSERT INTO fx_rates (currency, day, per_usd, imported_at) VALUES ('EUR', ?, ?, 'test')");
  rate.run('2026-01-01', '0.9');
  rate.run('2026-02-01', '0.95');
  return { team, other, eur, usd };
}

const tx = (f: Fixture, over: Partial<NewTransaction> = {}): NewTransaction => ({
  bankAccountId: f.eur,
  name: 'Coffee',
  amountMinor: -450,
  currency: 'EUR',
  date: '2026-01-15',
  manual: true,
  ...over,
});

describe('creating transactions', () => {
  it('stores the record with its running balance, base amount, review state and report contribution', () => {
    const f = fixture();
    const [a, b] = createTransactions(db, f.team, [
      tx(f, { amountMinor: 100_000, name: 'Opening', date: '2026-01-01', categorySlug: 'income' }),
      tx(f, { amountMinor: -2_500, date: '2026-01-10', categorySlug: 'software' }),
    ]);
    const [usd] = createTransactions(db, f.team, [
      tx(f, { bankAccountId: f.usd, currency: 'USD', amountMinor: -1_000, date: '2026-02-03' }),
    ]);
    expect(getTransaction(db, f.team, a!)).toMatchObject({ balance: 1000, baseAmount: 1000, baseCurrency: 'EUR', manual: true });
    expect(getTransaction(db, f.team, b!)).toMatchObject({
      balance: 975,
      category: { slug: 'software', taxRate: 19, taxType: 'vat' },
      taxRate: 19,
      taxAmount: -3.99,
      reviewState: 'to_review',
    });
    // 10.00 USD at 0.95 EUR per USD (the rate of 2026-02-01, the nearest earlier day).
    expect(getTransaction(db, f.team, usd!)).toMatchObject({ amount: -10, baseAmount: -9.5, baseCurrency: 'EUR' });
    expect(db.prepare('SELECT balance_minor FROM bank_accounts WHERE id = ?').pluck().get(f.eur)).toBe(97_500);
    expect(checkLedger(db, f.team)).toEqual([]);
  });

  it('reports a missing rate as a null base amount, never 1.0', () => {
    const f = fixture();
    const [id] = createTransactions(db, f.team, [tx(f, { bankAccountId: f.usd, currency: 'USD', date: '2025-12-31' })]);
    expect(getTransaction(db, f.team, id!)).toMatchObject({ baseAmount: null, baseCurrency: null });
  });

  it('refuses the wrong currency for the account, an unknown category, another team’s account, uneven splits', () => {
    const f = fixture();
    expect(() => createTransactions(db, f.team, [tx(f, { currency: 'USD' })])).toThrow(/holds EUR/);
    expect(() => createTransactions(db, f.team, [tx(f, { categorySlug: 'nope' })])).toThrow(InvalidReference);
    expect(() => createTransactions(db, f.other, [tx(f)])).toThrow(/Unknown bank account/);
    expect(() =>
      createTransactions(db, f.team, [
        tx(f, {
          splits: [
            { amountMinor: -200, categorySlug: 'meals' },
            { amountMinor: -200, categorySlug: 'travel' },
          ],
        }),
      ]),
    ).toThrow(/sum to -400 .* -450/);
  });

  it('a bulk create is all or nothing', () => {
    const f = fixture();
    expect(() => createTransactions(db, f.team, [tx(f), tx(f), tx(f, { categorySlug: 'bogus' })])).toThrow(/Transaction 2/);
    expect(db.prepare('SELECT count(*) FROM transactions').pluck().get()).toBe(0);
    expect(db.prepare('SELECT balance_minor FROM bank_accounts WHERE id = ?').pluck().get(f.eur)).toBe(0);
  });
});

describe('updating transactions', () => {
  it('changing the category drops the tax override; an override beats the category', () => {
    const f = fixture();
    const [id] = createTransactions(db, f.team, [tx(f, { amountMinor: -11_900, categorySlug: 'software' })]);
    updateTransaction(db, f.team, id!, { taxRate: 7 });
    expect(getTransaction(db, f.team, id!)).toMatchObject({ taxRate: 7, taxOverridden: true, taxAmount: -7.79 });
    updateTransaction(db, f.team, id!, { categorySlug: 'hardware' });
    expect(getTransaction(db, f.team, id!)).toMatchObject({ taxRate: 19, taxOverridden: false, taxAmount: -19 });
  });

  it('moves through the review states as the accountant works', () => {
    const f = fixture();
    const [expense] = createTransactions(db, f.team, [tx(f, { categorySlug: 'meals' })]);
    const [salary] = createTransactions(db, f.team, [tx(f, { categorySlug: 'salary', amountMinor: -300_000 })]);
    const state = (id: string) => getTransaction(db, f.team, id).reviewState;
    expect(state(expense!)).toBe('to_review');
    updateTransaction(db, f.team, expense!, { reviewed: true });
    expect(state(expense!)).toBe('needs_receipt');
    const att = attachToTransaction(db, f.team, expense!, {
      sha256: 'a'.repeat(64),
      filename: 'r.pdf',
      size: 10,
      mimeType: 'application/pdf',
    });
    expect(getTransaction(db, f.team, expense!)).toMatchObject({ reviewState: 'ready', isFulfilled: true });
    detachFromTransaction(db, f.team, expense!, att);
    expect(state(expense!)).toBe('needs_receipt');
    updateTransaction(db, f.team, expense!, { fulfilled: true });
    expect(getTransaction(db, f.team, expense!)).toMatchObject({ status: 'completed', reviewState: 'ready' });
    updateTransaction(db, f.team, expense!, { status: 'exported' });
    expect(state(expense!)).toBe('exported');
    updateTransaction(db, f.team, salary!, { reviewed: true });
    expect(state(salary!)).toBe('ready');
    updateTransaction(db, f.team, salary!, { status: 'excluded' });
    expect(state(salary!)).toBe('excluded');
    expect(reviewCounts(db, f.team, {})).toEqual({ to_review: 0, needs_receipt: 0, ready: 0, exported: 1, excluded: 1 });
  });

  it('a bank line keeps the bank’s facts; a manual one can change them, moving balances and roll-ups', () => {
    const f = fixture();
    const [bank] = createTransactions(db, f.team, [tx(f, { manual: false, amountMinor: -1_000 })], { source: 'import' });
    const [manual] = createTransactions(db, f.team, [tx(f, { amountMinor: -2_000, date: '2026-01-20' })]);
    expect(() => updateTransaction(db, f.team, bank!, { amountMinor: -5 })).toThrow(/come from the bank/);
    updateTransaction(db, f.team, manual!, { amountMinor: -3_000, date: '2026-01-05' });
    expect(getTransaction(db, f.team, manual!).balance).toBe(-30);
    expect(getTransaction(db, f.team, bank!).balance).toBe(-40);
    expect(checkLedger(db, f.team)).toEqual([]);
  });

  it('a person’s field is locked against imports and rules, and each field names who set it', () => {
    const f = fixture();
    const [id] = createTransactions(db, f.team, [tx(f)]);
    updateTransaction(db, f.team, id!, { categorySlug: 'meals', note: 'team lunch' });
    const result = updateTransaction(
      db,
      f.team,
      id!,
      { categorySlug: 'travel', recurring: true },
      {
        source: 'rule',
        sourceId: 'rule-1',
        respectLocks: true,
      },
    );
    expect(result.skipped).toEqual(['category']);
    const t = getTransaction(db, f.team, id!);
    expect(t.category?.slug).toBe('meals');
    expect(t.recurring).toBe(true);
    expect(t.fieldSources.category).toMatchObject({ source: 'user' });
    expect(t.fieldSources.recurring).toMatchObject({ source: 'rule', sourceId: 'rule-1' });
  });

  it('a reconciled transaction refuses statement changes until unreconciled, but takes a note', () => {
    const f = fixture();
    const [id] = createTransactions(db, f.team, [tx(f)]);
    updateTransaction(db, f.team, id!, { reconciledAt: '2026-02-01T00:00:00.000Z' });
    expect(() => updateTransaction(db, f.team, id!, { amountMinor: -1 })).toThrow(Conflict);
    expect(() => deleteTransactions(db, f.team, [id!])).toThrow(Conflict);
    updateTransaction(db, f.team, id!, { note: 'checked' });
    updateTransaction(db, f.team, id!, { reconciledAt: null });
    updateTransaction(db, f.team, id!, { amountMinor: -1 });
    expect(getTransaction(db, f.team, id!).amount).toBe(-0.01);
  });

  it('a bulk update with one unknown or foreign id changes nothing', () => {
    const f = fixture();
    const ids = createTransactions(db, f.team, [tx(f), tx(f), tx(f)]);
    const [foreignAccount] = write(db, f.other, (w) => [
      w.insert('bank_account', { name: 'X', type: 'depository', currency: 'EUR' }),
    ]);
    const [foreign] = createTransactions(db, f.other, [{ ...tx(f), bankAccountId: foreignAccount! }]);
    const before = db.prepare('SELECT * FROM transactions ORDER BY id').all();
    expect(() => updateTransactions(db, f.team, [...ids, foreign!], { note: 'bulk' })).toThrow(NotFound);
    expect(() => updateTransactions(db, f.team, [...ids, 'missing'], { categorySlug: 'meals' })).toThrow(NotFound);
    expect(db.prepare('SELECT * FROM transactions ORDER BY id').all()).toEqual(before);
    updateTransactions(db, f.team, ids, { note: 'bulk', addTagIds: [createTag(db, f.team, { name: 'q1' }).id] });
    expect(ids.map((id) => getTransaction(db, f.team, id).note)).toEqual(['bulk', 'bulk', 'bulk']);
  });
});

describe('deleting transactions', () => {
  it('deletes manual ones and excludes bank lines, keeping balances and roll-ups right', () => {
    const f = fixture();
    const [manual] = createTransactions(db, f.team, [tx(f)]);
    const [bank] = createTransactions(db, f.team, [tx(f, { manual: false })], { source: 'import' });
    expect(deleteTransactions(db, f.team, [manual!, bank!])).toEqual([
      { id: manual, outcome: 'deleted' },
      { id: bank, outcome: 'excluded' },
    ]);
    expect(() => getTransaction(db, f.team, manual!)).toThrow(NotFound);
    expect(getTransaction(db, f.team, bank!)).toMatchObject({ status: 'excluded', reviewState: 'excluded' });
    expect(db.prepare('SELECT count(*) FROM ledger_daily WHERE team_id = ?').pluck().get(f.team)).toBe(0);
    expect(checkLedger(db, f.team)).toEqual([]);
  });
});

describe('ledger invariants', () => {
  it('balances, base amounts, splits and the roll-up equal a recomputation after random operation sequences', () => {
    const f = fixture();
    const rng = new Prng('ledger-invariants');
    const categories = ['meals', 'travel', 'software', 'income', 'salary', null];
    const live: string[] = [];
    const day = () => `2026-0${1 + rng.int(0, 2)}-${String(1 + rng.int(0, 27)).padStart(2, '0')}`;
    for (let step = 0; step < 400; step++) {
      const r = rng.next();
      const pick = () => live[rng.int(0, live.length - 1)]!;
      try {
        if (r < 0.35 || live.length < 3) {
          const usd = rng.chance(0.3);
          const n = rng.int(1, 4);
          live.push(
            ...createTransactions(
              db,
              f.team,
              Array.from({ length: n }, () =>
                tx(f, {
                  bankAccountId: usd ? f.usd : f.eur,
                  currency: usd ? 'USD' : 'EUR',
                  amountMinor: rng.int(-50_000, 50_000) || 1,
                  date: day(),
                  manual: rng.chance(0.5),
                  categorySlug: rng.pick(categories),
                  internal: rng.chance(0.1),
                }),
              ),
              rng.chance(0.5) ? { source: 'user' } : { source: 'import' },
            ),
          );
        } else if (r < 0.5) {
          const id = pick();
          const t = getTransaction(db, f.team, id);
          const a = Math.round(t.amount * 100);
          const first = Math.trunc(a / 3);
          updateTransaction(db, f.team, id, {
            splits: rng.chance(0.2)
              ? null
              : [
                  { amountMinor: first, categorySlug: rng.pick(categories) },
                  { amountMinor: a - first, categorySlug: rng.pick(categories) },
                ],
          });
        } else if (r < 0.65) {
          const id = pick();
          const t = getTransaction(db, f.team, id);
          if (t.manual && t.splits.length === 0) {
            updateTransaction(db, f.team, id, { amountMinor: rng.int(-90_000, 90_000), date: day() });
          }
        } else if (r < 0.8) {
          updateTransaction(db, f.team, pick(), {
            categorySlug: rng.pick(categories),
            internal: rng.chance(0.15),
            status: rng.pick(['posted', 'excluded', 'completed', 'pending']),
          });
        } else if (r < 0.9) {
          const id = pick();
          deleteTransactions(db, f.team, [id]);
          if (!db.prepare('SELECT 1 FROM transactions WHERE id = ?').get(id)) live.splice(live.indexOf(id), 1);
        } else {
          updateTransactions(db, f.team, [pick(), pick()], { categorySlug: rng.pick(categories) });
        }
      } catch (err) {
        // Refusals (a bank line's amount) are part of the sequence; anything else is a failure.
        if (!(err instanceof InvalidReference)) throw err;
      }
      if (step % 50 === 49) {
        expect(checkLedger(db, f.team), `after step ${step}`).toEqual([]);
        expect(recomputeBaseAmounts(db, f.team).updated, `base amounts after step ${step}`).toBe(0);
      }
    }
    const counted = listTransactions(db, f.team, { pageSize: 1000, statuses: ['posted', 'pending', 'completed', 'excluded'] });
    expect(counted.data.length).toBe(live.length);
  });
});

describe('derived data after rates or the base currency change', () => {
  it('recomputes base amounts in the new base currency and moves the team counter so cached reads refresh', () => {
    const f = fixture();
    const [eurTx] = createTransactions(db, f.team, [tx(f, { amountMinor: -950, date: '2026-02-10' })]);
    const [usdTx] = createTransactions(db, f.team, [
      tx(f, { bankAccountId: f.usd, currency: 'USD', amountMinor: -1_000, date: '2026-02-10' }),
    ]);
    expect(getTransaction(db, f.team, usdTx!)).toMatchObject({ baseAmount: -9.5, baseCurrency: 'EUR' });
    const before = currentSeq(db, f.team);
    updateTeam(db, { teamId: f.team, userId: null }, f.team, { baseCurrency: 'USD' });
    expect(getTransaction(db, f.team, usdTx!)).toMatchObject({ baseAmount: -10, baseCurrency: 'USD' });
    expect(getTransaction(db, f.team, eurTx!)).toMatchObject({ baseAmount: -10, baseCurrency: 'USD' });
    expect(currentSeq(db, f.team)).toBeGreaterThan(before);
    expect(recomputeBaseAmounts(db, f.team).updated).toBe(0);
  });

  it('gives a team created without categories the defaults when its first transaction needs one', () => {
    const f = fixture();
    const bare = createTeam(db, { name: 'Bare Co' }).id;
    const account = write(db, bare, (w) => w.insert('bank_account', { name: 'A', type: 'depository', currency: 'EUR' }));
    const [id] = createTransactions(db, bare, [{ ...tx(f), bankAccountId: account, categorySlug: 'meals' }]);
    expect(getTransaction(db, bare, id!).category?.slug).toBe('meals');
  });
});

describe('team isolation', () => {
  it('another team never reads, lists, updates or deletes a transaction', () => {
    const f = fixture();
    const [id] = createTransactions(db, f.team, [tx(f)]);
    expect(() => getTransaction(db, f.other, id!)).toThrow(NotFound);
    expect(() => updateTransaction(db, f.other, id!, { note: 'x' })).toThrow(NotFound);
    expect(() => deleteTransactions(db, f.other, [id!])).toThrow(NotFound);
    expect(listTransactions(db, f.other, {}).data).toEqual([]);
    expect(listTransactions(db, f.team, {}).data.map((t) => t.id)).toEqual([id]);
  });
});
