/**
 * Time in the web build against a real server: the header's timer (start, switch project, stop), time added by hand
 * in the week view and deleted again, and a project's unbilled time turned into an invoice draft that is sent with
 * no mail server (its e-mail waiting for sync) while its entries become billed; axe in both themes.
 */
import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../src-shared/api-client';
import { customerRoutes } from '../../src-shared/contract/customers';
import { invoiceRoutes } from '../../src-shared/contract/invoices';
import { trackerRoutes } from '../../src-shared/contract/tracker';
import { dayIn } from '../../src-shared/domain/invoice-dates';
import { checkAxeBothThemes } from './helpers/axe';
import { formatted, LOCALE, pattern, startsWith, tk, tr, USER_FORMATS } from './helpers/i18n';
import { type Journey, journeySuite } from './helpers/suite';
import { InvoicesPage } from './pages/invoices-page';

const journey = journeySuite({ viewport: { width: 1280, height: 900 } });

const amount = (value: number, currency = 'EUR') =>
  new Intl.NumberFormat(LOCALE, { style: 'currency', currency }).format(value).replace(/\u00a0/g, ' ');

/**
 * A customer and two billable projects (95 and 120 EUR an hour), the first with 1.5 h and 2 h recorded today; then
 * the time screen, signed in.
 */
async function seed(journey: Journey) {
  const api = createApiClient({ baseUrl: journey.ui.url, token: () => journey.ui.key() });
  const customer = await api.call(customerRoutes.create, {
    body: { name: 'Northstar Architects GmbH', billingEmail: 'ap@northstar.example' },
  });
  const site = await api.call(trackerRoutes.createProject, {
    body: { name: 'Website relaunch', customerId: customer.id, billable: true, rate: 95, currency: 'EUR' },
  });
  const brand = await api.call(trackerRoutes.createProject, {
    body: { name: 'Brand refresh', customerId: customer.id, billable: true, rate: 120, currency: 'EUR' },
  });
  const today = dayIn(new Date(), USER_FORMATS.timezone ?? 'UTC');
  for (const [hour, seconds] of [
    [8, 5400],
    [13, 7200],
  ] as const)
    await api.call(trackerRoutes.createEntry, {
      body: { projectId: site.id, date: today, start: `${today}T${String(hour).padStart(2, '0')}:00:00Z`, duration: seconds },
    });
  const { email, password } = await journey.ui.user();
  await journey.app.open('/time');
  await journey.app.signIn(email, password);
  return { api, site, brand, today };
}

describe('time in the web UI', () => {
  it('starts the timer from the header, switches its project, stops it; adds time by hand and deletes it', {
    timeout: 180_000,
  }, async () => {
    const { page, app } = journey;
    const { api, site } = await seed(journey);
    const week = page.getByRole('region', { name: pattern('Week of {{from}} to {{to}}', { from: '.+', to: '.+' }) });
    await expect.poll(() => page.getByTestId('week-total').innerText()).toContain(amount(332.5));

    // The timer, from the header: start on one project, switch to the other, stop.
    const header = page.locator('header.topbar');
    await header.getByRole('button', { name: tr('Start timer') }).click();
    const panel = page.getByRole('dialog', { name: tr('Start a timer') });
    await panel.getByLabel(tr('Project')).selectOption({ label: 'Website relaunch' });
    await panel.getByLabel(tr('What you are working on')).fill('Navigation');
    await panel.getByRole('button', { name: tk('time:timer.startSubmit'), exact: true }).click();
    await app.toast('Timer started on {{name}}', { name: 'Website relaunch' }).waitFor();
    const timer = header.getByRole('timer', { name: tr('Timer on {{name}}', { name: 'Website relaunch' }) });
    await timer.waitFor();
    const first = await timer.innerText();
    await expect.poll(() => timer.innerText(), { timeout: 5000 }).not.toBe(first); // it ticks
    await checkAxeBothThemes(page, 'time with a running timer');

    await header.getByRole('button', { name: tr('Switch project') }).click();
    await page
      .getByRole('dialog', { name: tr('Switch the timer to another project') })
      .getByLabel(tr('Project'))
      .selectOption({ label: 'Brand refresh' });
    await page
      .getByRole('dialog', { name: tr('Switch the timer to another project') })
      .getByRole('button', { name: tr('Switch') })
      .click();
    await app.toast('Timer switched from {{from}} to {{to}}', { from: 'Website relaunch', to: 'Brand refresh' }).waitFor();
    await header.getByRole('timer', { name: tr('Timer on {{name}}', { name: 'Brand refresh' }) }).waitFor();
    await header.getByRole('button', { name: tr('Stop') }).click();
    // Under a minute: the server keeps no entry, and says so.
    await app.toast('Stopped under a minute: the time on {{name}} was not kept', { name: 'Brand refresh' }).waitFor();
    await header.getByRole('timer').waitFor({ state: 'detached' });
    expect((await api.call(trackerRoutes.currentTimer)).data).toBeNull();

    // Time by hand, in the user's formats: 1,5 / 1.5 hours from 14:00.
    const add = page.getByRole('form', { name: tr('Add time') });
    await add.getByLabel(tr('Project')).selectOption({ label: 'Brand refresh' });
    await add.getByLabel(tk('time:add.start')).fill('14:00');
    await add.getByLabel(tr('Duration')).fill(formatted(1.5, 1));
    await add.getByLabel(tr('What was done')).fill('Moodboard');
    await add.getByRole('button', { name: tk('time:add.submit') }).click();
    await app.toast(pattern('Added {{time}} on {{name}}', { time: '.+', name: 'Brand refresh' })).waitFor();
    const entry = week.locator('.week-entry', { hasText: 'Moodboard' });
    await entry.waitFor();
    expect(await entry.innerText()).toContain('14:00');
    await expect.poll(() => page.getByTestId('week-total').innerText()).toContain(amount(512.5)); // 332.50 + 1.5 h × 120
    await entry.getByRole('button', { name: startsWith('Delete') }).click();
    await entry.waitFor({ state: 'detached' });
    const range = await api.call(trackerRoutes.listEntries, { query: { projectId: site.id } });
    expect(range.meta.totalDuration).toBe(12_600);
    expect(app.errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
  });

  it('bills a project’s unbilled time: a draft from the project’s row, sent, its entries then billed', {
    timeout: 180_000,
  }, async () => {
    const { page, app } = journey;
    const { api, site } = await seed(journey);

    const row = page.getByRole('table', { name: tr('Projects') }).locator(`tr[data-project-id="${site.id}"]`);
    expect(await row.innerText()).toContain(amount(332.5));
    await row.getByRole('button', { name: startsWith('Invoice unbilled time') }).click();
    const invoices = new InvoicesPage(app);
    await invoices.drawer.getByTestId('unbilled').getByText(amount(332.5), { exact: false }).waitFor();
    expect(await invoices.drawer.getByLabel(tr('Project')).inputValue()).toBe(site.id);
    await checkAxeBothThemes(page, 'invoice from tracked time');
    await invoices.drawer.getByRole('button', { name: startsWith('Create draft from time') }).click();
    await app.toast('Created {{number}}', { number: 'INV-0001' }).waitFor();

    // The draft: one line of 3.5 hours at the project's rate, for the project's customer, linked back to its time.
    await page.getByRole('heading', { level: 1, name: /INV-0001/ }).waitFor();
    await invoices.pill(tk('invoices:status.draft')).waitFor();
    const lines = page.getByRole('table', { name: tr('Lines') });
    expect(await lines.innerText()).toContain('Website relaunch');
    expect(await lines.innerText()).toContain(`${formatted(3.5, 2)} hours`);
    await page.getByRole('link', { name: 'Northstar Architects GmbH' }).first().waitFor();
    await invoices.pdfDrawn();

    await invoices.command('Send');
    const send = page.getByRole('dialog', { name: tr('Send {{number}}', { number: 'INV-0001' }) });
    expect(await send.getByLabel(tk('invoices:sendDialog.to')).inputValue()).toBe('ap@northstar.example');
    await send.getByRole('button', { name: tr('Send invoice') }).click();
    await app
      .toast('{{number}} is issued; its e-mail waits until sync runs (no mail server is set up)', { number: 'INV-0001' })
      .waitFor();
    await page.locator('[data-delivery="awaiting_sync"][role="status"]').waitFor();
    const [invoice] = (await api.call(invoiceRoutes.list, {})).data;
    expect(invoice).toMatchObject({
      status: 'unpaid',
      amount: 332.5,
      trackerProjectId: site.id,
      delivery: { state: 'awaiting_sync' },
    });

    // Back to its time: the entries are billed and link to the invoice.
    await page.getByRole('link', { name: 'Website relaunch' }).click();
    await page.getByText(tr('Only {{name}}', { name: 'Website relaunch' })).waitFor();
    await expect.poll(() => page.locator('.week-entry.billed').count()).toBe(2);
    const range = await api.call(trackerRoutes.listEntries, { query: { projectId: site.id } });
    expect(
      Object.values(range.result)
        .flat()
        .every((e) => e.billed && e.invoiceId === invoice!.id),
    ).toBe(true);
    expect(app.errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
  });
});
