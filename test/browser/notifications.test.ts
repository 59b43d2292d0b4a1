import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureTeam } from '../../src-main/store/teams/teams';
import { write } from '../../src-main/store/write';
import { createApiClient } from '../../src-shared/api-client';
import { bankAccountRoutes } from '../../src-shared/contract/bank-accounts';
import { importRoutes } from '../../src-shared/contract/import';
import { invoiceRoutes } from '../../src-shared/contract/invoices';
import { notificationRoutes } from '../../src-shared/contract/notifications';
import { contextOptions, pattern, startsWith, tr } from './helpers/i18n';
import { SAMPLE_CSV, seedScreensData } from './helpers/screens-data';
import { clockedContext, launchChromium, startUiServer, type UiServer, webUiRoot } from './helpers/ui-server';
import { AppPage } from './pages/app-page';

let webRoot: string;
let ui: UiServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let app: AppPage;

beforeAll(async () => {
  webRoot = webUiRoot();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  ui = await startUiServer(webRoot);
  await seedScreensData(ui);
  context = await clockedContext(browser, contextOptions());
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

  it('leads from a notification to what it is about: an invoice to its page, an import to its transactions', {
    timeout: 120_000,
  }, async () => {
    ui.seedDemo();
    const api = createApiClient({ baseUrl: ui.url, token: () => ui.key() });
    const [invoice] = (await api.call(invoiceRoutes.list, { query: { statuses: ['overdue'], pageSize: 1 } })).data;
    if (!invoice) throw new Error('the demo has no overdue invoice');
    // An import makes its own notification, naming its batch.
    const account = await api.call(bankAccountRoutes.create, { body: { name: 'Import Test', currency: 'EUR' } });
    const preview = await api.call(importRoutes.upload, {
      query: { bankAccountId: account.id },
      body: { fileName: 'bank.csv', content: Buffer.from(SAMPLE_CSV).toString('base64') },
    });
    const commit = await api.call(importRoutes.commit, { params: { id: preview.uploadId }, body: {} });
    write(ui.server.db, ensureTeam(ui.server.db, 'Browser Test Co').id, (w) =>
      w.insert('notification', {
        type: 'invoice_overdue',
        priority: 1,
        source: 'system',
        status: 'unread',
        metadata: JSON.stringify({ invoiceId: invoice.id, invoiceNumber: invoice.invoiceNumber }),
      }),
    );

    const bell = page.getByRole('button', { name: startsWith('Notifications') });
    const panel = page.getByRole('dialog', { name: tr('Notifications') });
    await bell.click();
    await panel
      .getByRole('link', { name: tr('Invoice overdue') })
      .first()
      .click();
    await page.getByRole('heading', { level: 1, name: new RegExp(invoice.invoiceNumber!) }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/invoices/${invoice.id}`);
    await panel.waitFor({ state: 'detached' });
    const read = await api.call(notificationRoutes.list, { query: { status: ['read'], pageSize: 100 } });
    expect(read.data.some((n) => (n.metadata as { invoiceId?: string }).invoiceId === invoice.id)).toBe(true);

    await bell.click();
    await panel
      .getByRole('link', { name: tr('New transactions') })
      .first()
      .click();
    await expect.poll(() => new URL(page.url()).searchParams.get('batch')).toBe(commit.batch.id);
    const grid = page.getByRole('grid', { name: tr('Transactions') });
    await expect.poll(() => grid.locator('[data-transaction-id]').count()).toBe(5);
    await page.getByText(tr('From one import')).waitFor();
  });
});
