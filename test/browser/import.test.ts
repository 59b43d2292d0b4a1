import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { updateMe } from '../../src-main/store/teams/team-api';
import { ensureTeam } from '../../src-main/store/teams/teams';
import { findUserByEmail } from '../../src-main/store/users/users';
import { write } from '../../src-main/store/write';
import { createApiClient } from '../../src-shared/api-client';
import { appTransactionRoutes } from '../../src-shared/contract/app-transactions';
import { contextOptions, formatted, literally, pattern, startsWith, tk, tr, userDay } from './helpers/i18n';
import { SAMPLE_CSV } from './helpers/screens-data';
import { clockedContext, launchChromium, startUiServer, type UiServer, webUiRoot } from './helpers/ui-server';
import { AppPage } from './pages/app-page';

let webRoot: string;
let ui: UiServer;
let browser: Browser;
let context: BrowserContext;
let app: AppPage;
let page: Page;
let key: string;
let accountId: string;
let teamId: string;

beforeAll(async () => {
  webRoot = webUiRoot();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  ui = await startUiServer(webRoot);
  key = ui.key();
  teamId = ensureTeam(ui.server.db, 'Browser Test Co').id;
  accountId = write(ui.server.db, teamId, (w) =>
    w.insert('bank_account', { name: 'Girokonto', type: 'depository', currency: 'EUR', manual: 1 }),
  );
  context = await clockedContext(browser, contextOptions({ viewport: { width: 1280, height: 900 } }));
  page = await context.newPage();
  app = new AppPage(page, ui.url);
  const { email, password } = await ui.user();
  await app.open('/import');
  await app.signIn(email, password);
  // The account list has arrived (the file goes to the account chosen there).
  await expect.poll(() => page.locator('.import-top select').inputValue()).toBe(accountId);
  return async () => {
    await context.close();
    await ui.close();
  };
});

const file = { name: 'statement-november.csv', mimeType: 'text/csv', buffer: Buffer.from(SAMPLE_CSV) };
const imported = async () =>
  (
    await createApiClient({ baseUrl: ui.url, token: () => key }).call(appTransactionRoutes.list, {
      query: { accounts: [accountId], pageSize: 100 },
    })
  ).data;

/** The toast after importing the sample file, with how many rows came in new. */
const importedPattern = (created: number) =>
  pattern('Imported {{name}}: {{created}} new, {{linked}} matched, {{duplicate}} duplicates skipped, {{review}} to review', {
    name: 'statement-november\\.csv',
    created: String(created),
    linked: '.*',
    duplicate: '.*',
    review: '.*',
  });

describe('importing a bank file in the web UI', () => {
  it('previews, imports, shows the batch, sees duplicates the second time, and undoes it', async () => {
    await page.getByLabel(tr('Bank file'), { exact: true }).setInputFiles(file);
    const preview = page.getByRole('region', { name: tr('Preview') });
    await preview.getByText('statement-november.csv').waitFor({ timeout: 30_000 });
    const tile = (label: string) => preview.locator('.tile', { hasText: tr(label) }).locator('dd');
    expect(await tile('Rows').innerText()).toBe('5');
    expect(await tile('New').innerText()).toBe('5');
    const mapping = 'Column mapping: date {{date}}, amount {{amount}}, decimal “{{decimal}}”, {{format}}';
    expect(await preview.locator('summary').innerText()).toMatch(
      pattern(mapping, { date: 'Buchungstag.*', amount: '.*', decimal: '.*', format: '.*' }),
    );
    await preview.getByRole('button', { name: new RegExp(`^${tk('import:importRows', { count: 5 })}`) }).click();
    await app.toast(importedPattern(5)).waitFor({ timeout: 30_000 });
    await expect.poll(async () => (await imported()).length).toBe(5);
    expect((await imported()).map((t) => t.amount).sort((a, b) => a - b)).toEqual([-89.9, -79.9, -49, -12.5, 4800]);

    const batches = page.getByRole('table', { name: tr('Import batches') });
    await batches.getByRole('cell', { name: 'statement-november.csv', exact: true }).waitFor();

    // The same file again: everything is a duplicate (and the app says it was imported before).
    await page.getByLabel(tr('Bank file'), { exact: true }).setInputFiles(file);
    await preview.getByText(tr('This file was imported before')).waitFor({ timeout: 30_000 });
    expect(await tile('Duplicates').innerText()).toBe('5');
    await preview.getByRole('button', { name: tr('Cancel') }).click();

    await batches.getByRole('button', { name: startsWith('Undo') }).click();
    await page
      .getByRole('alertdialog')
      .getByRole('button', { name: tr('Undo import') })
      .click();
    await app.toast('Undone: {{name}}', { name: 'statement-november.csv' }).waitFor();
    await expect.poll(async () => (await imported()).length).toBe(0);
    await batches.getByText(pattern('Undone {{at}}', { at: '.+' })).waitFor();
  });

  it('maps a column by its header and values, then links to the imported rows and to a rule made from them', async () => {
    await page.getByLabel(tr('Bank file'), { exact: true }).setInputFiles(file);
    const preview = page.getByRole('region', { name: tr('Preview') });
    await preview.getByText('statement-november.csv').waitFor({ timeout: 30_000 });
    await preview.locator('summary').click();
    // The amount column by name, with its values as the file writes them.
    const amount = preview.getByLabel(tr('Amount column'));
    expect(await amount.locator('option:checked').innerText()).toBe('Betrag — -12,50 · 4.800,00');
    const counterparty = preview.getByLabel(tr('Counterparty column'));
    await counterparty.selectOption({ label: 'Verwendungszweck — Kartenzahlung · Rechnung INV-0042' });
    await preview.getByRole('button', { name: tr('Preview with this mapping') }).click();
    await preview.getByRole('button', { name: new RegExp(`^${tk('import:importRows', { count: 5 })}`) }).click();
    await app.toast(importedPattern(5)).waitFor({ timeout: 30_000 });

    const done = page.getByRole('status').filter({ hasText: tr('Show its transactions') });
    const ruleHref = await done.getByRole('link', { name: tr('Create a rule from these') }).getAttribute('href');
    const batchId = new URL(ruleHref ?? '', ui.url).searchParams.get('fromBatch');
    expect(batchId).toBeTruthy();
    await done.getByRole('link', { name: tr('Show its transactions') }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('batch')).toBe(batchId);
    const grid = page.getByRole('grid', { name: tr('Transactions') });
    await expect.poll(() => grid.locator('[data-transaction-id]').count()).toBe(5);
    expect(await grid.getByText('Rechnung INV-0042').count()).toBeGreaterThan(0);
  });

  it("keeps a preview made before the user's preferences arrived, and shows it in them", async () => {
    // The preferences (here a dd.MM.yyyy date format) come 1.5 s late. The screen used to mount at once with the
    // browser's defaults and be mounted afresh when they came, losing the preview picked in between.
    const { email } = await ui.user();
    const user = findUserByEmail(ui.server.db, email);
    if (!user) throw new Error('no test user');
    updateMe(ui.server.db, { teamId, userId: user.id }, { dateFormat: 'dd.MM.yyyy' });
    const late = await context.newPage(); // the context's session cookie: signed in already
    let answered = false;
    await late.route('**/v1/users/me', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
      answered = true;
    });
    await late.goto(`${ui.url}/import`);
    // The account list comes only with the screen, after the held preferences.
    await expect.poll(() => late.locator('.import-top select').inputValue(), { timeout: 30_000 }).toBe(accountId);
    await late.getByLabel(tr('Bank file'), { exact: true }).setInputFiles(file);
    const preview = late.getByRole('region', { name: tr('Preview') });
    await preview.getByText('statement-november.csv').waitFor({ timeout: 30_000 });
    await expect.poll(() => answered, { timeout: 30_000 }).toBe(true);
    const firstDate = preview
      .getByRole('table', { name: tr('Rows of the file') })
      .locator('tbody td.date')
      .first();
    await expect.poll(() => firstDate.innerText({ timeout: 500 }).catch(() => 'gone'), { timeout: 5_000 }).toBe('03.11.2026');
    expect(
      await preview
        .locator('.tile', { hasText: tr('Rows') })
        .locator('dd')
        .innerText(),
    ).toBe('5');
  });

  it('reconciles against a statement balance: the difference and its candidate lines', async () => {
    await page.getByLabel(tr('Bank file'), { exact: true }).setInputFiles(file);
    const preview = page.getByRole('region', { name: tr('Preview') });
    await preview.getByText('statement-november.csv').waitFor({ timeout: 30_000 });
    await preview.getByRole('button', { name: new RegExp(`^${tk('import:importRows', { count: 5 })}`) }).click();
    await app.toast(importedPattern(5)).waitFor({ timeout: 30_000 });
    const rec = page.getByRole('region', { name: tr('Reconcile with a statement') });
    await rec.getByLabel(tr('Statement date')).fill('2026-11-30');
    // The statement says 12.50 more than the ledger: the coffee is the candidate.
    const balance = rec.getByLabel(pattern('Closing balance ({{currency}})', { currency: '.*' }));
    await balance.fill('4581.20');
    await rec.getByRole('button', { name: tr('Compare') }).click();
    const diff = rec.locator('.tile', { hasText: tr('Difference') }).locator('dd');
    await diff.waitFor();
    expect(await diff.innerText()).toContain(formatted(12.5, 2));
    // The sentence under the figures says them in the user's formats (not "4581.20" and ISO days under German ones).
    const said = await rec.locator('.reconcile-result > p').innerText();
    expect(said).toContain(formatted(4581.2, 2));
    expect(said).toContain(userDay('2026-11-30'));
    const reconcileButton = rec.getByRole('button', { name: tk('import:reconcile.reconcileCount', { count: 5 }) });
    expect(await reconcileButton.isDisabled()).toBe(true);
    await balance.fill('4568.70');
    await rec.getByRole('button', { name: tr('Compare') }).click();
    await expect.poll(() => diff.innerText()).toContain(formatted(0, 2));
    await reconcileButton.click();
    await app.toast(literally(tk('import:reconcile.done', { count: 5 }))).waitFor();
  });
});
