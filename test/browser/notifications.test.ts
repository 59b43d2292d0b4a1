/**
 * The notifications bell in the web build: the unread count on the bell, the list, one marked read, then all;
 * a notification created meanwhile by the server appears without a reload (change stream).
 */
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureTeam } from '../../src-main/store/teams/teams';
import { write } from '../../src-main/store/write';
import { contextOptions, pattern, startsWith, tr } from './helpers/i18n';
import { seedScreensData } from './helpers/screens-data';
import { buildWebUi, launchChromium, startUiServer, type UiServer } from './helpers/ui-server';
import { AppPage } from './pages/app-page';

let webRoot: string;
let ui: UiServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let app: AppPage;

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
  await seedScreensData(ui);
  context = await browser.newContext(contextOptions());
  page = await context.newPage();
  app = new AppPage(page, ui.url);
  const { email, password } = await ui.user();
  await app.open('/customers');
  await app.signIn(email, password);
  return async () => {
    await context.close();
    await ui.close();
  };
});

describe('notifications in the web UI', () => {
  it('counts unread on the bell, marks one read, then all, and shows a new one live', async () => {
    const bell = page.getByRole('button', { name: startsWith('Notifications') });
    const counted = pattern('Notifications, {{shown}} unread', { shown: '(\\d+)' });
    const unread = async () => {
      const label = (await bell.getAttribute('aria-label')) ?? '';
      return label === tr('Notifications, none unread') ? 0 : Number(counted.exec(label)?.[1] ?? Number.NaN);
    };
    // The two seeded, and whatever the seeded workflow run announced.
    await expect.poll(unread).toBeGreaterThanOrEqual(2);
    const before = await unread();
    // The count sits beside the bell, not over it.
    const icon = await bell.locator('svg').boundingBox();
    const badge = await bell.locator('.bell-count').boundingBox();
    if (!icon || !badge) throw new Error('no bell or no count');
    expect(badge.x).toBeGreaterThanOrEqual(icon.x + icon.width);
    await bell.click();
    const panel = page.getByRole('dialog', { name: tr('Notifications') });
    await panel.locator('.notif-title', { hasText: tr('Invoice overdue') }).waitFor();
    await panel.getByRole('button', { name: new RegExp(`${tr('Mark read')}.*${tr('Invoice overdue')}`) }).click();
    await expect.poll(unread).toBe(before - 1);

    // The server notifies while the page is open: the count follows without a reload.
    write(ui.server.db, ensureTeam(ui.server.db, 'Browser Test Co').id, (w) =>
      w.insert('notification', {
        type: 'invoice_paid',
        priority: 1,
        source: 'system',
        status: 'unread',
        metadata: '{"invoiceNumber":"INV-0043"}',
      }),
    );
    await expect.poll(unread, { timeout: 10_000 }).toBe(before);
    await panel.getByText('INV-0043').waitFor();

    await panel.getByRole('button', { name: tr('Mark all as read') }).click();
    await app.toast('All notifications marked as read').waitFor();
    await expect.poll(() => bell.getAttribute('aria-label')).toBe(tr('Notifications, none unread'));
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    expect(await bell.evaluate((el) => el === document.activeElement)).toBe(true);
  });
});
