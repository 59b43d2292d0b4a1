/**
 * Importing a bank CSV in the web build against a real server: picked with the file input, the preview shows the
 * mapping and the new / duplicate counts, the import commits with a progress bar, the batch is listed, the same file
 * again is all duplicates, and undo removes what the import created (checked through the API). Reconciliation shows
 * the difference against a statement balance.
 */
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { updateMe } from '../../src-main/store/teams/team-api';
import { ensureTeam } from '../../src-main/store/teams/teams';
import { findUserByEmail } from '../../src-main/store/users/users';
import { write } from '../../src-main/store/write';
import { createApiClient } from '../../src-shared/api-client';
import { appTransactionRoutes } from '../../src-shared/contract/app-transactions';
import { SAMPLE_CSV } from './helpers/screens-data';
import { buildWebUi, launchChromium, startUiServer, type UiServer } from './helpers/ui-server';
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
  webRoot = await buildWebUi();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  if (webRoot) fs.rmSync(webRoot, { recursive: true, force: true });
});

beforeEach(async () => {
  ui = await startUiServer(webRoot);
  key = ui.key();
  teamId = ensureTeam(ui.server.db, 'Browser Test Co').id;
  accountId = write(ui.server.db, teamId, (w) =>
    w.insert('bank_account', { name: 'Girokonto', type: 'depository', currency: 'EUR', manual: 1 }),
  );
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
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

describe('importing a bank file in the web UI', () => {
  it('previews, imports, shows the batch, sees duplicates the second time, and undoes it', async () => {
    await page.getByLabel('Bank file', { exact: true }).setInputFiles(file);
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByText('statement-november.csv').waitFor({ timeout: 30_000 });
    const tile = (label: string) => preview.locator('.tile', { hasText: label }).locator('dd');
    expect(await tile('Rows').innerText()).toBe('5');
    expect(await tile('New').innerText()).toBe('5');
    expect(await preview.locator('summary').innerText()).toMatch(/Column mapping: date Buchungstag/);
    await preview.getByRole('button', { name: /^Import 5 rows/ }).click();
    await app.toast(/Imported statement-november.csv: 5 new/).waitFor({ timeout: 30_000 });
    await expect.poll(async () => (await imported()).length).toBe(5);
    expect((await imported()).map((t) => t.amount).sort((a, b) => a - b)).toEqual([-89.9, -79.9, -49, -12.5, 4800]);

    const batches = page.getByRole('table', { name: 'Import batches' });
    await batches.getByRole('cell', { name: 'statement-november.csv', exact: true }).waitFor();

    // The same file again: everything is a duplicate (and the app says it was imported before).
    await page.getByLabel('Bank file', { exact: true }).setInputFiles(file);
    await preview.getByText('This file was imported before').waitFor({ timeout: 30_000 });
    expect(await tile('Duplicates').innerText()).toBe('5');
    await preview.getByRole('button', { name: 'Cancel' }).click();

    await batches.getByRole('button', { name: /^Undo/ }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Undo import' }).click();
    await app.toast(/Undone: statement-november.csv/).waitFor();
    await expect.poll(async () => (await imported()).length).toBe(0);
    await batches.getByText(/Undone/).waitFor();
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
    await late.getByLabel('Bank file', { exact: true }).setInputFiles(file);
    const preview = late.getByRole('region', { name: 'Preview' });
    await preview.getByText('statement-november.csv').waitFor({ timeout: 30_000 });
    await expect.poll(() => answered, { timeout: 30_000 }).toBe(true);
    const firstDate = preview.getByRole('table', { name: 'Rows of the file' }).locator('tbody td.date').first();
    await expect.poll(() => firstDate.innerText({ timeout: 500 }).catch(() => 'gone'), { timeout: 5_000 }).toBe('03.11.2026');
    expect(await preview.locator('.tile', { hasText: 'Rows' }).locator('dd').innerText()).toBe('5');
  });

  it('reconciles against a statement balance: the difference and its candidate lines', async () => {
    await page.getByLabel('Bank file', { exact: true }).setInputFiles(file);
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByText('statement-november.csv').waitFor({ timeout: 30_000 });
    await preview.getByRole('button', { name: /^Import 5 rows/ }).click();
    await app.toast(/Imported/).waitFor({ timeout: 30_000 });
    const rec = page.getByRole('region', { name: 'Reconcile with a statement' });
    await rec.getByLabel('Statement date').fill('2026-11-30');
    // The statement says 12.50 more than the ledger: the coffee is the candidate.
    await rec.getByLabel(/Closing balance/).fill('4581.20');
    await rec.getByRole('button', { name: 'Compare' }).click();
    const diff = rec.locator('.tile', { hasText: 'Difference' }).locator('dd');
    await diff.waitFor();
    expect(await diff.innerText()).toMatch(/12\.50/);
    expect(await rec.getByRole('button', { name: /^Reconcile/ }).isDisabled()).toBe(true);
    await rec.getByLabel(/Closing balance/).fill('4568.70');
    await rec.getByRole('button', { name: 'Compare' }).click();
    await expect.poll(() => diff.innerText()).toMatch(/0\.00/);
    await rec.getByRole('button', { name: /^Reconcile 5 transactions/ }).click();
    await app.toast(/Reconciled: 5 transactions marked/).waitFor();
  });
});
