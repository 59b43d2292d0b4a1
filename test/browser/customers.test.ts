import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCustomer } from '../../src-main/store/customers/write';
import { openDatabase } from '../../src-main/store/db';
import { ensureTeam } from '../../src-main/store/teams/teams';
import { createApiClient } from '../../src-shared/api-client';
import { customerRoutes } from '../../src-shared/contract/customers';
import { tagRoutes } from '../../src-shared/contract/tags';
import { UI_CONTENT_SECURITY_POLICY } from '../../src-shared/csp';
import { checkAxeBothThemes } from './helpers/axe';
import { contextOptions, tk, tr } from './helpers/i18n';
import { clockedContext, launchChromium, startUiServer, type UiServer, webUiRoot } from './helpers/ui-server';
import { AppPage, CustomersPage } from './pages/app-page';

let webRoot: string;
let ui: UiServer;
let browser: Browser;
let context: BrowserContext;
let app: AppPage;
let key: string;

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
  context = await clockedContext(browser, contextOptions({ viewport: { width: 1440, height: 900 } }));
  app = new AppPage(await context.newPage(), ui.url);
  return async () => {
    await context.close();
    await ui.close();
  };
});

/** Opens the app and signs in, as a person would on first use. */
async function connect(): Promise<CustomersPage> {
  const { email, password } = await ui.user();
  await app.open('/customers');
  await app.signIn(email, password);
  const customers = new CustomersPage(app);
  await customers.open();
  return customers;
}

const client = () => createApiClient({ baseUrl: ui.url, token: () => key });

describe('customers in the web UI', () => {
  it('is served with the CSP and asks for a sign-in first', async () => {
    const response = await app.page.goto(`${ui.url}/customers`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toBe(UI_CONTENT_SECURITY_POLICY);
    await app.signInForm.waitFor();
    const customers = await connect();
    await customers.table.waitFor();
    expect(app.errors.filter((e) => !/401|Failed to load resource/.test(e))).toEqual([]);
  });

  it('creates, lists, searches, edits (with an API validation error) and deletes a customer', async () => {
    const customers = await connect();
    await app.page.getByRole('heading', { name: tr('No customers yet') }).waitFor();
    await client().call(customerRoutes.create, {
      body: { name: 'Acme Trading Ltd', email: 'ap@acme.example', countryCode: 'GB' },
    });

    // Create
    await customers.startNew();
    await customers.fill({ Name: 'Nordlicht Design GmbH', Email: 'rechnung@nordlicht.example', City: 'Hamburg', Country: 'DE' });
    await customers.save();
    await app.toast('Created {{name}}', { name: 'Nordlicht Design GmbH' }).waitFor();
    await customers.row('Nordlicht Design GmbH').waitFor();
    expect(await customers.row('Nordlicht Design GmbH').innerText()).toContain('rechnung@nordlicht.example');
    expect(await customers.row('Nordlicht Design GmbH').innerText()).toContain('DE');

    // The list after a reload (SPA fallback keeps /customers; the session cookie stays)
    await app.page.reload();
    await customers.row('Acme Trading Ltd').waitFor();
    await expect.poll(() => customers.names()).toEqual(['Nordlicht Design GmbH', 'Acme Trading Ltd']);

    // Search
    await customers.search('nordl');
    await expect.poll(() => customers.names()).toEqual(['Nordlicht Design GmbH']);
    await customers.search('zzz-nobody');
    await app.page.getByRole('heading', { name: tr('No customers match') }).waitFor();
    await app.page.getByRole('button', { name: tr('Clear search and filters') }).click();
    await expect.poll(() => customers.names()).toHaveLength(2);

    // Searched, not found, made: the old search does not hide the new customer, and its toast leads to it.
    await customers.search('Moewe');
    await app.page.getByRole('heading', { name: tr('No customers match') }).waitFor();
    await customers.startNew();
    // A mistake is said when its field is left, not only at Save: a name typed and taken back.
    await customers.fill({ Name: 'M' });
    await customers.fill({ Name: '' });
    await app.page.keyboard.press('Tab');
    await customers.fieldError('Name').getByText(tk('customers:form.nameRequired')).waitFor();
    await customers.fill({ Name: 'Möwe Logistik KG', Country: 'DE' });
    await customers.save();
    const made = app.toast('Created {{name}}', { name: 'Möwe Logistik KG' });
    await made.waitFor();
    await customers.row('Möwe Logistik KG').waitFor();
    await expect(app.page.getByLabel(tr('Search customers')).inputValue()).resolves.toBe('');
    await made.getByRole('button', { name: tk('customers:form.open') }).click();
    await app.page.getByRole('heading', { name: 'Möwe Logistik KG', level: 1 }).waitFor();
    const moewe = (await client().call(customerRoutes.list, { query: { q: 'Logistik' } })).data[0]!;
    expect(app.page.url()).toContain(`/customers/${moewe.id}`);
    await client().call(customerRoutes.delete, { params: { id: moewe.id } });
    await app.page.goBack();
    await expect.poll(() => customers.names()).toHaveLength(2);

    // Edit
    await customers.edit('Nordlicht Design GmbH');
    await customers.fill({ City: 'Berlin', 'Contact person': 'Jana Vogt' });
    await customers.save();
    await app.toast('Saved {{name}}', { name: 'Nordlicht Design GmbH' }).waitFor();
    // The customer's page shows the change; the list too.
    await app.page
      .getByRole('complementary', { name: tk('customers:detail.about') })
      .getByText('Jana Vogt')
      .first()
      .waitFor();
    await customers.backToList();
    await expect.poll(() => customers.row('Nordlicht Design GmbH').innerText()).toContain('Jana Vogt');

    // A bad email: the API's 422 names the field; the message shows under it and the drawer stays open
    await customers.edit('Nordlicht Design GmbH');
    await customers.fill({ Email: 'not-an-email' });
    await customers.save();
    await customers.fieldError('Email').waitFor();
    expect(await customers.fieldError('Email').innerText()).toMatch(/valid email address/);
    expect(await customers.drawer.getByLabel(tr('Email'), { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await app.page.keyboard.press('Escape');
    await customers.drawer.waitFor({ state: 'detached' });

    const stored = (await client().call(customerRoutes.list, { query: { q: 'nordlicht' } })).data[0]!;
    expect(stored).toMatchObject({ city: 'Berlin', contact: 'Jana Vogt', email: 'rechnung@nordlicht.example' });

    // Delete, with a confirmation
    await customers.edit('Nordlicht Design GmbH');
    await customers.deleteOpen();
    await app.toast('Deleted {{name}}', { name: 'Nordlicht Design GmbH' }).waitFor();
    await expect.poll(() => customers.names()).toEqual(['Acme Trading Ltd']);
    const gone = await client()
      .call(customerRoutes.get, { params: { id: stored.id } })
      .catch((e) => e);
    expect(gone.status).toBe(404);
    expect(app.errors.filter((e) => !/422|Failed to load resource/.test(e))).toEqual([]);
  });

  it('assigns tags, sorts by a column and pages with "Load more"', async () => {
    const api = client();
    const vip = await api.call(tagRoutes.create, { body: { name: 'Key account' } });
    for (let i = 1; i <= 57; i++) {
      await api.call(customerRoutes.create, { body: { name: `Customer ${String(i).padStart(2, '0')}` } });
    }
    const customers = await connect();
    await expect.poll(() => customers.rows.count()).toBe(50);
    expect(await app.page.getByText(tk('customers:shownMore', { count: 50 })).isVisible()).toBe(true);
    await app.page.getByRole('button', { name: tr('Load more') }).click();
    await expect.poll(() => customers.rows.count()).toBe(57);
    expect(await app.page.getByRole('button', { name: tr('Load more') }).count()).toBe(0);

    await customers.sortBy('Name');
    await expect.poll(async () => (await customers.names()).slice(0, 2)).toEqual(['Customer 01', 'Customer 02']);
    expect(await customers.table.getByRole('columnheader', { name: tr('Name') }).getAttribute('aria-sort')).toBe('ascending');
    await customers.sortBy('Name');
    await expect.poll(async () => (await customers.names())[0]).toBe('Customer 57');

    await customers.edit('Customer 57');
    await customers.drawer.getByRole('button', { name: 'Key account' }).click();
    await customers.save();
    await app.toast('Saved {{name}}', { name: 'Customer 57' }).waitFor();
    await customers.backToList();
    await expect.poll(() => customers.row('Customer 57').innerText()).toContain('Key account');
    const page = await api.call(customerRoutes.list, { query: { tags: [vip.id] } });
    expect(page.data.map((c) => c.name)).toEqual(['Customer 57']);
  });

  it('is usable from the keyboard: / searches, n opens a new customer, arrows and Enter open rows, Esc closes', async () => {
    await client().call(customerRoutes.create, { body: { name: 'Keyboard First AB' } });
    await client().call(customerRoutes.create, { body: { name: 'Second Row Oy' } });
    const customers = await connect();
    await customers.row('Keyboard First AB').waitFor();
    const focused = () =>
      app.page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.tagName);

    await app.page.locator('body').click({ position: { x: 700, y: 20 } });
    await app.page.keyboard.press('/');
    expect(await focused()).toBe(tr('Search customers'));
    await app.page.keyboard.press('ArrowDown');
    await app.page.keyboard.press('ArrowDown');
    await app.page.keyboard.press('Enter');
    // Enter opens the customer's page; e edits it there, Esc closes the form, Back returns to the list.
    await customers.detail('Keyboard First AB').waitFor();
    await app.page.keyboard.press('e');
    await customers.drawer.waitFor();
    expect(await customers.drawer.getAttribute('aria-label')).toBe(tr('Edit {{name}}', { name: 'Keyboard First AB' }));
    await app.page.keyboard.press('Escape');
    await customers.drawer.waitFor({ state: 'detached' });
    await app.page.goBack();
    await customers.row('Keyboard First AB').waitFor();

    await app.page.locator('body').click({ position: { x: 700, y: 20 } });
    await app.page.keyboard.press('n');
    await customers.drawer.waitFor();
    expect(await focused()).toBe('INPUT');
    await app.page.keyboard.type('Typed Without Mouse SA');
    await app.page.keyboard.press('Control+Enter');
    await app.toast('Created {{name}}', { name: 'Typed Without Mouse SA' }).waitFor();
    await customers.row('Typed Without Mouse SA').waitFor();
  });

  it('renders a realistic customers screen (screenshot for review: /tmp/finops-customers.png)', async () => {
    const api = client();
    const tags = await Promise.all(
      ['Key account', 'Retainer', 'EU'].map((name) => api.call(tagRoutes.create, { body: { name } })),
    );
    const seed = [
      ['Nordlicht Design GmbH', 'Jana Vogt', 'rechnung@nordlicht.example', 'DE', 'Hamburg', [0, 2]],
      ['Acme Trading Ltd', 'Oliver Grant', 'ap@acme-trading.example', 'GB', 'Manchester', [0]],
      ['Bluefin Media B.V.', 'Clara Richter', 'finance@bluefin.example', 'NL', 'Rotterdam', [1, 2]],
      ['Sundial Consulting SARL', 'Anna Tanaka', 'compta@sundial.example', 'FR', 'Bordeaux', []],
      ['Granite Outfitters Corp.', 'Lukas Tanaka', 'billing@granite.example', 'US', 'Austin', [1]],
    ] as const;
    for (const [name, contact, email, countryCode, city, tagIdx] of seed) {
      await api.call(customerRoutes.create, {
        body: { name, contact, email, countryCode, city, tags: tagIdx.map((i) => ({ id: tags[i]!.id })) },
      });
    }
    const customers = await connect();
    await expect.poll(() => customers.rows.count()).toBe(5);
    // Money columns are right-aligned with tabular figures.
    const money = customers.table.locator('td.money').first();
    expect(await money.evaluate((el) => getComputedStyle(el).textAlign)).toBe('right');
    expect(await money.evaluate((el) => getComputedStyle(el).fontVariantNumeric)).toContain('tabular-nums');
    // The table fits a 1440 px wide window without horizontal scrolling.
    expect(
      await app.page.evaluate(() => {
        const w = document.querySelector('.table-wrap')!;
        return w.scrollWidth <= w.clientWidth;
      }),
    ).toBe(true);
    await app.page.screenshot({ path: '/tmp/finops-customers.png' });
  });

  it('shows changes made by other clients in the open list, without a reload', async () => {
    const api = client();
    const customers = await connect();
    await app.page.getByRole('heading', { name: tr('No customers yet') }).waitFor();
    // Set on this document: still there at the end means the page was never reloaded.
    await app.page.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });

    const created = await api.call(customerRoutes.create, {
      body: { name: 'Pushed From Elsewhere', email: 'ap@elsewhere.example' },
    });
    await customers.row('Pushed From Elsewhere').waitFor({ timeout: 5000 });

    const tag = await api.call(tagRoutes.create, { body: { name: 'Wholesale' } });
    await api.call(customerRoutes.update, {
      params: { id: created.id },
      body: { contact: 'Live Contact', tags: [{ id: tag.id }] },
    });
    await expect.poll(() => customers.row('Pushed From Elsewhere').innerText()).toContain('Live Contact');
    expect(await customers.row('Pushed From Elsewhere').innerText()).toContain('Wholesale');

    // A tag renamed elsewhere shows in the rows that carry it.
    await api.call(tagRoutes.update, { params: { id: tag.id }, body: { name: 'Wholesale EU' } });
    await expect.poll(() => customers.row('Pushed From Elsewhere').innerText()).toContain('Wholesale EU');

    // A change committed by another process on the same data dir (as the CLI makes them).
    const other = openDatabase(ui.dataDir);
    try {
      createCustomer(other, ensureTeam(other, 'Browser Test Co').id, { name: 'Written By The CLI' });
    } finally {
      other.close();
    }
    await customers.row('Written By The CLI').waitFor({ timeout: 5000 });

    await api.call(customerRoutes.delete, { params: { id: created.id } });
    await expect.poll(() => customers.names()).toEqual(['Written By The CLI']);
    expect(await app.page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect(app.errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
  });

  it('opens a customer’s page from the list: contact, what it owes, its invoices, projects, tags and activity', {
    timeout: 120_000,
  }, async () => {
    ui.seedDemo();
    const unpaid = (await client().call(customerRoutes.list, { query: { tab: 'unpaid', pageSize: 100 } })).data;
    const c = unpaid.find((x) => x.finance.overdue > 0 && x.projectCount > 0 && x.tags.length > 0) ?? unpaid[0]!;
    const customers = await connect();
    await customers.search(c.name);
    await customers.row(c.name).click();
    await customers.detail(c.name).waitFor();
    expect(app.page.url()).toContain(`/customers/${c.id}`);

    const figures = app.page.getByRole('region', { name: tr('Invoiced, paid and owed') });
    const owed = figures.getByRole('definition').filter({ hasText: /\d/ });
    await owed.first().waitFor();
    expect(await figures.innerText()).toContain(tr('Overdue'));
    const about = app.page.getByRole('complementary', { name: tr('About the customer') });
    if (c.email) await about.getByRole('link', { name: c.email }).waitFor();
    for (const tag of c.tags) await about.getByText(tag.name, { exact: true }).waitFor();
    await about.getByRole('list').getByRole('link').first().waitFor(); // activity names its invoices
    const invoices = app.page.getByRole('table', { name: tr('Invoices of {{name}}', { name: c.name }) });
    await invoices.locator('tbody tr[data-invoice-id]').first().waitFor();
    await app.page
      .getByRole('table', { name: tr('Projects') })
      .locator('tbody tr[data-project-id]')
      .first()
      .waitFor();
    await checkAxeBothThemes(app.page, 'customer page');

    // From the keyboard: an invoice row opens the invoice; Back returns to the customer.
    await invoices.locator('tbody tr[data-invoice-id]').first().focus();
    await app.page.keyboard.press('Enter');
    await app.page.getByRole('heading', { level: 1, name: /INV-\d+/ }).waitFor();
    await app.page.goBack();
    await customers.detail(c.name).waitFor();
    expect(app.errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
  });

  it('lists no feature as not built in the navigation, and opens Team settings and Health and about', async () => {
    await connect();
    expect(await app.mainNav.getByText(tr('not built')).count()).toBe(0);
    await app.nav('Team settings').click();
    await app.page.getByRole('heading', { level: 1, name: tr('Team settings'), exact: true }).waitFor();
    await app.nav('Health and about').click();
    await app.page.getByText(tr('Healthy')).waitFor();
    expect(await app.page.getByText('version', { exact: false }).first().isVisible()).toBe(true);
  });
});
