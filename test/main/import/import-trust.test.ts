import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Conflict } from '../../../src-main/store/errors';
import { getImportBatch, listBatchRows } from '../../../src-main/store/import/batches';
import { createFromReviewItem, linkReviewItem, listReviewItems, unlinkImported } from '../../../src-main/store/import/review';
import { listTransferPairs, unpairTransfer } from '../../../src-main/store/import/transfers';
import { undoImportBatch } from '../../../src-main/store/import/undo';
import { checkLedger } from '../../../src-main/store/ledger/maintenance';
import { reconcile } from '../../../src-main/store/reconciliation/reconciliation';
import { createRule } from '../../../src-main/store/rules/rules';
import { createTransactions } from '../../../src-main/store/transactions/create';
import { getTransaction } from '../../../src-main/store/transactions/read';
import { RuleInput } from '../../../src-shared/contract/rules';
import { ImportRefused } from '../../../src-shared/domain/import/types';
import { accountRows, type Books, books, csv, importFile, preview } from './helpers';

/** The issue-16 table: identical rows are real, re-imports add nothing, links and undo are exact, transfers pair. */
let b: Books;
afterEach(() => b?.db.close());

const FIXTURES = path.resolve(__dirname, '../../fixtures/import');

function weekly(weeks: number, from = 0): [string, string, string, string][] {
  return Array.from({ length: weeks }, (_, i) => {
    const d = new Date(Date.UTC(2026, 0, 5 + 7 * (i + from)));
    const day = `${String(d.getUTCDate()).padStart(2, '0')}.${String(d.getUTCMonth() + 1).padStart(2, '0')}.${d.getUTCFullYear()}`;
    return [day, 'Fitness Club GmbH', 'Mitgliedsbeitrag', '-19,90'];
  });
}

describe('identical rows are real, re-imports add nothing', () => {
  it('keeps two identical purchases on one day as two rows, and re-importing the file adds none', async () => {
    b = books();
    const file = csv([
      ['12.03.2026', 'REWE Markt 4471', 'Kartenzahlung', '-23,45'],
      ['12.03.2026', 'REWE Markt 4471', 'Kartenzahlung', '-23,45'],
      ['13.03.2026', 'Bäckerei Kamps', 'Kartenzahlung', '-3,20'],
    ]);
    const first = await importFile(b, b.checking, file);
    expect(first.batch.counts).toMatchObject({ rows: 3, created: 3, duplicate: 0 });
    // After the commit the team hears of the new rows.
    const note = b.db
      .prepare("SELECT metadata FROM notifications WHERE team_id = ? AND type = 'transactions_created'")
      .pluck()
      .all(b.team);
    expect(note.map((m) => JSON.parse(m as string))).toEqual([expect.objectContaining({ count: 3, batchId: first.batch.id })]);
    expect(accountRows(b, b.checking).filter((r) => r.amount === -2345)).toHaveLength(2);
    // The same file again: reported before anything is written, and even when forced, nothing new.
    await expect(importFile(b, b.checking, file)).rejects.toThrow(/already imported/);
    expect(await preview(b, b.checking, file)).toMatchObject({
      counts: { new: 0, duplicate: 3 },
      alreadyImported: { batchId: first.batch.id },
    });
    const again = await importFile(b, b.checking, file, { allowReimport: true });
    expect(again.batch.counts).toMatchObject({ created: 0, duplicate: 3 });
    expect(accountRows(b, b.checking)).toHaveLength(3);
    expect(checkLedger(b.db, b.team)).toEqual([]);
  });

  it('imports an identical weekly debit as a new row every week; an overlapping file adds only its new weeks', async () => {
    b = books();
    await importFile(b, b.checking, csv(weekly(6)));
    expect(accountRows(b, b.checking)).toHaveLength(6);
    const overlap = await importFile(b, b.checking, csv(weekly(5, 3)));
    expect(overlap.batch.counts).toMatchObject({ rows: 5, created: 2, duplicate: 3 });
    expect(accountRows(b, b.checking)).toHaveLength(8);
  });

  it('imports a back-dated posted row that arrives in a later file, and a second same-day purchase that the first file lacked', async () => {
    b = books();
    await importFile(
      b,
      b.checking,
      csv([
        ['02.03.2026', 'Stadtwerke', 'Strom', '-84,00'],
        ['05.03.2026', 'REWE', 'Karte', '-10,00'],
      ]),
    );
    const later = await importFile(
      b,
      b.checking,
      csv([
        ['01.03.2026', 'Bank', 'Kontoführung Februar', '-4,90'],
        ['02.03.2026', 'Stadtwerke', 'Strom', '-84,00'],
        ['05.03.2026', 'REWE', 'Karte', '-10,00'],
        ['05.03.2026', 'REWE', 'Karte', '-10,00'],
      ]),
    );
    expect(later.batch.counts).toMatchObject({ created: 2, duplicate: 2 });
    expect(accountRows(b, b.checking).map((r) => [r.date, r.amount])).toEqual([
      ['2026-03-01', -490],
      ['2026-03-02', -8400],
      ['2026-03-05', -1000],
      ['2026-03-05', -1000],
    ]);
  });

  it('dedupes by the bank id even when the description changed, and never merges two different bank ids', async () => {
    b = books();
    const ofx = fs.readFileSync(path.join(FIXTURES, 'bank-102.ofx')).toString('latin1');
    const usd = b.db.prepare("UPDATE bank_accounts SET currency = 'USD' WHERE id = ?");
    usd.run(b.checking);
    await importFile(b, b.checking, Buffer.from(ofx, 'latin1'));
    const renamed = ofx.replace('ADOBE *CREATIVE CLOUD', 'ADOBE SYSTEMS').replace('<NEWFILEUID>NONE', '<NEWFILEUID>2');
    const r = await importFile(b, b.checking, Buffer.from(renamed, 'latin1'));
    expect(r.batch.counts).toMatchObject({ created: 0, duplicate: 4 });
  });
});

describe('rules on import', () => {
  it('runs the team’s import rules on the rows the commit created, in the same transaction', async () => {
    b = books();
    createRule(
      b.db,
      b.team,
      RuleInput.parse({
        name: 'Power bills',
        conditions: { field: 'counterparty', op: 'contains', value: 'Stadtwerke' },
        actions: [{ type: 'set_category', categorySlug: 'utilities' }],
        applyOn: ['import'],
      }),
    );
    await importFile(
      b,
      b.checking,
      csv([
        ['02.03.2026', 'Stadtwerke München', 'Strom März', '-84,00'],
        ['03.03.2026', 'REWE', 'Karte', '-10,00'],
      ]),
    );
    expect(accountRows(b, b.checking).map((r) => r.category)).toEqual(['utilities', null]);
    expect(checkLedger(b.db, b.team)).toEqual([]);
  });
});

describe('hand-entered transactions meet the bank file', () => {
  it('links a hand-entered row to the bank row two days later: one transaction, the bank facts, the person’s category and note', async () => {
    b = books();
    const [hand] = createTransactions(b.db, b.team, [
      {
        bankAccountId: b.checking,
        name: 'Coffee with client',
        amountMinor: -1450,
        currency: 'EUR',
        date: '2026-03-10',
        manual: true,
        categorySlug: 'meals',
        note: 'Client: Kunde Nord',
      },
    ]);
    const file = csv([['12.03.2026', 'Coffee Fellows Berlin', 'Kartenzahlung Coffee', '-14,50']]);
    expect((await preview(b, b.checking, file)).rows[0]).toMatchObject({ outcome: 'link', transactionId: hand });
    const r = await importFile(b, b.checking, file);
    expect(r.links).toEqual([{ index: 0, line: 2, transactionId: hand, score: expect.any(Number) }]);
    const rows = accountRows(b, b.checking);
    expect(rows).toHaveLength(1);
    const t = getTransaction(b.db, b.team, hand!);
    expect(t).toMatchObject({
      date: '2026-03-12T00:00:00.000Z',
      description: 'Kartenzahlung Coffee',
      name: 'Coffee with client',
      manual: false,
      note: 'Client: Kunde Nord',
      category: { slug: 'meals' },
    });
    expect(rows[0]!.externalId).toBeNull();
    expect(rows[0]!.fingerprint).not.toBeNull();
    // Unlink: both rows as they were.
    const un = unlinkImported(b.db, b.team, hand!);
    expect(getTransaction(b.db, b.team, hand!)).toMatchObject({
      date: '2026-03-10T00:00:00.000Z',
      manual: true,
      description: null,
    });
    expect(getTransaction(b.db, b.team, un.bankRowId)).toMatchObject({
      amount: -14.5,
      manual: false,
      date: '2026-03-12T00:00:00.000Z',
    });
    expect(checkLedger(b.db, b.team)).toEqual([]);
  });

  it('sends a row with two hand-entered candidates to the review queue, merges nothing, and a person resolves it', async () => {
    b = books();
    const [a, c] = createTransactions(b.db, b.team, [
      { bankAccountId: b.checking, name: 'Taxi', amountMinor: -2000, currency: 'EUR', date: '2026-03-09', manual: true },
      { bankAccountId: b.checking, name: 'Taxi', amountMinor: -2000, currency: 'EUR', date: '2026-03-11', manual: true },
    ]);
    const r = await importFile(b, b.checking, csv([['10.03.2026', 'Taxi Berlin', 'Fahrt', '-20,00']]));
    expect(r.batch.counts).toMatchObject({ created: 0, linked: 0, review: 1 });
    expect(accountRows(b, b.checking).map((x) => x.manual)).toEqual([1, 1]);
    const queue = listReviewItems(b.db, b.team, {});
    expect(queue.data).toHaveLength(1);
    expect(queue.data[0]!.candidates.map((x) => x.transactionId).sort()).toEqual([a, c].sort());
    // Importing the file again does not queue it twice.
    expect((await preview(b, b.checking, csv([['10.03.2026', 'Taxi Berlin', 'Fahrt', '-20,00']]))).rows[0]).toMatchObject({
      outcome: 'duplicate',
      match: 'review_item',
    });
    linkReviewItem(b.db, b.team, queue.data[0]!.id, c!);
    expect(getTransaction(b.db, b.team, c!)).toMatchObject({ manual: false, date: '2026-03-10T00:00:00.000Z' });
    expect(getTransaction(b.db, b.team, a!)).toMatchObject({ manual: true, date: '2026-03-09T00:00:00.000Z' });
    expect(listReviewItems(b.db, b.team, {}).data).toHaveLength(0);
    expect(getImportBatch(b.db, b.team, r.batch.id).counts).toMatchObject({ linked: 1, review: 0 });
  });

  it('holds a weak single candidate for review and creates the row when a person says it is its own', async () => {
    b = books();
    createTransactions(b.db, b.team, [
      { bankAccountId: b.checking, name: 'Lunch', amountMinor: -1200, currency: 'EUR', date: '2026-03-06', manual: true },
    ]);
    const r = await importFile(b, b.checking, csv([['10.03.2026', 'Office Depot', 'Toner', '-12,00']]));
    expect(r.review).toHaveLength(1);
    const item = createFromReviewItem(b.db, b.team, r.review[0]!.itemId);
    expect(item.status).toBe('created');
    expect(accountRows(b, b.checking)).toHaveLength(2);
  });
});

describe('an import batch is a statement', () => {
  function snapshot(b: Books) {
    return accountRows(b, b.checking).map(({ id: _id, batch: _b, ...rest }) => rest);
  }

  it('undoes a batch in one transaction and the same import then gives an identical result', async () => {
    b = books();
    const [hand] = createTransactions(b.db, b.team, [
      {
        bankAccountId: b.checking,
        name: 'Printer paper',
        amountMinor: -899,
        currency: 'EUR',
        date: '2026-03-03',
        manual: true,
        categorySlug: 'office-supplies',
      },
    ]);
    const file = csv([
      ['04.03.2026', 'Staples', 'Printer paper A4', '-8,99'],
      ['05.03.2026', 'Kunde Nord GmbH', 'RE-2026-0312', '3.570,00'],
      ['05.03.2026', 'Kunde Nord GmbH', 'RE-2026-0312', '3.570,00'],
    ]);
    const before = snapshot(b);
    const first = await importFile(b, b.checking, file);
    const after = snapshot(b);
    expect(first.batch.counts).toMatchObject({ created: 2, linked: 1 });
    const undone = undoImportBatch(b.db, b.team, first.batch.id);
    expect(undone.status).toBe('undone');
    expect(snapshot(b)).toEqual(before);
    expect(getTransaction(b.db, b.team, hand!)).toMatchObject({ manual: true, date: '2026-03-03T00:00:00.000Z' });
    const second = await importFile(b, b.checking, file);
    expect(second.batch.counts).toEqual(first.batch.counts);
    expect(snapshot(b)).toEqual(after);
    expect(checkLedger(b.db, b.team)).toEqual([]);
    expect(listBatchRows(b.db, b.team, second.batch.id, {}).data.map((r) => r.outcome)).toEqual(['linked', 'created', 'created']);
  });

  it('refuses to undo a batch whose rows were reconciled since, naming them', async () => {
    b = books();
    const r = await importFile(
      b,
      b.checking,
      csv([
        ['02.03.2026', 'Kunde Nord GmbH', 'RE-1', '100,00'],
        ['03.03.2026', 'Stadtwerke', 'Strom', '-30,00'],
      ]),
    );
    reconcile(b.db, b.team, { bankAccountId: b.checking, statementDate: '2026-03-02', statementBalanceMinor: 10_000 });
    let err: unknown;
    try {
      undoImportBatch(b.db, b.team, r.batch.id);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(Conflict);
    expect((err as Conflict).description).toMatch(/line 2 \(2026-03-02 Kunde Nord GmbH/);
    expect(accountRows(b, b.checking)).toHaveLength(2);
    expect(getImportBatch(b.db, b.team, r.batch.id).status).toBe('committed');
  });

  it('names the gap when a camt.053 entry is removed: the statement of that day, the missing amount; nothing is written', async () => {
    b = books();
    const full = fs.readFileSync(path.join(FIXTURES, 'camt053-v08.xml'), 'utf8');
    const cut = full.replace(/<Ntry>(?:(?!<\/Ntry>)[\s\S])*TDG-4471-202603[\s\S]*?<\/Ntry>/, '');
    expect(cut.length).toBeLessThan(full.length);
    const p = await preview(b, b.checking, Buffer.from(cut));
    expect(p.balance).toMatchObject({
      status: 'mismatch',
      difference: -49.99,
      firstDivergingRow: { index: 3, date: '2026-03-03' },
    });
    expect(p.balance.message).toMatch(/a line of -49\.99 is missing at rows 4–5/);
    await expect(importFile(b, b.checking, Buffer.from(cut))).rejects.toThrow(/does not add up/);
    expect(accountRows(b, b.checking)).toHaveLength(0);
    const forced = await importFile(b, b.checking, Buffer.from(cut), { acceptBalanceMismatch: true });
    expect(forced.batch.warnings.join(' ')).toMatch(/Balance check: .*-49\.99/);
    expect((await preview(b, b.savings, Buffer.from(full))).balance.status).toBe('ok');
  });

  it('refuses a malformed file with line-level errors and writes nothing', async () => {
    b = books();
    const good = (d: number): [string, string, string, string] => [
      `${String(d).padStart(2, '0')}.03.2026`,
      'Shop',
      'Karte',
      '-1,00',
    ];
    const bad = csv([
      good(2),
      ['03.03.2026', 'B', 'y', 'zwölf'],
      good(4),
      ['31.02.2026', 'C', 'z', '-2,00'],
      ...[5, 6, 7, 8, 9, 10, 11, 12].map(good),
    ]);
    let err: unknown;
    try {
      await importFile(b, b.checking, bad);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ImportRefused);
    expect((err as ImportRefused).problems.map((p) => [p.line, p.field])).toEqual([
      [3, 'amount'],
      [5, 'date'],
    ]);
    expect(accountRows(b, b.checking)).toHaveLength(0);
    expect(b.db.prepare('SELECT count(*) FROM import_batches').pluck().get()).toBe(0);
  });
});

describe('transfers between own accounts', () => {
  const checkingFile = csv([
    ['05.01.2026', 'Eigenes Tagesgeld', 'Umbuchung', '-500,00'],
    ['05.02.2026', 'Eigenes Tagesgeld', 'Umbuchung', '-500,00'],
    ['05.03.2026', 'Eigenes Tagesgeld', 'Umbuchung', '-750,00'],
    ['20.03.2026', 'Tagesgeld', 'Rückbuchung', '1.000,00'],
    ['06.04.2026', 'Eigenes Tagesgeld', 'Umbuchung', '-500,00'],
    ['07.04.2026', 'REWE', 'Karte', '-23,45'],
  ]);
  const savingsFile = csv([
    ['06.01.2026', 'Girokonto', 'Umbuchung', '500,00'],
    ['06.02.2026', 'Girokonto', 'Umbuchung', '500,00'],
    ['09.03.2026', 'Girokonto', 'Umbuchung', '750,00'],
    ['19.03.2026', 'Girokonto', 'Auszahlung', '-1.000,00'],
    ['06.04.2026', 'Girokonto', 'Umbuchung', '500,00'],
    ['30.04.2026', 'Zinsen', 'Zinsgutschrift', '1,25'],
  ]);
  const rollup = () =>
    b.db
      .prepare(
        'SELECT coalesce(sum(inflow_minor), 0) AS inflow, coalesce(sum(outflow_minor), 0) AS outflow FROM ledger_daily WHERE team_id = ?',
      )
      .get(b.team) as { inflow: number; outflow: number };

  for (const order of ['checking first', 'savings first'] as const) {
    it(`pairs 5 mutual transfers (${order}): 5 pairs, both sides internal, no income or expense from them`, async () => {
      b = books();
      const files: [string, Buffer][] =
        order === 'checking first'
          ? [
              [b.checking, checkingFile],
              [b.savings, savingsFile],
            ]
          : [
              [b.savings, savingsFile],
              [b.checking, checkingFile],
            ];
      await importFile(b, files[0]![0], files[0]![1]);
      const second = await importFile(b, files[1]![0], files[1]![1]);
      expect(second.transfers).toEqual({ paired: 5, suggested: 0 });
      const pairs = listTransferPairs(b.db, b.team, { status: 'paired' });
      expect(pairs).toHaveLength(5);
      const internal = [...accountRows(b, b.checking), ...accountRows(b, b.savings)].filter((r) => r.internal === 1);
      expect(internal).toHaveLength(10);
      // Only the card payment and the interest count: no income or expense from the transfers.
      expect(rollup()).toEqual({ inflow: 125, outflow: 2345 });
      // Unpairing restores both.
      unpairTransfer(b.db, b.team, pairs[0]!.id);
      expect(rollup().inflow + rollup().outflow).toBeGreaterThan(125 + 2345);
      expect(checkLedger(b.db, b.team)).toEqual([]);
    });
  }

  it('undoing the second file unpairs its transfers: the first file’s rows count again', async () => {
    b = books();
    await importFile(b, b.checking, checkingFile);
    const second = await importFile(b, b.savings, savingsFile);
    expect(listTransferPairs(b.db, b.team, { status: 'paired' })).toHaveLength(5);
    undoImportBatch(b.db, b.team, second.batch.id);
    expect(listTransferPairs(b.db, b.team, {})).toHaveLength(0);
    expect(accountRows(b, b.checking).filter((r) => r.internal === 1)).toHaveLength(0);
    expect(accountRows(b, b.savings)).toHaveLength(0);
    expect(checkLedger(b.db, b.team)).toEqual([]);
  });

  it('suggests an ambiguous transfer instead of applying it', async () => {
    b = books();
    await importFile(
      b,
      b.savings,
      csv([
        ['06.01.2026', 'Girokonto', 'Umbuchung', '500,00'],
        ['08.01.2026', 'Girokonto', 'Umbuchung', '500,00'],
      ]),
    );
    const r = await importFile(b, b.checking, csv([['07.01.2026', 'Tagesgeld', 'Umbuchung', '-500,00']]));
    expect(r.transfers).toEqual({ paired: 0, suggested: 2 });
    expect(accountRows(b, b.checking)[0]!.internal).toBe(0);
  });
});
