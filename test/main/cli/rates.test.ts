// @module-tag slow (spawns processes; left out of `npm run test:fast`)
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBankAccount } from '../../../src-main/store/bank-accounts/bank-accounts';
import { openDatabase } from '../../../src-main/store/db';
import { ensureTeam } from '../../../src-main/store/teams/teams';
import { createTransactions } from '../../../src-main/store/transactions/create';
import { runCli } from '../../helpers/cli';
import { tmpDir } from '../../helpers/tmp';

/** A data dir with a EUR team holding USD and JPY transactions, none of which has a rate yet. */
function dataDir(): string {
  const dir = tmpDir();
  const db = openDatabase(dir);
  try {
    const team = ensureTeam(db, 'Rates Co', { baseCurrency: 'EUR' });
    const usd = createBankAccount(db, team.id, { name: 'Dollars', currency: 'USD' }).id;
    const jpy = createBankAccount(db, team.id, { name: 'Yen', currency: 'JPY' }).id;
    createTransactions(db, team.id, [
      { bankAccountId: usd, name: 'Client', amountMinor: 100_000, currency: 'USD', date: '2026-01-05', manual: true },
      { bankAccountId: usd, name: 'Hosting', amountMinor: -1_999, currency: 'USD', date: '2026-01-20', manual: true },
      { bankAccountId: jpy, name: 'Tokyo trip', amountMinor: -15_000, currency: 'JPY', date: '2026-01-06', manual: true },
      { bankAccountId: usd, name: 'Old', amountMinor: -500, currency: 'USD', date: '2025-12-31', manual: true },
    ]);
  } finally {
    db.close();
  }
  return dir;
}

function baseAmounts(dir: string): Record<string, number | null> {
  const db = openDatabase(dir);
  try {
    const rows = db.prepare('SELECT name, base_amount_minor FROM transactions').all() as {
      name: string;
      base_amount_minor: number | null;
    }[];
    return Object.fromEntries(rows.map((r) => [r.name, r.base_amount_minor]));
  } finally {
    db.close();
  }
}

function rateCount(dir: string): number {
  const db = openDatabase(dir);
  try {
    return db.prepare('SELECT count(*) FROM fx_rates').pluck().get() as number;
  } finally {
    db.close();
  }
}

describe('finops rates import', () => {
  it('imports per-USD rates, recomputes base amounts and reports what still lacks a rate', () => {
    const dir = dataDir();
    const file = path.join(dir, 'rates.csv');
    fs.writeFileSync(file, 'date,currency,rate\n2026-01-01,EUR,0.8\n2026-01-15,EUR,0.5\n');
    const r = runCli(['rates', 'import', '--data-dir', dir, file]);
    expect(r.stderr).toMatch(/^rates: base amounts of team "Rates Co" recomputed \(1\/1, [\d.]+ s\)\n$/);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      'imported 2 rates of 1 currencies (per USD), 2026-01-01 to 2026-01-15: 2 written, 0 unchanged\n' +
        'team "Rates Co": 2 base amounts updated; 2 transactions still without a rate\n',
    );
    // 1,000.00 USD at 0.8 → 800.00 EUR; −19.99 USD at 0.5 → −9.995 → −10.00 (half away from zero); yen and the day
    // before the first rate have none.
    expect(baseAmounts(dir)).toEqual({ Client: 80_000, Hosting: -1_000, 'Tokyo trip': null, Old: null });

    const ecb = path.join(dir, 'eurofxref-hist.csv');
    fs.writeFileSync(ecb, 'Date,USD,JPY,CYP,\n2026-01-05,1.25,187.5,N/A,\n');
    const wide = runCli(['rates', 'import', '--data-dir', dir, ecb]);
    expect(wide.status).toBe(0);
    expect(wide.stdout).toContain('imported 2 rates of 2 currencies (per EUR, rebased to per USD), 2026-01-05 to 2026-01-05');
    expect(wide.stdout).toContain('skipped the columns of withdrawn currencies: CYP');
    expect(wide.stdout).toContain('1 transaction still without a rate');
    // ¥15,000 at 187.5 per EUR → 80.00 EUR; the USD client payment now at 0.8 (1 / 1.25) per USD: unchanged.
    expect(baseAmounts(dir)).toMatchObject({ 'Tokyo trip': -8_000, Client: 80_000 });

    const again = runCli(['rates', 'import', '--data-dir', dir, ecb, '--source', 'ecb']);
    expect(again.stdout).toContain('0 written, 2 unchanged');
  });

  it('refuses a malformed file whole, naming each bad line', () => {
    const dir = dataDir();
    const file = path.join(dir, 'bad.csv');
    fs.writeFileSync(
      file,
      'date,currency,rate\n2026-01-01,EUR,0.8\n2026-01-32,EUR,0.8\n2026-01-02,EUR,zero\n2026-01-03,EUROS,1\n',
    );
    const r = runCli(['rates', 'import', '--data-dir', dir, file]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error: the file has 3 problems; nothing was imported:');
    expect(r.stderr).toContain('line 3: date "2026-01-32" is not a calendar date YYYY-MM-DD');
    expect(r.stderr).toContain('line 4: rate "zero" is not a positive decimal number');
    expect(r.stderr).toContain('line 5: currency "EUROS" is not an ISO 4217 code');
    expect(rateCount(dir)).toBe(0);

    const missing = runCli(['rates', 'import', '--data-dir', dir, path.join(dir, 'nope.csv')]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/^error: cannot read .*nope\.csv: ENOENT\n$/);
    expect(runCli(['rates', 'import', '--data-dir', dir, file, '--base', 'EURO']).status).toBe(2);
    expect(runCli(['rates', 'import', '--data-dir', dir]).status).toBe(2);
  });
});
