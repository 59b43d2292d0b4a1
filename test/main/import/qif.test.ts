import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat, parseBankFile } from '../../../src-main/import/parse-file';
import { accountRows, books, importFile } from './helpers';

/** QIF as Quicken, GnuCash, Actual and Firefly III users export it (docs/decisions/0069). */
const FIXTURES = path.resolve(__dirname, '../../fixtures/import/qif');
const read = (name: string) => fs.readFileSync(path.join(FIXTURES, name));

type Row = [line: number, date: string, amountMinor: number, payee: string | null, memo: string | null];

function parsed(name: string, currency = 'EUR') {
  const r = parseBankFile(read(name), { filename: name, currency });
  return {
    format: r.file.format,
    errors: r.file.errors,
    rejected: r.file.rejected,
    rows: r.file.rows.map((x): Row => [x.line, x.date, x.amountMinor, x.counterparty, x.description]),
  };
}

describe('QIF', () => {
  it("Quicken: dates with an apostrophe year (3/ 2'26), thousands commas, splits; the opening balance record left out", async () => {
    expect(parsed('quicken-bank.qif', 'USD')).toEqual({
      format: 'qif',
      errors: [],
      rejected: [{ line: 2, row: 0, field: 'P', message: 'the opening balance record, not a transaction' }],
      rows: [
        [8, '2026-03-02', -8412, 'COSTCO WHSE #0123', 'Groceries and supplies'],
        [15, '2026-03-14', 250000, 'ACME CORP', 'Payroll March'],
        [22, '2026-03-27', -17540, 'VERIZON WIRELESS', 'VERIZON WIRELESS'],
      ],
    });
    const r = parseBankFile(read('quicken-bank.qif'), { currency: 'USD' });
    expect(r.file.rows[0]!.details).toEqual({ number: '1042', category: 'Groceries' });
    expect(r.file.rows[2]!.details.splits).toEqual([
      { category: 'Utilities:Phone', memo: 'Mobile', amount: '-75.40' },
      { category: 'Utilities:Internet', memo: 'Home internet', amount: '-100.00' },
    ]);
  });

  it('a European card export: day-first dates, decimal comma, thousands point', async () => {
    expect(parsed('european-card.qif').rows).toEqual([
      [2, '2026-03-02', -4590, 'Amazon EU S.a.r.l.', 'Bestellung 302-1234567'],
      [7, '2026-03-15', -123456, 'MediaMarkt', 'Notebook'],
      [12, '2026-03-28', 50000, 'Zahlung danke', 'Zahlung danke'],
    ]);
  });

  it('is recognised by its content whatever the file is called', async () => {
    expect(detectFormat(read('european-card.qif').toString(), 'export.txt')).toBe('qif');
    expect(detectFormat('!Account\nNChecking\n^\n', null)).toBe('qif');
  });

  it('refuses a record without a date or with a broken amount, naming its line', async () => {
    const text = read('european-card.qif').toString().replace('D15.03.2026\n', '').replace('T500,00', 'T5O0,00');
    expect(parseBankFile(Buffer.from(text), { currency: 'EUR' }).file.errors).toEqual([
      { line: 7, row: 1, field: 'D', message: 'the record has no date (D line)' },
      { line: 12, row: 1, field: 'T', message: '"5O0,00" is not an amount (decimal separator ",")' },
    ]);
  });

  it('imports into an account, and a second import of the same file finds only duplicates', async () => {
    const b = books();
    const first = await importFile(b, b.checking, read('european-card.qif'), { fileName: 'card.qif' });
    expect(first.batch).toMatchObject({ format: 'qif', counts: { created: 3 } });
    const again = await importFile(b, b.checking, read('european-card.qif'), { fileName: 'card.qif', allowReimport: true });
    expect(again.batch.counts).toMatchObject({ created: 0, duplicate: 3 });
    expect(accountRows(b, b.checking).map((r) => r.name)).toEqual(['Amazon EU S.a.r.l.', 'MediaMarkt', 'Zahlung danke']);
  });
});
