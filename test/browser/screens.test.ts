/**
 * Every screen of the web build, in the light and the dark theme (the "system" theme, followed from the browser's
 * colour scheme), against a real server with the demo data: each is checked with axe (no serious or critical
 * violation) and saved as a screenshot under reports/screenshots/ (gitignored: made afresh by every run) for review.
 * Also: no table is wider than a 1280 px window, and the page does not jump sideways.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli';
import { checkAxe } from './helpers/axe';
import { SAMPLE_CSV, seedScreensData } from './helpers/screens-data';
import { buildWebUi, launchChromium, startUiServer, type UiServer } from './helpers/ui-server';
import { AppPage } from './pages/app-page';

const SHOTS = path.join(ROOT, 'reports', 'screenshots');

let webRoot: string;
let ui: UiServer;
let browser: Browser;
let user: { email: string; password: string };

beforeAll(async () => {
  webRoot = await buildWebUi();
  browser = await launchChromium();
  ui = await startUiServer(webRoot);
  ui.seedDemo();
  await seedScreensData(ui);
  user = await ui.user();
  fs.mkdirSync(SHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await ui?.close();
  if (webRoot) fs.rmSync(webRoot, { recursive: true, force: true });
});

interface Screen {
  name: string;
  /** Opens the screen from a signed-in page and waits until its content (not a skeleton) shows. */
  open(page: Page, app: AppPage): Promise<void>;
}

const SCREENS: Screen[] = [
  {
    name: 'customers',
    async open(page, app) {
      await app.nav('Customers').click();
      await page.getByRole('table', { name: 'Customers' }).locator('tbody tr[data-customer-id]').first().waitFor();
    },
  },
  {
    name: 'transactions',
    async open(page, app) {
      await app.nav('Transactions').click();
      await page.getByRole('grid', { name: 'Transactions' }).locator('[data-transaction-id]').first().waitFor();
      await page.getByRole('tab', { name: /To review\s*\d/ }).waitFor();
    },
  },
  {
    name: 'transaction-detail',
    async open(page, app) {
      await SCREENS[1]!.open(page, app);
      await page.getByRole('grid', { name: 'Transactions' }).focus();
      await page.keyboard.press('Enter');
      await page.locator('.tx-panel .tx-amount').waitFor();
    },
  },
  {
    name: 'transaction-shortcuts',
    async open(page, app) {
      await SCREENS[1]!.open(page, app);
      await page.getByRole('grid', { name: 'Transactions' }).focus();
      await page.keyboard.press('?');
      await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    },
  },
  {
    name: 'import',
    async open(page, app) {
      await app.nav('Import').click();
      await page.getByRole('button', { name: 'Choose a file…' }).waitFor();
      await page.getByRole('region', { name: 'Imports' }).waitFor();
    },
  },
  {
    name: 'import-preview',
    async open(page, app) {
      await SCREENS.find((s) => s.name === 'import')!.open(page, app);
      await page
        .getByLabel('Bank file', { exact: true })
        .setInputFiles({ name: 'statement-november.csv', mimeType: 'text/csv', buffer: Buffer.from(SAMPLE_CSV) });
      await page.getByRole('region', { name: 'Preview' }).getByText('Balance check').waitFor({ timeout: 30_000 });
    },
  },
  {
    name: 'runway',
    async open(page, app) {
      await app.nav('Runway').click();
      await page.getByRole('region', { name: 'Runway' }).getByTestId('runway-months').waitFor();
      await page.getByRole('region', { name: 'Cash flow forecast' }).getByText('Method:').waitFor({ timeout: 60_000 });
      await page.getByRole('region', { name: 'Revenue forecast' }).getByText('Method:').waitFor({ timeout: 60_000 });
    },
  },
  {
    name: 'stress-tests',
    async open(page, app) {
      await SCREENS.find((s) => s.name === 'runway')!.open(page, app);
      await page.locator('.stress-result canvas').waitFor({ timeout: 60_000 });
      await page.getByRole('heading', { name: 'Stress test', exact: true }).scrollIntoViewIfNeeded();
    },
  },
  {
    name: 'workflow-runs',
    async open(page, app) {
      await app.nav('Workflows').click();
      const row = page.getByRole('table', { name: 'Workflow runs' }).locator('tbody tr[data-run-id]').first();
      await row.getByText('Waiting').waitFor({ timeout: 20_000 });
      await row.click();
      await page
        .getByRole('region', { name: 'Run detail' })
        .getByText(/Waiting for your approval/)
        .waitFor();
    },
  },
  {
    name: 'notifications',
    async open(page) {
      await page.getByRole('button', { name: /^Notifications/ }).click();
      await page.getByRole('dialog', { name: 'Notifications' }).waitFor();
      await page.locator('.notif-list .notif:not(.skeleton-block), .popover-empty').first().waitFor();
    },
  },
  {
    name: 'settings',
    async open(page, app) {
      await app.nav('Settings').click();
      await page.getByRole('table', { name: 'Signed-in browsers' }).locator('tbody tr').first().waitFor();
    },
  },
  {
    name: 'about',
    async open(page, app) {
      await app.nav('Health and about').click();
      await page.getByText('Healthy').waitFor();
    },
  },
];

async function noHorizontalOverflow(page: Page, label: string): Promise<void> {
  const overflowing = await page.evaluate(() =>
    [...document.querySelectorAll('.main, .table-wrap, .tx-grid, .card')]
      .filter((el) => el.scrollWidth - el.clientWidth > 1)
      .map((el) => `${el.className} (${el.scrollWidth} > ${el.clientWidth})`),
  );
  expect(overflowing, `${label}: wider than a 1280 px window`).toEqual([]);
}

describe.each(['light', 'dark'] as const)('every screen in the %s theme', (theme) => {
  it('sign-in, then each screen: axe finds nothing serious, nothing overflows, a screenshot is saved', {
    timeout: 300_000,
  }, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: theme });
    const page = await context.newPage();
    const app = new AppPage(page, ui.url);
    try {
      await app.open('/');
      await page.getByRole('form', { name: 'Sign in' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
      await checkAxe(page, `sign-in (${theme})`);
      await page.screenshot({ path: path.join(SHOTS, `sign-in-${theme}.png`) });
      await app.signIn(user.email, user.password);

      for (const screen of SCREENS) {
        await app.open('/customers');
        await page.getByRole('navigation', { name: 'Main' }).waitFor();
        await screen.open(page, app);
        // Let fonts, counts and charts settle before the picture.
        await page.waitForTimeout(300);
        await checkAxe(page, `${screen.name} (${theme})`);
        await noHorizontalOverflow(page, `${screen.name} (${theme})`);
        await page.screenshot({ path: path.join(SHOTS, `${screen.name}-${theme}.png`) });
      }
      // 401: the session check before sign-in; 404: a forecast not stored yet for these inputs, then computed.
      expect(app.errors.filter((e) => !/status of (401|404)/.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
