import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitFile, previewFile } from '../../../src-main/import/service';
import { Conflict, InvalidReference } from '../../../src-main/store/errors';
import { write } from '../../../src-main/store/write';
import { ImportRefused } from '../../../src-shared/domain/import/types';
import { accountRows, type Books, books } from './helpers';

/**
 * Files holding several accounts' statements (docs/decisions/0069): each statement goes to the account it names —
 * chosen, learnt from an earlier import, or carried in the account's name — one batch per account, all or nothing;
 * a statement without an account is asked for, never guessed.
 */
const FIXTURES = path.resolve(__dirname, '../../fixtures/import');
const read = (name: string) => fs.readFileSync(path.join(FIXTURES, name));
const ALL = 'statements/mt940-all-accounts.sta';
const GIRO = '37040044/0532013000';
const TAGESGELD = 'DE12500105170648489890';

const count = (b: Books) => b.db.prepare('SELECT count(*) FROM transactions WHERE team_id = ?').pluck().get(b.team) as number;
const batches = (b: Books) => b.db.prepare('SELECT count(*) FROM import_batches WHERE team_id = ?').pluck().get(b.team) as number;

async function refusal(work: Promise<unknown>): Promise<ImportRefused> {
  try {
    await work;
  } catch (err) {
    if (err instanceof ImportRefused) return err;
    throw err;
  }
  throw new Error('not refused');
}

describe('a file of several accounts’ statements', () => {
  it('asks for the account of each statement no account is known for, and writes nothing until it has them', async () => {
    const b = books();
    const { preview } = await previewFile(b.db, b.team, null, read(ALL), { fileName: 'alle-konten.sta' });
    expect(preview.bankAccountId).toBeNull();
    expect(preview.statements).toEqual([
      expect.objectContaining({
        index: 0,
        accountRef: GIRO,
        currency: 'EUR',
        bankAccountId: null,
        needs: expect.stringContaining(GIRO),
      }),
      expect.objectContaining({ index: 1, accountRef: TAGESGELD, currency: 'EUR', bankAccountId: null, counts: null }),
    ]);
    expect(preview.counts.rows).toBe(0);
    const refused = await refusal(commitFile(b.db, b.team, null, read(ALL), {}));
    expect(refused.message).toBe('2 statements of the file have no account: nothing was written');
    expect(refused.problems.map((p) => p.field)).toEqual([`accounts.${GIRO}`, `accounts.${TAGESGELD}`]);
    expect(count(b)).toBe(0);
  });

  it('imports each statement into its account, one batch each; the next file finds the accounts by itself', async () => {
    const b = books();
    const accounts = { [GIRO]: b.checking, [TAGESGELD]: b.savings };
    const preview = (await previewFile(b.db, b.team, null, read(ALL), { accounts })).preview;
    expect(preview.statements.map((s) => [s.accountRef, s.bankAccountId, s.matchedBy, s.counts?.new, s.balance?.status])).toEqual(
      [
        [GIRO, b.checking, 'choice', 3, 'ok'],
        [TAGESGELD, b.savings, 'choice', 1, 'ok'],
      ],
    );
    expect(preview.rows.map((r) => [r.statement, r.line, r.amount])).toEqual([
      [0, 5, -1250],
      [0, 7, 3570],
      [0, 23, -84],
      [1, 15, 500],
    ]);

    const r = await commitFile(b.db, b.team, null, read(ALL), { accounts, fileName: 'alle-konten.sta' });
    expect(r.batches.map((x) => [x.bankAccountId, x.accountRef, x.counts.created, x.balance?.status])).toEqual([
      [b.checking, '37040044/0532013000', 3, 'ok'],
      [b.savings, 'DE12500105170648489890', 1, 'ok'],
    ]);
    expect(accountRows(b, b.checking).map((x) => x.amount)).toEqual([-125000, 357000, -8400]);
    expect(accountRows(b, b.savings).map((x) => [x.amount, x.name])).toEqual([[50000, 'EIGENE BANK']]);

    // The same export again, without choices: the statements go where their last import went; all duplicates.
    const again = (await previewFile(b.db, b.team, null, read(ALL), {})).preview;
    expect(again.statements.map((s) => [s.bankAccountId, s.matchedBy, s.counts?.duplicate])).toEqual([
      [b.checking, 'earlier import', 3],
      [b.savings, 'earlier import', 1],
    ]);
    expect(again.alreadyImported).toMatchObject({ accountId: b.checking });
  });

  it('finds the one account whose name carries the reference, and refuses two statements into one account', async () => {
    const b = books();
    write(b.db, b.team, (w) => w.update('bank_account', b.savings, { name: 'Tagesgeld DE12 5001 0517 0648 4898 90' }));
    const preview = (await previewFile(b.db, b.team, null, read(ALL), { accounts: { [GIRO]: b.checking } })).preview;
    expect(preview.statements.map((s) => [s.bankAccountId, s.matchedBy])).toEqual([
      [b.checking, 'choice'],
      [b.savings, 'account name'],
    ]);
    const twice = await refusal(previewFile(b.db, b.team, null, read(ALL), { accounts: { [GIRO]: b.savings } }));
    expect(twice.problems[0]!.message).toMatch(/would both go to account/);
    await expect(previewFile(b.db, b.team, null, read(ALL), { accounts: { DE00999: b.checking } })).rejects.toThrow(
      InvalidReference,
    );
  });

  it('finds the account whose IBAN the statement names, before earlier imports and names; warns when the upload names another', async () => {
    const b = books();
    // The reference as the bank writes it (with spaces here); the account holds the IBAN as entered.
    write(b.db, b.team, (w) => w.update('bank_account', b.savings, { iban: TAGESGELD }));
    write(b.db, b.team, (w) => w.update('bank_account', b.checking, { name: `Giro ${TAGESGELD}` }));
    const preview = (await previewFile(b.db, b.team, null, read(ALL), { accounts: { [GIRO]: b.checking } })).preview;
    expect(preview.statements.map((s) => [s.bankAccountId, s.matchedBy])).toEqual([
      [b.checking, 'choice'],
      [b.savings, 'iban'],
    ]);
    // A single-statement upload into another account than the IBAN's goes where it was asked, with a warning.
    const one =
      read(ALL)
        .toString()
        .split(/\r?\n(?=:20:)/)[1] ?? '';
    expect(one).toContain(TAGESGELD);
    const asked = (await previewFile(b.db, b.team, b.checking, Buffer.from(one), {})).preview;
    expect(asked.statements.map((s) => [s.bankAccountId, s.matchedBy])).toEqual([[b.checking, 'request']]);
    expect(asked.warnings.join(' ')).toContain(`the IBAN of another account (${b.savings})`);
    // Another team's account with the IBAN is never found.
    write(b.db, b.team, (w) => [
      w.update('bank_account', b.savings, { iban: null }),
      w.update('bank_account', b.checking, { name: 'Giro' }),
    ]);
    const [theirs] = write(b.db, b.other, (w) => [
      w.insert('bank_account', { name: 'Theirs', type: 'depository', currency: 'EUR', manual: 0, iban: TAGESGELD }),
    ]) as [string];
    const mine = (await previewFile(b.db, b.team, null, read(ALL), { accounts: { [GIRO]: b.checking } })).preview;
    expect(mine.statements[1]).toMatchObject({ bankAccountId: null, matchedBy: null });
    expect(mine.statements[1]!.bankAccountId).not.toBe(theirs);
  });

  it('is all or nothing: a statement that does not add up leaves the other account untouched too', async () => {
    const b = books();
    const broken = read(ALL).toString().replace(':62F:C260302EUR25500,00', ':62F:C260302EUR25600,00');
    const accounts = { [GIRO]: b.checking, [TAGESGELD]: b.savings };
    await expect(commitFile(b.db, b.team, null, Buffer.from(broken), { accounts })).rejects.toThrow(Conflict);
    expect([count(b), batches(b)]).toEqual([0, 0]);
  });

  it('an OFX file of a bank and a card statement, each into its account in its currency', async () => {
    const b = books();
    const [checking, card] = write(b.db, b.team, (w) => [
      w.insert('bank_account', { name: 'US Checking', type: 'depository', currency: 'USD', manual: 0 }),
      w.insert('bank_account', { name: 'Visa 4111111111111111', type: 'credit', currency: 'USD', manual: 0 }),
    ]) as [string, string];
    const r = await commitFile(b.db, b.team, null, read('statements/ofx-bank-and-card.ofx'), {
      accounts: { '1234567890': checking },
    });
    expect(r.batches.map((x) => [x.bankAccountId, x.accountRef, x.counts.created])).toEqual([
      [checking, '1234567890', 2],
      [card, '4111111111111111', 1],
    ]);
  });

  it('a GnuCash QIF of two accounts (an investment section left out), keyed by the QIF account names', async () => {
    const b = books();
    const accounts = {
      'Assets:Current Assets:Checking Account': b.checking,
      'Assets:Current Assets:Savings Account': b.savings,
    };
    const { preview } = await previewFile(b.db, b.team, null, read('qif/gnucash-accounts.qif'), { accounts });
    expect(preview.format).toBe('qif');
    expect(preview.warnings).toContain('line 42: an investment account section (!Type:Invst) was left out');
    const r = await commitFile(b.db, b.team, null, read('qif/gnucash-accounts.qif'), { accounts });
    expect(r.batches.map((x) => [x.format, x.bankAccountId, x.counts.created])).toEqual([
      ['qif', b.checking, 2],
      ['qif', b.savings, 1],
    ]);
  });

  it('warns when a file imported into a named account names one that earlier imports put elsewhere', async () => {
    const b = books();
    await commitFile(b.db, b.team, null, read('as-banks-write/mt940-leading-940.sta'), {
      accounts: { NL50RABO0123456789: b.savings },
    });
    const { preview } = await previewFile(b.db, b.team, b.checking, read('as-banks-write/mt940-leading-940.sta'), {});
    expect(preview.statements[0]).toMatchObject({ bankAccountId: b.checking, matchedBy: 'request' });
    expect(preview.warnings).toContain(
      `The file names NL50RABO0123456789, which earlier imports put into another account (${b.savings})`,
    );
  });
});
