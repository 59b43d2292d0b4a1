import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src-shared/api-client';
import { metricRoutes } from '../../src-shared/contract/metrics';
import { contextOptions, pattern, tk, tr } from './helpers/i18n';
import { clockedContext, launchChromium, startUiServer, type UiServer, webUiRoot } from './helpers/ui-server';
import { AppPage } from './pages/app-page';

let webRoot: string;
let ui: UiServer;
let browser: Browser;
let context: BrowserContext;
let app: AppPage;
let page: Page;

beforeAll(async () => {
  webRoot = webUiRoot();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  ui = await startUiServer(webRoot);
  ui.seedDemo();
  context = await clockedContext(browser, contextOptions({ viewport: { width: 1280, height: 900 } }));
  page = await context.newPage();
  app = new AppPage(page, ui.url);
  const { email, password } = await ui.user();
  await app.open('/runway');
  await app.signIn(email, password);
  return async () => {
    await context.close();
    await ui.close();
  };
});

describe('runway and stress tests in the web UI', () => {
  it('shows the runway and both forecasts with their method and backtest', { timeout: 120_000 }, async () => {
    const card = page.getByRole('region', { name: tr('Runway') });
    await card.getByTestId('runway-months').waitFor();
    const basis = 'Window {{from}} – {{to}} · in {{currency}} · cash as of {{asOf}}';
    expect(await card.innerText()).toMatch(pattern(basis, { from: '.*', to: '.*', currency: 'EUR', asOf: '.*' }));
    const months = `${tk('runway:card.months', { count: 1 })}|${tk('runway:card.months', { count: 2 })}`;
    expect(await card.getByTestId('runway-months').innerText()).toMatch(
      new RegExp(`^(∞ ${tr('Infinite')}|[\\d.,]+ (${months}))$`),
    );
    // A window that made money shows its net gain, not a negative burn; the formula waits behind a disclosure.
    if ((await card.getByTestId('runway-months').innerText()).startsWith('∞')) {
      await card.getByText(tr('Net gain per month')).waitFor();
      expect(await card.innerText()).not.toContain(tr('Average monthly burn'));
      expect(await card.locator('dd.earn').innerText()).not.toMatch(/^[-−]/);
    }
    const how = card.locator('details.how');
    expect(await how.locator('p').isVisible()).toBe(false);
    await how.getByText(tr('How is this computed')).click();
    await how.locator('p').waitFor();
    for (const title of ['Cash flow forecast', 'Revenue forecast']) {
      const chart = page.getByRole('region', { name: tr(title) });
      await chart.getByText(tr('How is this computed')).click({ timeout: 60_000 });
      await chart.getByText(tr('Method:')).waitFor();
      // A backtest, or why there is none (the server says so in its own words).
      expect(await chart.innerText()).toMatch(
        new RegExp(`${tr('Backtest')}|No backtest|${tr('No backtest: too few complete months in the window.')}`),
      );
      expect(await chart.locator('canvas').count()).toBe(1);
    }
    // At the bottom of the screen the window is still the app: the document never scrolls, the sidebar stays put.
    await page.locator('main').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.mouse.wheel(0, 5000);
    const layout = await page.evaluate(() => ({
      documentHeight: document.scrollingElement?.scrollHeight ?? 0,
      window: window.innerHeight,
      scrolled: window.scrollY,
      sidebarTop: document.querySelector('.sidebar')?.getBoundingClientRect().top ?? -1,
    }));
    expect(layout).toEqual({ documentHeight: layout.window, window: layout.window, scrolled: 0, sidebarTop: 0 });
  });

  it('builds, saves, reopens and compares stress tests, with field errors at the field', { timeout: 180_000 }, async () => {
    const builder = page.getByRole('region', { name: tr('Stress test') });
    const result = page.locator('.stress-result');
    await result.locator('canvas').waitFor({ timeout: 60_000 });
    const ending = () => result.locator('.stress-facts dd').first().innerText();

    // A revenue drop outside its range: the server's message shows under that input.
    const pct = builder.getByLabel(tr('Revenue change %'));
    await pct.fill('-300');
    const error = builder.locator('.field', { has: page.getByLabel(tr('Revenue change %')) }).locator('.error');
    await error.waitFor({ timeout: 30_000 });
    expect(await error.innerText()).toMatch(/-100|−100|greater|at least/i);
    expect(await pct.getAttribute('aria-invalid')).toBe('true');

    await pct.fill('-40');
    await error.waitFor({ state: 'detached', timeout: 30_000 });
    const before = await ending();
    await builder.getByLabel(tr('Add a driver')).selectOption('HiringPlan');
    await builder.getByLabel(tr('People added')).fill('4');
    await expect.poll(ending, { timeout: 30_000 }).not.toBe(before);
    await page
      .getByRole('table', { name: tr('Impact of each driver') })
      .getByText(tr('Hiring plan'))
      .waitFor();

    // A one-time expense without its day: said at the field before anything is sent, and nothing can be saved.
    await builder.getByLabel(tr('Add a driver')).selectOption('OneTimeExpense');
    await builder.getByText(tr('Choose the day the expense falls on')).waitFor();
    await builder.getByRole('button', { name: tr('Save stress test') }).click();
    await app.toast('Fill in the inputs marked first').waitFor();
    await builder.getByRole('button', { name: `${tr('Remove')} ${tr('One-time expense')}` }).click();
    await builder.getByText(tr('Choose the day the expense falls on')).waitFor({ state: 'detached' });

    await builder.getByLabel(tr('Name')).fill('Lose a client and hire');
    await builder.getByRole('button', { name: tr('Save stress test') }).click();
    await app.toast('Saved “{{name}}”', { name: 'Lose a client and hire' }).waitFor();

    await builder.getByRole('button', { name: `${tr('Remove')} ${tr('Hiring plan')}` }).click();
    await builder.getByLabel(tr('Name')).fill('Lose a client');
    await builder.getByRole('button', { name: tr('Save stress test') }).click();
    await app.toast('Saved “{{name}}”', { name: 'Lose a client' }).waitFor();

    const saved = page.getByRole('table', { name: tr('Saved stress tests') });
    await saved.getByRole('cell', { name: 'Lose a client and hire', exact: true }).waitFor();
    await saved.getByRole('button', { name: `${tk('runway:saved.open')} Lose a client and hire` }).click();
    await builder.getByLabel(tr('People added')).waitFor();
    expect(await builder.getByLabel(tr('People added')).inputValue()).toBe('4');

    await saved.getByLabel(tr('Compare {{name}}', { name: 'Lose a client and hire' })).check();
    await saved.getByLabel(tr('Compare {{name}}', { name: 'Lose a client' }), { exact: true }).check();
    const comparison = page.getByRole('region', { name: tr('Comparison of saved stress tests') });
    await comparison.locator('canvas').waitFor();
    expect(await comparison.locator('.compare-col').count()).toBe(2);

    const key = ui.key();
    const list = await createApiClient({ baseUrl: ui.url, token: () => key }).call(metricRoutes.listStressTests, { query: {} });
    expect(list.data.map((t) => t.name).sort()).toEqual(['Lose a client', 'Lose a client and hire']);

    // Renamed in its row, then deleted after a confirmation.
    await saved.getByRole('button', { name: `${tr('Rename')} Lose a client`, exact: true }).click();
    const newName = saved.getByLabel(tr('New name for {{name}}', { name: 'Lose a client' }));
    await newName.fill('Lose the big client');
    await newName.press('Enter');
    await app.toast('Renamed to {{name}}', { name: 'Lose the big client' }).waitFor();
    await saved.getByRole('cell', { name: 'Lose the big client', exact: true }).waitFor();
    await saved.getByRole('button', { name: `${tk('common:delete')} Lose the big client` }).click();
    await page
      .getByRole('alertdialog')
      .getByRole('button', { name: tr('Delete stress test') })
      .click();
    await saved.getByRole('cell', { name: 'Lose the big client', exact: true }).waitFor({ state: 'detached' });
    const after = await createApiClient({ baseUrl: ui.url, token: () => key }).call(metricRoutes.listStressTests, { query: {} });
    expect(after.data.map((t) => t.name)).toEqual(['Lose a client and hire']);
  });
});
