import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBankFile } from '../../../../src-main/import/parse-file';
import { statedBalances } from '../../../../src-main/import/parsers/csv-stated-balances';
import { checkBalances } from '../../../../src-shared/domain/import/balance';
import type { ParsedRow } from '../../../../src-shared/domain/import/types';

const FIXTURES = path.resolve(__dirname, '../../../fixtures/import');
const parse = (file: string) =>
  parseBankFile(fs.readFileSync(path.join(FIXTURES, file)), { filename: file, currency: 'EUR' }).file;
const sum = (file: ReturnType<typeof parse>) => file.rows.reduce((s, r) => s + (r.status === 'posted' ? r.amountMinor : 0), 0);

describe('balances a CSV export states beside its table', () => {
  it('takes "Kontostand vom 31.03.2026: 4.811,37 EUR" above the header as the closing balance of that day', () => {
    for (const name of ['dkb-giro.csv', 'banks/de-dkb-2023.csv']) {
      const file = parse(name);
      expect(file.balances, name).toEqual([
        expect.objectContaining({ kind: 'closing', amountMinor: 481_137, date: '2026-03-31' }),
      ]);
      // With the account's own balance before the file, the check runs: it holds, and a cent off it names the gap.
      const opening = 481_137 - sum(file);
      expect(checkBalances(file, 'EUR', { amountMinor: opening }).status, name).toBe('ok');
      const off = checkBalances(file, 'EUR', { amountMinor: opening + 1 });
      expect([off.status, off.differenceMinor]).toEqual(['mismatch', -1]);
    }
  });

  it('counts only a line that names a balance, holds one amount and a day that fits the rows', () => {
    const row = (index: number, date: string, amountMinor: number) =>
      ({ index, line: index + 10, date, amountMinor, status: 'posted' }) as ParsedRow;
    const rows = [row(0, '2026-03-20', -500), row(1, '2026-03-05', 1000), row(2, '2026-03-02', -200)]; // newest first
    const lines = [
      { line: 1, cells: ['Saldo-Hinweis: Beträge 1,00 und 2,00 gerundet'] },
      { line: 2, cells: ['Kontostand vom 01.01.2020:', '99,00 EUR'] },
      { line: 3, cells: ['Zeitraum', '01.03.2026 - 31.03.2026'] },
      { line: 4, cells: ['Kontostand vom 10.03.2026:', '1.300,00 EUR'] },
      { line: 5, cells: ['Opening balance', 'EUR 1.000,00'] },
    ];
    expect(statedBalances(lines, rows, { decimal: ',', dateFormat: 'DD.MM.YYYY', currency: 'EUR' })).toEqual([
      { kind: 'opening', afterIndex: -1, date: null, amountMinor: 100_000, line: 5 },
      // Closing at its day: after the last row booked by then (5 March), not the file's last.
      { kind: 'closing', afterIndex: 1, date: '2026-03-10', amountMinor: 130_000, line: 4 },
    ]);
  });
});
