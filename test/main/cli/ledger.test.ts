// @module-tag slow (spawns processes; left out of `npm run test:fast`)
import { describe, expect, it } from 'vitest';
import { createBankAccount } from '../../../src-main/store/bank-accounts/bank-accounts';
import { openDatabase } from '../../../src-main/store/db';
import { ensureTeam } from '../../../src-main/store/teams/teams';
import { createTransactions } from '../../../src-main/store/transactions/create';
import { runCli } from '../../helpers/cli';
import { tmpDir } from '../../helpers/tmp';

function dataDir(): { dir: string; teamId: string } {
  const dir = tmpDir();
  const db = openDatabase(dir);
  try {
    const team = ensureTeam(db, 'Books Co');
    ensureTeam(db, 'Empty Co');
    const account = createBankAccount(db, team.id, {
      name: 'Checking',
      currency: 'EUR',
      openingBalanceMinor: 100_000,
      openingDate: '2026-01-01',
    }).id;
    createTransactions(
      db,
      team.id,
      Array.from({ length: 40 }, (_, i) => ({
        bankAccountId: account,
        name: `Line ${i}`,
        amountMinor: (i % 2 ? -1 : 1) * (1_000 + i),
        currency: 'EUR',
        date: `2026-02-${String(1 + (i % 27)).padStart(2, '0')}`,
        manual: i % 3 === 0,
        categorySlug: i % 2 ? 'software' : 'income',
      })),
    );
    return { dir, teamId: team.id };
  } finally {
    db.close();
  }
}

describe('finops ledger', () => {
  it('check finds damaged derived data, rebuild repairs it, with progress on stderr', () => {
    const { dir, teamId } = dataDir();
    const clean = runCli(['ledger', 'check', '--data-dir', dir]);
    expect(clean.status).toBe(0);
    expect(clean.stdout).toBe('team "Books Co": consistent (41 transactions)\nteam "Empty Co": consistent (0 transactions)\n');

    const db = openDatabase(dir);
    db.prepare("UPDATE transactions SET balance_minor = balance_minor + 1 WHERE team_id = ? AND name = 'Line 7'").run(teamId);
    db.prepare('UPDATE bank_accounts SET balance_minor = 0 WHERE team_id = ?').run(teamId);
    db.prepare('DELETE FROM ledger_daily WHERE team_id = ? AND category_slug = ?').run(teamId, 'software');
    db.close();

    const damaged = runCli(['ledger', 'check', '--data-dir', dir, '--team', 'Books Co']);
    expect(damaged.status).toBe(1);
    expect(damaged.stdout).toMatch(
      /^team "Books Co": 3 discrepancies\n {2}running_balance: .*\n {2}account_balance: .*\n {2}rollup: .*\n$/,
    );
    expect(damaged.stderr).toContain('run finops ledger rebuild');

    const rebuilt = runCli(['ledger', 'rebuild', '--data-dir', dir, '--team', teamId]);
    expect(rebuilt.status).toBe(0);
    expect(rebuilt.stdout).toBe(
      'rebuilt the ledger of team "Books Co": 41 transactions, 0 without an exchange rate; consistent\n',
    );
    const steps = rebuilt.stderr.trim().split('\n');
    expect(steps[0]).toBe('ledger: team "Books Co" has 41 transactions');
    for (const [i, step] of [
      'running and account balances',
      'base amounts',
      'review states',
      'daily roll-up',
      'check',
    ].entries()) {
      expect(steps[i + 1]).toMatch(new RegExp(`^ledger: ${step} done in [\\d.]+ s \\([\\d.]+ s in all\\)$`));
    }
    expect(runCli(['ledger', 'check', '--data-dir', dir, '--team', 'Books Co']).status).toBe(0);
  });

  it('names a team that does not exist, and needs --team to rebuild', () => {
    const { dir } = dataDir();
    const r = runCli(['ledger', 'rebuild', '--data-dir', dir, '--team', 'Nobody']);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('error: team Nobody not found\n');
    expect(runCli(['ledger', 'rebuild', '--data-dir', dir]).status).toBe(2);
  });
});
