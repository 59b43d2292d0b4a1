/**
 * Runway and stress tests in the web build against a real server with the demo data: the runway card with its
 * window and currency, both forecasts with the method and backtest named; a stress test built from drivers with a
 * server field error shown at its field, the live preview moving, saved twice, reopened, and two compared side by side.
 */
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src-shared/api-client';
import { metricRoutes } from '../../src-shared/contract/metrics';
import { buildWebUi, launchChromium, startUiServer, type UiServer } from './helpers/ui-server';
import { AppPage } from './pages/app-page';

let webRoot: string;
let ui: UiServer;
let browser: Browser;
let context: BrowserContext;
let app: AppPage;
let page: Page;

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
  ui.seedDemo();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
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
    const card = page.getByRole('region', { name: 'Runway' });
    await card.getByTestId('runway-months').waitFor();
    expect(await card.innerText()).toMatch(/Window .* in EUR/);
    expect(await card.getByTestId('runway-months').innerText()).toMatch(/^(∞ Infinite|[\d.,]+ months)$/);
    for (const title of ['Cash flow forecast', 'Revenue forecast']) {
      const chart = page.getByRole('region', { name: title });
      await chart.getByText('Method:').waitFor({ timeout: 60_000 });
      expect(await chart.innerText()).toMatch(/Backtest|No backtest/);
      expect(await chart.locator('canvas').count()).toBe(1);
    }
  });

  it('builds, saves, reopens and compares stress tests, with field errors at the field', { timeout: 180_000 }, async () => {
    const builder = page.getByRole('region', { name: 'Stress test' });
    const result = page.locator('.stress-result');
    await result.locator('canvas').waitFor({ timeout: 60_000 });
    const ending = () => result.locator('.stress-facts dd').first().innerText();

    // A revenue drop outside its range: the server's message shows under that input.
    const pct = builder.getByLabel('Revenue change %');
    await pct.fill('-300');
    const error = builder.locator('.field', { has: page.getByLabel('Revenue change %') }).locator('.error');
    await error.waitFor({ timeout: 30_000 });
    expect(await error.innerText()).toMatch(/-100|−100|greater|at least/i);
    expect(await pct.getAttribute('aria-invalid')).toBe('true');

    await pct.fill('-40');
    await error.waitFor({ state: 'detached', timeout: 30_000 });
    const before = await ending();
    await builder.getByLabel('Add a driver').selectOption('HiringPlan');
    await builder.getByLabel('People added').fill('4');
    await expect.poll(ending, { timeout: 30_000 }).not.toBe(before);
    await page.getByRole('table', { name: 'Impact of each driver' }).getByText('Hiring plan').waitFor();

    await builder.getByLabel('Name').fill('Lose a client and hire');
    await builder.getByRole('button', { name: 'Save stress test' }).click();
    await app.toast(/Saved “Lose a client and hire”/).waitFor();

    await builder.getByRole('button', { name: 'Remove Hiring plan' }).click();
    await builder.getByLabel('Name').fill('Lose a client');
    await builder.getByRole('button', { name: 'Save stress test' }).click();
    await app.toast(/Saved “Lose a client”/).waitFor();

    const saved = page.getByRole('table', { name: 'Saved stress tests' });
    await saved.getByRole('cell', { name: 'Lose a client and hire', exact: true }).waitFor();
    await saved.getByRole('button', { name: 'Open Lose a client and hire' }).click();
    await builder.getByLabel('People added').waitFor();
    expect(await builder.getByLabel('People added').inputValue()).toBe('4');

    await saved.getByLabel('Compare Lose a client and hire').check();
    await saved.getByLabel('Compare Lose a client', { exact: true }).check();
    const comparison = page.getByRole('region', { name: 'Comparison of saved stress tests' });
    await comparison.locator('canvas').waitFor();
    expect(await comparison.locator('.compare-col').count()).toBe(2);

    const key = ui.key();
    const list = await createApiClient({ baseUrl: ui.url, token: () => key }).call(metricRoutes.listStressTests, { query: {} });
    expect(list.data.map((t) => t.name).sort()).toEqual(['Lose a client', 'Lose a client and hire']);
  });
});
