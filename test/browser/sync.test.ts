import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src-shared/api-client';
import { tagRoutes } from '../../src-shared/contract/tags';
import { addClient } from '../main/server/oauth-helpers';
import { checkAxe } from './helpers/axe';
import { contextOptions, literally, startsWith, tk, tr } from './helpers/i18n';
import { clockedContext, launchChromium, startUiServer, type UiServer, webUiRoot } from './helpers/ui-server';
import { AppPage } from './pages/app-page';

let webRoot: string;
let browser: Browser;
let local: UiServer;
let remote: UiServer;

beforeAll(async () => {
  webRoot = webUiRoot();
  browser = await launchChromium();
  local = await startUiServer(webRoot);
  remote = await startUiServer(webRoot);
});

afterAll(async () => {
  await browser?.close();
  await local?.close();
  await remote?.close();
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

    const context = await clockedContext(
      browser,
      contextOptions({ viewport: { width: 1280, height: 860 }, colorScheme: 'light' }),
    );
    const page = await context.newPage();
    const app = new AppPage(page, local.url);
    try {
      await app.open('/sync');
      await app.signIn(email, password);
      const connect = page.getByRole('region', { name: tr('Connect a remote') });
      await connect.waitFor();
      await checkBothThemes(page, 'sync: connect');

      // A wrong address is caught before anything is sent; the test says which team the key reaches.
      await connect.getByLabel(tr('Remote address')).fill(remote.url);
      await connect.getByLabel(tr('API key of the remote')).fill(remoteKey);
      await connect.getByRole('button', { name: tr('Test connection') }).click();
      await connect.getByText(tr('Enter an http or https address whose path ends in /v1.')).waitFor();
      await connect.getByLabel(tr('Remote address')).fill(`${remote.url}/v1`);
      await connect.getByRole('button', { name: tr('Test connection') }).click();
      await connect
        .getByText(
          tr('Connection works: the key belongs to the team “{{name}}” (base currency {{currency}}).', {
            name: 'Remote Books',
            currency: 'EUR',
          }),
        )
        .waitFor();

      await connect.getByRole('button', { name: tr('Connect and sync') }).click();
      const status = page.getByRole('region', { name: startsWith('Remote: {{name}}', { name: '' }) });
      await status
        .getByText(literally(tk('sync:status.summary', { pulled: 1, pushed: 0, count: 0 })))
        .waitFor({ timeout: 30_000 });
      await status.getByText(tr('Up to date')).waitFor();
      expect(await status.textContent()).not.toContain(remoteKey);
      expect((await localApi.call(tagRoutes.get, { params: { id: travel.id } })).name).toBe('Travel');

      // Both sides rename the tag (the remote first: a scheduled round in between must not hide the conflict).
      await remoteApi.call(tagRoutes.update, { params: { id: travel.id }, body: { name: 'Journeys' } });
      await localApi.call(tagRoutes.update, { params: { id: travel.id }, body: { name: 'Trips' } });
      await status.getByRole('button', { name: tr('Sync now') }).click();
      const table = page.getByRole('table', { name: tr('Sync conflicts') });
      const row = table.locator('tbody tr[data-conflict-id]');
      await row.first().waitFor({ timeout: 30_000 });
      expect(await row.count()).toBe(1);
      const cells = await row.locator('td').allInnerTexts();
      const record = tk('sync:record.named', { entity: tk('sync:entities.tag'), name: 'Trips' });
      // The first column selects the conflict for a choice made for several at once.
      expect(await row.getByRole('checkbox', { name: tk('sync:conflicts.selectFor', { record }) }).isChecked()).toBe(false);
      expect(cells[1]).toContain(record);
      expect(cells[2]).toBe(tk('sync:fields.name'));
      expect(cells[3]).toBe('Trips');
      expect(cells[4]).toBe('Journeys');
      expect(cells[5]).toContain(tk('sync:conflicts.sides.remote'));
      await page.getByTestId('sync-open-conflicts').getByText('1').waitFor();
      // The state says so too: a round that leaves a conflict open is not "up to date".
      await page
        .getByTestId('sync-standing')
        .getByText(tk('sync:states.conflicts', { count: 1 }))
        .waitFor();
      expect(await page.getByTestId('sync-standing').textContent()).not.toBe(tr('Up to date'));
      // The frame counts the conflict too.
      await page
        .getByRole('banner')
        .getByRole('link', { name: tk('sync:indicator.conflicts', { count: 1 }) })
        .waitFor();
      await checkBothThemes(page, 'sync: status and conflicts');

      // One click takes the value here; it is written at once and sent by the next round.
      await row.getByRole('button', { name: tk('sync:conflicts.takeFor.local', { record }) }).click();
      await app.toast(literally(tk('sync:conflicts.resolved.local', { record }))).waitFor();
      await page
        .getByRole('region', { name: tk('sync:conflicts.title') })
        .getByRole('heading', { name: tr('No conflicts') })
        .waitFor();
      await page.getByTestId('sync-standing').getByText(tr('Up to date')).waitFor();
      expect((await localApi.call(tagRoutes.get, { params: { id: travel.id } })).name).toBe('Trips');
      await status.getByRole('button', { name: tr('Sync now') }).click();
      await expect
        .poll(async () => (await remoteApi.call(tagRoutes.get, { params: { id: travel.id } })).name, { timeout: 30_000 })
        .toBe('Trips');
      await page.getByTestId('sync-pending').getByText(tk('sync:status.nothing')).waitFor({ timeout: 30_000 });

      // Several conflicts at once (a first round can meet dozens): select them all, take the remote's side for all.
      const made = [];
      for (const name of ['Office', 'Meals']) made.push(await localApi.call(tagRoutes.create, { body: { name } }));
      await status.getByRole('button', { name: tr('Sync now') }).click();
      await expect.poll(async () => (await remoteApi.call(tagRoutes.list, {})).data.length, { timeout: 30_000 }).toBe(3);
      for (const tag of made) {
        await remoteApi.call(tagRoutes.update, { params: { id: tag.id }, body: { name: `${tag.name} (remote)` } });
        await localApi.call(tagRoutes.update, { params: { id: tag.id }, body: { name: `${tag.name} (here)` } });
      }
      await status.getByRole('button', { name: tr('Sync now') }).click();
      await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(2);
      await table.getByRole('checkbox', { name: tk('sync:conflicts.selectAll') }).check();
      const bulk = page.getByRole('toolbar', { name: tk('sync:conflicts.selected', { count: 2 }) });
      await bulk.getByRole('button', { name: tk('sync:conflicts.takeSelected.remote') }).click();
      await app.toast(literally(tk('sync:conflicts.bulkDone.remote', { count: 2 }))).waitFor();
      await page
        .getByRole('region', { name: tk('sync:conflicts.title') })
        .getByRole('heading', { name: tr('No conflicts') })
        .waitFor();
      for (const tag of made)
        expect((await localApi.call(tagRoutes.get, { params: { id: tag.id } })).name).toBe(`${tag.name} (remote)`);

      // The remote goes away: the next round fails for the network, and the frame says so everywhere.
      await remote.server.close();
      await status.getByRole('button', { name: tr('Sync now') }).click();
      await status
        .getByText(
          tr('The remote could not be reached in the last round. Changes made here wait and are sent when it answers again.'),
        )
        .waitFor({ timeout: 30_000 });
      await app.nav('Customers').click();
      const flag = page.getByRole('banner').getByRole('link', { name: tr('Sync offline') });
      await flag.waitFor();
      await flag.click();
      await page.getByRole('heading', { name: tk('sync:title'), level: 1 }).waitFor();
      expect(app.errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('signs in with an account of the remote (OAuth): the remote’s page, back to /sync, the first round brings its data', {
    timeout: 180_000,
  }, async () => {
    const here = await startUiServer(webRoot);
    const there = await startUiServer(webRoot);
    const context = await clockedContext(
      browser,
      contextOptions({ viewport: { width: 1280, height: 860 }, colorScheme: 'light' }),
    );
    try {
      const owner = await there.user('Remote Books', 'owner@remote.test');
      const { clientId } = addClient(there.server.db, 'Remote Books', {
        isPublic: true,
        scopes: ['apis.all'],
        redirectUris: [`${here.url}/app/sync/oauth/callback`],
      });
      await client(there, there.key('Remote Books')).call(tagRoutes.create, { body: { name: 'From the remote' } });
      const { email, password } = await here.user();
      const page = await context.newPage();
      const app = new AppPage(page, here.url);
      await app.open('/sync');
      await app.signIn(email, password);

      const connect = page.getByRole('region', { name: tr('Connect a remote') });
      await connect.getByLabel(tr('Remote address')).fill(`${there.url}/v1`);
      await connect.getByLabel(tr('OAuth client ID')).fill(clientId);
      await checkBothThemes(page, 'sync: OAuth sign-in');
      await connect.getByRole('button', { name: tr('Sign in with the remote') }).click();

      // The remote's own sign-in and consent pages (English: they are the remote's).
      await page.waitForURL((u) => u.origin === new URL(there.url).origin);
      await page.getByLabel('Email').fill(owner.email);
      await page.getByLabel('Password').fill(owner.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Approve' }).click();

      // Back on /sync: finished with this session, the answer gone from the address bar, the first round done.
      await page.waitForURL((u) => u.origin === new URL(here.url).origin && u.pathname === '/sync');
      await page.getByText(tr('Signed in. The first round is running.')).waitFor();
      expect(new URL(page.url()).search).toBe('');
      const localApi = client(here, here.key());
      await expect
        .poll(async () => (await localApi.call(tagRoutes.list, {})).data.map((t) => t.name), { timeout: 30_000 })
        .toContain('From the remote');
    } finally {
      await context.close();
      await here.close();
      await there.close();
    }
  });
});
