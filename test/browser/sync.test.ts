/**
 * The Sync screen in the web build against two real servers on loopback (a local one serving the UI, a remote one
 * with its own data dir): connect with an address and an API key after a connection test, watch the first round
 * end, meet a conflict with both values side by side and resolve it with one click, see the value taken reach the
 * remote, and see the app frame say "offline" when the remote is gone. Axe finds nothing serious in either theme.
 */
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src-shared/api-client';
import { tagRoutes } from '../../src-shared/contract/tags';
import { checkAxe } from './helpers/axe';
import { buildWebUi, launchChromium, startUiServer, type UiServer } from './helpers/ui-server';
import { AppPage } from './pages/app-page';

let webRoot: string;
let browser: Browser;
let local: UiServer;
let remote: UiServer;

beforeAll(async () => {
  webRoot = await buildWebUi();
  browser = await launchChromium();
  local = await startUiServer(webRoot);
  remote = await startUiServer(webRoot);
});

afterAll(async () => {
  await browser?.close();
  await local?.close();
  await remote?.close();
  if (webRoot) fs.rmSync(webRoot, { recursive: true, force: true });
});

/** Axe in the light and the dark theme (the system theme follows the browser's colour scheme). */
async function checkBothThemes(page: Page, label: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
    await checkAxe(page, `${label} (${theme})`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const client = (server: UiServer, token: string) => createApiClient({ baseUrl: server.url, token: () => token });

describe('the Sync screen', () => {
  it('connects to a second server, syncs, resolves a conflict with one click, and shows offline in the frame', {
    timeout: 180_000,
  }, async () => {
    const remoteKey = remote.key('Remote Books');
    const localKey = local.key();
    const remoteApi = client(remote, remoteKey);
    const localApi = client(local, localKey);
    const travel = await remoteApi.call(tagRoutes.create, { body: { name: 'Travel' } });
    const { email, password } = await local.user();

    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, colorScheme: 'light' });
    const page = await context.newPage();
    const app = new AppPage(page, local.url);
    try {
      await app.open('/sync');
      await app.signIn(email, password);
      const connect = page.getByRole('region', { name: 'Connect a remote' });
      await connect.waitFor();
      await checkBothThemes(page, 'sync: connect');

      // A wrong address is caught before anything is sent; the test says which team the key reaches.
      await connect.getByLabel('Remote address').fill(remote.url);
      await connect.getByLabel('API key of the remote').fill(remoteKey);
      await connect.getByRole('button', { name: 'Test connection' }).click();
      await connect.getByText('Enter an http or https address whose path ends in /v1.').waitFor();
      await connect.getByLabel('Remote address').fill(`${remote.url}/v1`);
      await connect.getByRole('button', { name: 'Test connection' }).click();
      await connect.getByText('Connection works: the key belongs to the team “Remote Books” (base currency EUR).').waitFor();

      await connect.getByRole('button', { name: 'Connect and sync' }).click();
      const status = page.getByRole('region', { name: /^Remote:/ });
      await status.getByText(/received 1, sent 0, 0 conflicts/).waitFor({ timeout: 30_000 });
      await status.getByText('Up to date').waitFor();
      expect(await status.textContent()).not.toContain(remoteKey);
      expect((await localApi.call(tagRoutes.get, { params: { id: travel.id } })).name).toBe('Travel');

      // Both sides rename the tag (the remote first: a scheduled round in between must not hide the conflict).
      await remoteApi.call(tagRoutes.update, { params: { id: travel.id }, body: { name: 'Journeys' } });
      await localApi.call(tagRoutes.update, { params: { id: travel.id }, body: { name: 'Trips' } });
      await status.getByRole('button', { name: 'Sync now' }).click();
      const table = page.getByRole('table', { name: 'Sync conflicts' });
      const row = table.locator('tbody tr[data-conflict-id]');
      await row.first().waitFor({ timeout: 30_000 });
      expect(await row.count()).toBe(1);
      const cells = await row.locator('td').allInnerTexts();
      expect(cells[0]).toContain('Tag “Trips”');
      expect(cells[1]).toBe('Name');
      expect(cells[2]).toBe('Trips');
      expect(cells[3]).toBe('Journeys');
      expect(cells[4]).toContain('Remote');
      await page.getByTestId('sync-open-conflicts').getByText('1').waitFor();
      // The frame counts the conflict too.
      await page.getByRole('banner').getByRole('link', { name: '1 sync conflict' }).waitFor();
      await checkBothThemes(page, 'sync: status and conflicts');

      // One click takes the value here; it is written at once and sent by the next round.
      await row.getByRole('button', { name: 'Use value here for Tag “Trips”' }).click();
      await app.toast(/Kept the value here for Tag “Trips”/).waitFor();
      await page.getByRole('region', { name: 'Conflicts' }).getByRole('heading', { name: 'No conflicts' }).waitFor();
      expect((await localApi.call(tagRoutes.get, { params: { id: travel.id } })).name).toBe('Trips');
      await status.getByRole('button', { name: 'Sync now' }).click();
      await expect
        .poll(async () => (await remoteApi.call(tagRoutes.get, { params: { id: travel.id } })).name, { timeout: 30_000 })
        .toBe('Trips');
      await page.getByTestId('sync-pending').getByText('nothing').waitFor({ timeout: 30_000 });

      // The remote goes away: the next round fails for the network, and the frame says so everywhere.
      await remote.server.close();
      await status.getByRole('button', { name: 'Sync now' }).click();
      await status.getByText(/^The remote could not be reached in the last round/).waitFor({ timeout: 30_000 });
      await app.nav('Customers').click();
      const flag = page.getByRole('banner').getByRole('link', { name: 'Sync offline' });
      await flag.waitFor();
      await flag.click();
      await page.getByRole('heading', { name: 'Sync', level: 1 }).waitFor();
      expect(app.errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
