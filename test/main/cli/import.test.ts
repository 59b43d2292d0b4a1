import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureDefaultCategories } from '../../../src-main/store/categories/categories';
import { openDatabase } from '../../../src-main/store/db';
import { createTeam } from '../../../src-main/store/teams/teams';
import { write } from '../../../src-main/store/write';
import { runCli } from '../../helpers/cli';
import { tmpDir } from '../../helpers/tmp';

/** `finops import` through the real launcher: progress on stderr, the summary on stdout, batches and the queue. */
const FIXTURES = path.resolve(__dirname, '../../fixtures/import');

function dataDir(): { dir: string; account: string } {
  const dir = tmpDir('finops-cli-import-');
  const db = openDatabase(dir);
  const team = createTeam(db, { name: 'Cli Import', baseCurrency: 'EUR', countryCode: 'DE' }).id;
  ensureDefaultCategories(db, team, { countryCode: 'DE' });
  const account = write(db, team, (w) =>
    w.insert('bank_account', { name: 'Giro', type: 'depository', currency: 'EUR', manual: 0 }),
  );
  db.close();
  return { dir, account };
}

describe('finops import', () => {
  it('previews with --dry-run, imports with progress and a summary, lists, shows and undoes batches', () => {
    const { dir, account } = dataDir();
    const file = path.join(FIXTURES, 'camt053-v08.xml');
    const base = ['--data-dir', dir, '--team', 'Cli Import'];
    const dry = runCli(['import', ...base, '--account', account, '--dry-run', file]);
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/dry run: 6 rows: 6 new, 0 duplicate.*nothing written/);
    expect(dry.stdout).toMatch(/balance: ok/);

    const run = runCli(['import', ...base, '--account', account, file]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/import: camt \(UTF-8\), 6 rows/);
    expect(run.stderr).toMatch(/import: 6\/6 \(100 %\)/);
    const batch = /as batch (\S+):/.exec(run.stdout)?.[1];
    expect(run.stdout).toMatch(/6 rows: 6 new, 0 duplicate, 0 linked, 0 for review, 0 rejected/);

    const again = runCli(['import', ...base, '--account', account, file]);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/already imported/);

    const list = runCli(['import', 'batches', ...base]);
    expect(list.stdout).toContain(batch!);
    const show = runCli(['import', 'show', batch!, ...base, '--all']);
    expect(show.stdout).toMatch(/line +29 created +2026-03-02 +1500 RE-2026-041/);
    const review = runCli(['import', 'review', ...base]);
    expect(review.stdout).toMatch(/review queue is empty/);
    const undo = runCli(['import', 'undo', batch!, ...base]);
    expect(undo.stdout).toMatch(/undone batch/);
  }, 180_000);

  it('imports MT940 as banks write it into the account given (issue 37): daily statements of one account, SOH/ETX, :NS:', () => {
    const { dir, account } = dataDir();
    const db = openDatabase(dir);
    const team = db.prepare("SELECT id FROM teams WHERE name = 'Cli Import'").pluck().get() as string;
    const [pln, huf] = write(db, team, (w) =>
      ['PLN', 'HUF'].map((currency) => w.insert('bank_account', { name: currency, type: 'depository', currency, manual: 0 })),
    ) as [string, string];
    db.close();
    const cases: [string, string, number][] = [
      ['mt940-daily-one-account.sta', account, 3],
      ['mt940-soh-etx.sta', pln, 3],
      ['mt940-non-swift.sta', huf, 2],
    ];
    for (const [name, into, rows] of cases) {
      const file = path.join(FIXTURES, 'as-banks-write', name);
      const run = runCli(['import', '--data-dir', dir, '--team', 'Cli Import', '--account', into, file]);
      expect(run.status, `${name}: ${run.stderr}`).toBe(0);
      expect(run.stderr).toMatch(new RegExp(`import: mt940 \\(UTF-8\\), ${rows} rows`));
      expect(run.stdout).toMatch(new RegExp(`${rows} rows: ${rows} new, 0 duplicate`));
      expect(run.stdout).toMatch(/balance: ok/);
    }
    // The same days with a day of another account (the corpus file's shape), into a new team's account: neither
    // account is guessed, and the warning says why the account given was not used.
    const two = path.join(FIXTURES, 'as-banks-write', 'mt940-daily-two-accounts.sta');
    const fresh = dataDir();
    const asked = runCli(['import', '--data-dir', fresh.dir, '--team', 'Cli Import', '--account', fresh.account, two]);
    expect(asked.status).toBe(2);
    expect(asked.stderr).toMatch(
      /warning: The file holds statements of 2 accounts \(3817\.42\.056EUR, 4402\.17\.930EUR\): the account given for the file is used only when its statements all name one account/,
    );
    expect(asked.stderr).toMatch(
      /statement 2 \(4402\.17\.930EUR\): no account found; pass --statement-account '4402\.17\.930EUR=ACCOUNT_ID'/,
    );
  }, 120_000);

  it("refuses the MT940 line of 32,000 braces at once, naming the line past the format's caps (exit 1)", () => {
    const { dir, account } = dataDir();
    const file = path.join(tmpDir('finops-cli-abuse-'), 'braces.sta');
    fs.writeFileSync(file, `{1:x}{2:${'{'.repeat(32_000)}\n:20:X\n:25:Y\n:60F:C260301EUR1,00\n`);
    const started = Date.now();
    const run = runCli(['import', '--data-dir', dir, '--team', 'Cli Import', '--account', account, file]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/line 1: the line has 32,008 characters; an MT940 line has at most 65/);
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 120_000);

  it('refuses a malformed file with line-level errors (exit 1) and asks for what is missing (exit 2)', () => {
    const { dir, account } = dataDir();
    const bad = runCli([
      'import',
      '--data-dir',
      dir,
      '--team',
      'Cli Import',
      '--account',
      account,
      path.join(FIXTURES, 'no-such.csv'),
    ]);
    expect(bad.status).toBe(2);
    const noAccount = runCli(['import', '--data-dir', dir, '--team', 'Cli Import', path.join(FIXTURES, 'chase.csv')]);
    expect(noAccount.status).toBe(2);
    expect(noAccount.stderr).toMatch(
      /statement 1 \(no account named\): no account found; pass --statement-account '1=ACCOUNT_ID'/,
    );
    expect(noAccount.stderr).toMatch(/1 statement of the file has no account: .*--account ID.*nothing was written/);
    const usd = runCli([
      'import',
      '--data-dir',
      dir,
      '--team',
      'Cli Import',
      '--account',
      account,
      path.join(FIXTURES, 'bank-102.ofx'),
    ]);
    expect(usd.status).toBe(1);
    expect(usd.stderr).toMatch(/None of the file's 4 rows can be imported/);
    expect(usd.stderr).toMatch(/line 39 \(CURDEF\): in USD, but the account holds EUR/);
  }, 120_000);

  it('imports a file of several accounts: says which statements need an account and how to pass it', () => {
    const { dir, account } = dataDir();
    const db = openDatabase(dir);
    const team = db.prepare("SELECT id FROM teams WHERE name = 'Cli Import'").pluck().get() as string;
    const savings = write(db, team, (w) =>
      w.insert('bank_account', { name: 'Tagesgeld', type: 'depository', currency: 'EUR', manual: 0 }),
    );
    db.close();
    const file = path.join(FIXTURES, 'statements/mt940-all-accounts.sta');
    const base = ['import', '--data-dir', dir, '--team', 'Cli Import'];
    const asked = runCli([...base, '--statement-account', `37040044/0532013000=${account}`, file]);
    expect(asked.status).toBe(2);
    expect(asked.stderr).toMatch(/statement 1 \(37040044\/0532013000\) → account \S+ \(choice\): 3 rows, 3 new/);
    expect(asked.stderr).toMatch(
      /statement 2 \(DE12500105170648489890\): no account found; pass --statement-account 'DE12500105170648489890=ACCOUNT_ID'/,
    );
    expect(asked.stderr).toMatch(/1 statement of the file has no account: pass --statement-account REF=ACCOUNT_ID/);

    const run = runCli([
      ...base,
      '--statement-account',
      `37040044/0532013000=${account}`,
      '--statement-account',
      `DE12500105170648489890=${savings}`,
      file,
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /imported mt940-all-accounts.sta \(37040044\/0532013000 into account \S+\) as batch \S+: 3 rows: 3 new/,
    );
    expect(run.stdout).toMatch(/\(DE12500105170648489890 into account \S+\) as batch \S+: 1 rows: 1 new/);
  }, 120_000);
});
