/**
 * A file of several accounts' statements on the import screen, in the web build against a real server
 * (docs/decisions/0069, 0117): an MT940 export of two accounts shows each statement with the account it names and a
 * picker, marked while no account is known and holding the Import button back; the account whose IBAN the statement
 * names is found by itself; two statements cannot pick one account; a choice is previewed at once; the import makes a
 * batch per account, each listed with its links, and the rows are in each account (checked through the API). A single
 * statement uploaded for "the account the file names" finds its account by its IBAN.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Locator } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { ensureTeam } from '../../src-main/store/teams/teams';
import { write } from '../../src-main/store/write';
import { createApiClient } from '../../src-shared/api-client';
import { appTransactionRoutes } from '../../src-shared/contract/app-transactions';
import { bankAccountRoutes } from '../../src-shared/contract/bank-accounts';
import { importRoutes } from '../../src-shared/contract/import';
import { checkAxeBothThemes } from './helpers/axe';
import { pattern, tk, tr } from './helpers/i18n';
import { journeySuite } from './helpers/suite';

const journey = journeySuite({ viewport: { width: 1280, height: 900 } });
const page = () => journey.page;
const client = () => createApiClient({ baseUrl: journey.ui.url, token: () => journey.ui.key() });

const ALL = fs.readFileSync(path.resolve(__dirname, '../fixtures/import/statements/mt940-all-accounts.sta'));
const GIRO = '37040044/0532013000';
const TAGESGELD = 'DE12500105170648489890';

let giro: string;
let tagesgeld: string;
let card: string;

beforeEach(async () => {
  const teamId = ensureTeam(journey.ui.server.db, 'Browser Test Co').id;
  [giro, tagesgeld, card] = write(journey.ui.server.db, teamId, (w) => [
    w.insert('bank_account', { name: 'Girokonto', type: 'depository', currency: 'EUR', manual: 1 }),
    w.insert('bank_account', { name: 'Tagesgeld', type: 'depository', currency: 'EUR', manual: 1 }),
    w.insert('bank_account', { name: 'Travel Card', type: 'credit', currency: 'USD', manual: 1 }),
  ]) as [string, string, string];
  const { email, password } = await journey.ui.user();
  await journey.app.open('/import');
  await journey.app.signIn(email, password);
  await expect.poll(() => page().locator('.import-top select').inputValue()).toBe(giro);
  return () => expect(journey.app.errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
});

async function drop(name: string, content: Buffer) {
  await page()
    .getByLabel(tr('Bank file'), { exact: true })
    .setInputFiles({ name, mimeType: 'application/octet-stream', buffer: content });
  const preview = page().getByRole('region', { name: tr('Preview') });
  await preview.getByRole('heading', { name }).waitFor({ timeout: 30_000 });
  return preview;
}

const statementsOf = (preview: Locator) => preview.getByRole('region', { name: tr('Statements in the file') });
const rowsOf = async (accountId: string) =>
  (await client().call(appTransactionRoutes.list, { query: { accounts: [accountId], pageSize: 100 } })).data;
const counts = (rows: number, fresh: number) =>
  tk('import:statements.counts', { count: rows, new: fresh, duplicate: 0, link: 0, review: 0, rejected: 0 });
const importButton = (preview: Locator) => preview.locator('.commit-row .btn.primary');

describe('a file of several accounts on the import screen', () => {
  it('asks for each unknown account, finds one by its IBAN, refuses one account twice, and imports a batch per account', async () => {
    // Without an IBAN on any account, neither statement's account is known: both are marked, Import is held back.
    let preview = await drop('alle-konten.sta', ALL);
    let statements = statementsOf(preview);
    await statements.getByRole('heading', { name: tk('import:statements.title', { count: 2 }) }).waitFor();
    const items = statements.getByRole('listitem');
    expect(await items.count()).toBe(2);
    expect(await items.filter({ hasText: tr('Choose an account') }).count()).toBe(2);
    expect(await items.nth(0).locator('.statement-ref').innerText()).toBe(GIRO);
    expect(await items.nth(1).locator('.statement-ref').innerText()).toBe(TAGESGELD);
    expect(await importButton(preview).innerText()).toBe(tk('import:statements.blockedNeeds', { count: 2 }));
    expect(await importButton(preview).isDisabled()).toBe(true);
    await checkAxeBothThemes(page(), 'the statements of a file of several accounts');
    await preview.getByRole('button', { name: tk('common:cancel') }).click();

    // The Tagesgeld account's IBAN: its statement goes there by itself.
    await client().call(bankAccountRoutes.update, { params: { id: tagesgeld }, body: { iban: TAGESGELD } });
    preview = await drop('alle-konten.sta', ALL);
    statements = statementsOf(preview);
    const giroItem = statements.getByRole('listitem').filter({ hasText: GIRO });
    const savingsItem = statements.getByRole('listitem').filter({ hasText: TAGESGELD });
    await savingsItem.getByText(tr('Found by the account’s IBAN')).waitFor();
    expect(await savingsItem.getByText(tr('Choose an account')).count()).toBe(0);
    expect(await savingsItem.getByRole('combobox').inputValue()).toBe(tagesgeld);
    await savingsItem.getByText(counts(1, 1)).waitFor();
    await giroItem.getByText(tr('Choose an account')).waitFor();
    await giroItem.getByText(tr('Its rows are checked once it has an account.')).waitFor();
    expect(await importButton(preview).innerText()).toBe(tk('import:statements.blockedNeeds', { count: 1 }));

    // The picker offers the accounts in the statement's currency (EUR) first, the others after.
    const picker = giroItem.getByRole('combobox');
    const groups = await picker
      .locator('optgroup')
      .evaluateAll((gs) => gs.map((g) => [g.getAttribute('label'), [...g.querySelectorAll('option')].map((o) => o.value)]));
    expect(groups).toEqual([
      [tk('import:statements.inCurrency', { currency: 'EUR' }), [giro, tagesgeld]],
      [tk('import:statements.otherCurrencies'), [card]],
    ]);

    // Tagesgeld already takes the other statement: refused here, nothing sent, Import says why.
    await picker.selectOption(tagesgeld);
    await giroItem
      .getByRole('alert')
      .filter({ hasText: tk('import:statements.clash', { account: 'Tagesgeld', n: 2, other: TAGESGELD }) })
      .waitFor();
    expect(await importButton(preview).innerText()).toBe(tk('import:statements.blockedClash'));
    expect(await giroItem.getByText(tr('Choose an account')).count()).toBe(1);

    // Girokonto: previewed at once with the choice, the counts follow.
    await picker.selectOption(giro);
    await giroItem.getByText(tr('Chosen by you')).waitFor({ timeout: 30_000 });
    await giroItem.getByText(counts(3, 3)).waitFor();
    expect(await giroItem.getByRole('alert').count()).toBe(0);
    expect(await giroItem.getByText(tr('Choose an account')).count()).toBe(0);
    expect(
      await preview
        .locator('.tile', { hasText: tr('Rows') })
        .locator('dd')
        .innerText(),
    ).toBe('4');
    expect(await importButton(preview).innerText()).toMatch(new RegExp(`^${tk('import:importRows', { count: 4 })}`));
    await checkAxeBothThemes(page(), 'the statements, each with its account');

    await importButton(preview).click();
    await journey.app
      .toast(
        pattern(
          'Imported {{name}}: {{created}} new, {{linked}} matched, {{duplicate}} duplicates skipped, {{review}} to review',
          {
            name: 'alle-konten\\.sta',
            created: '4',
            linked: '0',
            duplicate: '0',
            review: '0',
          },
        ),
      )
      .waitFor({ timeout: 30_000 });

    // One batch per account, each with its account, counts and links.
    const done = page()
      .getByRole('status')
      .filter({ hasText: tk('import:done.several', { name: 'alle-konten.sta', count: 2 }) });
    const batches = (await client().call(importRoutes.listBatches, { query: {} })).data;
    const batchOf = (accountId: string) => batches.find((b) => b.bankAccountId === accountId)!.id;
    for (const [accountId, name, created] of [
      [giro, 'Girokonto', 3],
      [tagesgeld, 'Tagesgeld', 1],
    ] as const) {
      const line = done.locator(`li[data-batch="${batchOf(accountId)}"]`);
      await line.getByText(tk('import:done.batch', { account: name, created, linked: 0, duplicate: 0, review: 0 })).waitFor();
      const show = await line.getByRole('link', { name: tr('Show its transactions') }).getAttribute('href');
      expect(new URL(show ?? '', journey.ui.url).searchParams.get('batch')).toBe(batchOf(accountId));
      const rule = await line.getByRole('link', { name: tr('Create a rule from these') }).getAttribute('href');
      expect(new URL(rule ?? '', journey.ui.url).searchParams.get('fromBatch')).toBe(batchOf(accountId));
    }
    expect(batches).toHaveLength(2);
    expect((await rowsOf(giro)).map((r) => r.amount).sort((a, b) => a - b)).toEqual([-1250, -84, 3570]);
    expect((await rowsOf(tagesgeld)).map((r) => r.amount)).toEqual([500]);
    expect(await rowsOf(card)).toEqual([]);
    await checkAxeBothThemes(page(), 'the batches of a file of several accounts');

    // "Create a rule from these" of one batch opens the rule editor for that batch.
    await done
      .locator(`li[data-batch="${batchOf(tagesgeld)}"]`)
      .getByRole('link', { name: tr('Create a rule from these') })
      .click();
    await expect.poll(() => new URL(page().url()).searchParams.get('fromBatch')).toBe(batchOf(tagesgeld));
  });

  it('sends a single statement to the account its IBAN names when the file is to find its account', async () => {
    await client().call(bankAccountRoutes.update, { params: { id: tagesgeld }, body: { iban: TAGESGELD } });
    const one = `${ALL.toString('utf8').split(/\r?\n(?=:20:)/)[1]}`;
    await page()
      .locator('.import-top select')
      .selectOption({ label: tr('The account the file names') });
    const preview = await drop('tagesgeld.sta', Buffer.from(one));
    const statements = statementsOf(preview);
    const item = statements.getByRole('listitem');
    expect(await item.count()).toBe(1);
    await item.getByText(tr('Found by the account’s IBAN')).waitFor();
    expect(await item.getByRole('combobox').inputValue()).toBe(tagesgeld);
    expect(await importButton(preview).innerText()).toMatch(new RegExp(`^${tk('import:importRows', { count: 1 })}`));
    await importButton(preview).click();
    await page()
      .getByRole('status')
      .filter({ hasText: tr('{{name}} is imported.', { name: 'tagesgeld.sta' }) })
      .waitFor({
        timeout: 30_000,
      });
    expect((await rowsOf(tagesgeld)).map((r) => r.amount)).toEqual([500]);
    expect(await rowsOf(giro)).toEqual([]);
  });
});
