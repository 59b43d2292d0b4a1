/**
 * Time in the web build against a real server: the header's timer (start, switch project, stop), time added by hand
 * in the week view and deleted again, an entry and a project changed in their drawers, and a project's unbilled
 * time turned into an invoice draft that is sent with no mail server (its e-mail waiting for sync) while its entries
 * become billed and open read-only; axe in both themes.
 */
import { describe, expect, it } from 'vitest';
import { zonedInstant } from '../../src-renderer/lib/zoned-time';
import { createApiClient } from '../../src-shared/api-client';
import { customerRoutes } from '../../src-shared/contract/customers';
import { invoiceRoutes } from '../../src-shared/contract/invoices';
import { trackerRoutes } from '../../src-shared/contract/tracker';
import { dayIn } from '../../src-shared/domain/invoice-dates';
import { LAWFUL_BUYER_ADDRESS, makeTeamLawful } from '../helpers/lawful-team';
import { checkAxeBothThemes } from './helpers/axe';
import { formatted, LOCALE, literally, pattern, startsWith, tk, tr, USER_FORMATS } from './helpers/i18n';
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
  // The bill is sent: the team and the customer state what an invoice must (docs/decisions/0121).
  makeTeamLawful(journey.ui.server.db, 'Browser Test Co');
  const customer = await api.call(customerRoutes.create, {
    body: { name: 'Northstar Architects GmbH', billingEmail: 'ap@northstar.example', ...LAWFUL_BUYER_ADDRESS },
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
    const { api, site, brand, today } = await seed(journey);
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
    const discarded = app.toast('Stopped under a minute: the time on {{name}} was not kept', { name: 'Brand refresh' });
    await discarded.waitFor();
    await header.getByRole('timer').waitFor({ state: 'detached' });
    expect((await api.call(trackerRoutes.currentTimer)).data).toBeNull();
    const brandToday = () => api.call(trackerRoutes.listEntries, { query: { projectId: brand.id, from: today, to: today } });
    expect(Object.values((await brandToday()).result).flat()).toEqual([]);
    // A slip of the finger is undone from the toast: the same seconds kept as a finished entry.
    await discarded.getByRole('button', { name: tr('Keep it') }).click();
    await app.toast(pattern('Kept: {{time}} on {{name}}', { time: '.+', name: 'Brand refresh' })).waitFor();
    const kept = Object.values((await brandToday()).result).flat();
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ description: null, running: false });
    // (The server's test clock stands still: the seconds are 0 here, a few on a real clock.)
    expect(kept[0]!.duration).toBeLessThan(60);
    await api.call(trackerRoutes.deleteEntry, { params: { id: kept[0]!.id } });

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
    const range = await api.call(trackerRoutes.listEntries, { query: { projectId: site.id, from: today, to: today } });
    expect(range.meta.totalDuration).toBe(12_600);
    expect(app.errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
  });

  it('changes an entry’s project, start, duration and text, and a project’s name, rate and status', {
    timeout: 180_000,
  }, async () => {
    const { page, app } = journey;
    const { api, site, brand, today } = await seed(journey);
    await expect.poll(() => page.getByTestId('week-total').innerText()).toContain(amount(332.5));
    const [morning] =
      (await api.call(trackerRoutes.listEntries, { query: { projectId: site.id, from: today, to: today } })).result[today] ?? [];
    const entry = page.locator(`.week-entry[data-entry-id="${morning!.id}"]`);

    // The 8:00 entry (1.5 h at 95) becomes 2 h from 10:15 on the other project (120 an hour).
    await entry.getByRole('button', { name: startsWith('Edit') }).click();
    const drawer = page.getByRole('dialog', { name: tr('Edit time') });
    expect(await drawer.getByLabel(tr('Duration')).inputValue()).toBe('1:30');
    await drawer.getByLabel(tr('Project')).selectOption({ label: 'Brand refresh' });
    await drawer.getByLabel(tk('time:add.start')).fill('10:15');
    await drawer.getByLabel(tr('Duration')).fill('abc');
    await drawer.getByRole('button', { name: literally(tk('time:edit.save')) }).click();
    await drawer.getByText(tr('A duration such as 1:30 or 45m')).waitFor(); // nothing sent
    expect((await api.call(trackerRoutes.getEntry, { params: { id: morning!.id } })).projectId).toBe(site.id);
    await drawer.getByLabel(tr('Duration')).fill(formatted(2, 0));
    await drawer.getByLabel(tr('What was done')).fill('Wireframes');
    await checkAxeBothThemes(page, 'editing a time entry');
    await drawer.getByRole('button', { name: literally(tk('time:edit.save')) }).click();
    await app.toast(pattern('Saved {{what}}', { what: '.+' })).waitFor();
    await drawer.waitFor({ state: 'detached' });
    const changed = await api.call(trackerRoutes.getEntry, { params: { id: morning!.id } });
    expect(changed).toMatchObject({
      projectId: brand.id,
      start: zonedInstant(today, 10 * 60 + 15, USER_FORMATS.timezone ?? 'UTC'),
      duration: 7200,
      description: 'Wireframes',
    });
    await expect.poll(() => page.getByTestId('week-total').innerText()).toContain(amount(430)); // 2 h × 120 + 2 h × 95
    expect(await entry.innerText()).toContain('10:15');

    // The project: renamed, 100 an hour, completed (so it leaves the projects in progress).
    const projects = page.getByRole('table', { name: tr('Projects') });
    await projects
      .locator(`tr[data-project-id="${site.id}"]`)
      .getByRole('button', { name: startsWith('Edit') })
      .click();
    const form = page.getByRole('dialog', { name: tr('Edit {{name}}', { name: 'Website relaunch' }) });
    expect(await form.getByLabel(tr('Hourly rate')).inputValue()).toBe(formatted(95, 0));
    await form.getByRole('combobox', { name: tr('Customer') }).waitFor();
    expect(await form.getByRole('combobox', { name: tr('Customer') }).inputValue()).toBe('Northstar Architects GmbH');
    await form.getByLabel(tr('Name')).fill('Website relaunch 2026');
    await form.getByLabel(tr('Hourly rate')).fill(formatted(100, 0));
    await form.getByLabel(tk('time:form.status')).selectOption({ label: tk('time:projects.status.completed') });
    await form.getByRole('button', { name: literally(tk('time:form.save')) }).click();
    await app.toast(literally(tk('time:form.saved', { name: 'Website relaunch 2026' }))).waitFor();
    await projects.locator(`tr[data-project-id="${site.id}"]`).waitFor({ state: 'detached' });
    expect(await api.call(trackerRoutes.getProject, { params: { id: site.id } })).toMatchObject({
      name: 'Website relaunch 2026',
      rate: 100,
      status: 'completed',
      customerId: site.customerId,
    });
    await expect.poll(() => page.getByTestId('week-total').innerText()).toContain(amount(440)); // 2 h × 120 + 2 h × 100
    expect(app.errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
  });

  it('bills a project’s unbilled time: a draft from the project’s row, sent, its entries then billed', {
    timeout: 180_000,
  }, async () => {
    const { page, app } = journey;
    const { api, site, today } = await seed(journey);

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
    // A billed entry opens read-only, saying why, with its invoice a step away.
    await page
      .locator('.week-entry.billed')
      .first()
      .getByRole('button', { name: startsWith('Details') })
      .click();
    const billed = page.getByRole('dialog', { name: tr('Billed time') });
    await billed.getByText(tk('time:edit.billedReason')).waitFor();
    expect(await billed.getByLabel(tr('Duration')).isDisabled()).toBe(true);
    expect(await billed.getByRole('button', { name: literally(tk('time:edit.save')) }).count()).toBe(0);
    await billed.getByRole('link', { name: tr('Open the invoice') }).click();
    await page.getByRole('heading', { level: 1, name: /INV-0001/ }).waitFor();
    const range = await api.call(trackerRoutes.listEntries, { query: { projectId: site.id, from: today, to: today } });
    expect(
      Object.values(range.result)
        .flat()
        .every((e) => e.billed && e.invoiceId === invoice!.id),
    ).toBe(true);
    expect(app.errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
  });
});
