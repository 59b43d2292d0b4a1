/**
 * Invoices in the web build against a real server: write an invoice from line items at two VAT rates (the total
 * shown while typing is the one the server computes), edit the draft, send it with a subject of one's own and no
 * mail server set up (issued; its e-mail plainly waiting for sync), see its PDF, record a part payment by hand and
 * one from a bank line that names the invoice, seeing what stays open, remind, mark it paid and refund it; accept a
 * payment the matcher suggests; axe in both themes.
 */
import { describe, expect, it } from 'vitest';
import { matchInvoicePayments } from '../../src-main/store/invoices/matching';
import { ensureTeam } from '../../src-main/store/teams/teams';
import { createApiClient } from '../../src-shared/api-client';
import { bankAccountRoutes } from '../../src-shared/contract/bank-accounts';
import { customerRoutes } from '../../src-shared/contract/customers';
import { paymentRoutes } from '../../src-shared/contract/invoice-payments';
import { invoiceRoutes } from '../../src-shared/contract/invoices';
import { transactionRoutes } from '../../src-shared/contract/transactions';
import { LAWFUL_BUYER_ADDRESS, makeTeamLawful } from '../helpers/lawful-team';
import { checkAxeBothThemes } from './helpers/axe';
import { formatted, LOCALE, startsWith, tk, tr } from './helpers/i18n';
import { journeySuite } from './helpers/suite';
import { InvoicesPage } from './pages/invoices-page';

const journey = journeySuite({ viewport: { width: 1280, height: 860 } });

const amount = (value: number, currency = 'EUR') =>
  new Intl.NumberFormat(LOCALE, { style: 'currency', currency }).format(value).replace(/\u00a0/g, ' ');

describe('invoices in the web UI', () => {
  it('creates an invoice from line items and sends it: issued, its e-mail waiting for sync, its PDF shown', {
    timeout: 180_000,
  }, async () => {
    const { ui, page, app } = journey;
    const api = createApiClient({ baseUrl: ui.url, token: () => ui.key() });
    // A seller that states what the law asks (the send dialog blocks on what is missing), a buyer with its address.
    makeTeamLawful(ui.server.db, 'Browser Test Co');
    await api.call(customerRoutes.create, {
      body: { name: 'Nordlicht Design GmbH', billingEmail: 'rechnung@nordlicht.example', ...LAWFUL_BUYER_ADDRESS },
    });
    const { email, password } = await ui.user();
    await app.open('/invoices');
    await app.signIn(email, password);
    const invoices = new InvoicesPage(app);
    await page.getByRole('heading', { name: tr('No invoices yet') }).waitFor();

    // Write it: the customer by part of its name, two lines typed in the user's number format, 19 % and 7 % VAT.
    await invoices.startNew();
    await invoices.chooseCustomer('nordl', 'Nordlicht Design GmbH');
    await invoices.fillLine(1, {
      Description: 'Design workshop',
      Quantity: formatted(1.5, 1),
      Unit: 'days',
      Price: formatted(1250.5, 2),
      'VAT %': '19',
    });
    await invoices.line(1, 'VAT %').press('Enter'); // Enter in the last field of a line adds a line
    await invoices.fillLine(2, { Description: 'Travel', Price: '89', 'VAT %': '7' });
    // 1.5 × 1,250.50 = 1,875.75 at 19 % (VAT 356.39) + 89 at 7 % (VAT 6.23) = 2,327.37 (the server's rule, shown while typing)
    await expect.poll(() => invoices.drawer.getByTestId('invoice-total').innerText()).toBe(amount(2327.37));
    await checkAxeBothThemes(page, 'new invoice');

    await invoices.drawer.getByRole('button', { name: tr('Create draft') }).click();
    await page.getByRole('heading', { level: 1 }).getByText(tk('invoices:status.draft'), { exact: true }).waitFor();
    expect(page.url()).toMatch(/\/invoices\/[\w-]+$/);
    const draftId = page.url().split('/').pop()!;

    // The draft is edited in the same form, its lines and rates as saved: a description changed, the rest kept.
    await invoices.command('Edit');
    const editor = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: tr('Save draft') }) });
    const travel = editor.getByLabel(tr('{{field}}, line {{n}}', { field: tr('Description'), n: 2 }), { exact: true });
    await expect.poll(() => travel.inputValue()).toBe('Travel');
    expect(await editor.getByLabel(tr('{{field}}, line {{n}}', { field: tr('VAT %'), n: 2 }), { exact: true }).inputValue()).toBe(
      '7',
    );
    await travel.fill('Travel to Hamburg');
    await editor.getByRole('button', { name: tr('Save draft') }).click();
    await editor.waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: 'Travel to Hamburg' }).waitFor();

    // Send it with a subject of the person's own: issued, its e-mail waiting for sync with that subject.
    await invoices.command('Send');
    const sendDialog = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: tr('Send invoice') }) });
    const subject = sendDialog.getByLabel(tr('Subject'));
    await expect.poll(() => subject.inputValue()).not.toBe('');
    await subject.fill('Your design workshop, as agreed');
    await sendDialog.getByRole('button', { name: tr('Send invoice') }).click();
    await app
      .toast('{{number}} is issued; its e-mail waits until sync runs (no mail server is set up)', { number: 'INV-0001' })
      .waitFor();

    // The invoice's page: its number, customer, status, the e-mail said to wait, the PDF drawn.
    await page.getByRole('heading', { level: 1, name: /INV-0001/ }).waitFor();
    // Issued but its e-mail not yet out: "not sent yet", not "unpaid".
    await invoices.pill(tk('invoices:status.unsent')).waitFor();
    await page.getByRole('link', { name: 'Nordlicht Design GmbH' }).first().waitFor();
    const banner = page.locator('[data-delivery="awaiting_sync"][role="status"]');
    await banner
      .getByText(tr('The invoice e-mail to {{to}} has not been sent yet', { to: 'rechnung@nordlicht.example' }))
      .waitFor();
    await invoices.pdfDrawn();
    const [stored] = (await api.call(invoiceRoutes.list, {})).data;
    expect(stored).toMatchObject({
      id: draftId,
      invoiceNumber: 'INV-0001',
      status: 'unpaid',
      amount: 2327.37,
      delivery: { state: 'awaiting_sync', recipient: 'rechnung@nordlicht.example', kind: 'invoice' },
      lineItems: [
        { name: 'Design workshop', quantity: 1.5, unit: 'days', price: 1250.5, vat: 19 },
        { name: 'Travel to Hamburg', quantity: 1, price: 89, vat: 7 },
      ],
    });
    expect(ui.server.db.prepare('SELECT subject FROM invoice_deliveries WHERE id = ?').get(stored!.delivery!.id)).toEqual({
      subject: 'Your design workshop, as agreed',
    });

    // A part payment recorded by hand: the dialog says what stays open, the page shows it, the invoice stays open.
    await invoices.command('Record a payment');
    const payDialog = page.getByRole('dialog', { name: tr('Record a payment of {{number}}', { number: 'INV-0001' }) });
    await payDialog.getByRole('textbox', { name: tk('invoices:payments.amount') }).fill(formatted(1000, 2));
    await payDialog
      .getByTestId('payment-rest')
      .getByText(tr('After this payment {{amount}} is still open.', { amount: amount(1327.37) }))
      .waitFor();
    await payDialog.getByRole('button', { name: tr('Record payment') }).click();
    await app
      .toast('{{amount}} recorded for {{number}}; {{rest}} is still open', {
        amount: amount(1000),
        number: 'INV-0001',
        rest: amount(1327.37),
      })
      .waitFor();
    await expect.poll(() => page.getByTestId('amount-open').innerText()).toBe(amount(1327.37));
    expect(await api.call(invoiceRoutes.get, { params: { id: draftId } })).toMatchObject({
      status: 'unpaid',
      paidAmount: 1000,
      amountDue: 1327.37,
    });

    // Another part from a bank line that names the invoice ("INV-0001 Teilzahlung", entered by hand in the account):
    // offered in the dialog, its amount taken, shown on the page as from that line.
    const [account] = (await api.call(bankAccountRoutes.list, {})).data;
    await api.call(transactionRoutes.create, {
      body: {
        name: 'INV-0001 Teilzahlung',
        counterpartyName: 'Nordlicht Design GmbH',
        amount: 500,
        currency: 'EUR',
        date: stored!.issueDate,
        bankAccountId: account!.id,
      },
    });
    await invoices.command('Record a payment');
    await payDialog.getByRole('radio', { name: /Nordlicht Design GmbH/ }).check();
    await payDialog
      .getByTestId('payment-rest')
      .getByText(tr('After this payment {{amount}} is still open.', { amount: amount(827.37) }))
      .waitFor();
    await payDialog.getByRole('button', { name: tr('Record payment') }).click();
    await expect.poll(() => page.getByTestId('amount-open').innerText()).toBe(amount(827.37));
    await page
      .getByRole('region', { name: tr('Payments') })
      .getByText(tr('from the bank line of {{name}}', { name: 'Nordlicht Design GmbH' }))
      .waitFor();
    expect((await api.call(invoiceRoutes.get, { params: { id: draftId } })).amountDue).toBe(827.37);
    await checkAxeBothThemes(page, 'invoice page');

    // A reminder waits the same way; marking paid and refunding move it on, each asked first.
    await invoices.command('Send a reminder');
    await page
      .getByRole('dialog', { name: tr('Remind about {{number}}', { number: 'INV-0001' }) })
      .getByRole('button', { name: tr('Send reminder') })
      .click();
    await page
      .locator('[data-delivery="awaiting_sync"][role="status"]', {
        hasText: tr('The reminder to {{to}} has not been sent yet', { to: 'rechnung@nordlicht.example' }),
      })
      .waitFor();
    await invoices.command('Mark as paid');
    await page
      .getByRole('dialog', { name: tr('Mark {{number}} as paid', { number: 'INV-0001' }) })
      .getByRole('button', { name: tr('Mark as paid') })
      .click();
    await invoices.pill(tk('invoices:status.paid')).waitFor();
    await invoices.command('Refund');
    await page
      .getByRole('alertdialog')
      .getByRole('button', { name: tr('Refund') })
      .click();
    await invoices.pill(tk('invoices:status.refunded')).waitFor();
    expect((await api.call(invoiceRoutes.get, { params: { id: stored!.id } })).status).toBe('refunded');

    // Back on the list: the row names the number and the customer; the totals count it.
    await page
      .getByRole('navigation', { name: tr('Breadcrumb') })
      .getByRole('link', { name: tr('Invoices') })
      .click();
    const row = invoices.row('INV-0001');
    await row.waitFor();
    // The list shows its cached page first and refreshes it: wait for the refund to reach the row.
    await row.getByText(tk('invoices:status.refunded'), { exact: true }).waitFor();
    expect(await row.innerText()).toContain('Nordlicht Design GmbH');
    await page.getByRole('region', { name: tr('Totals by currency') }).waitFor();
    expect(app.errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
  });

  it('shows the demo’s invoices with totals by currency, filters by status, and accepts a suggested payment', {
    timeout: 180_000,
  }, async () => {
    const { ui, page, app } = journey;
    ui.seedDemo();
    // The matcher the server's scheduler runs every 30 s, run now: the demo's payments it is not sure of.
    matchInvoicePayments(ui.server.db, ensureTeam(ui.server.db, 'Browser Test Co').id);
    const api = createApiClient({ baseUrl: ui.url, token: () => ui.key() });
    const suggested = (await api.call(paymentRoutes.list, { query: { states: ['suggested'] } })).data;
    expect(suggested.length).toBeGreaterThan(0);
    const { email, password } = await ui.user();
    await app.open('/invoices');
    await app.signIn(email, password);
    const invoices = new InvoicesPage(app);
    await invoices.rows.first().waitFor();
    const totals = page.getByRole('region', { name: tr('Totals by currency') });
    await totals.getByRole('definition').first().waitFor();
    expect(await totals.innerText()).toContain(tr('Outstanding'));

    // The Overdue tab lists overdue invoices only, and stays in the address.
    await page
      .getByRole('tablist', { name: tr('Invoice status') })
      .getByRole('tab', { name: tr('Overdue') })
      .click();
    await expect.poll(() => page.url()).toContain('status=overdue');
    await expect
      .poll(async () => new Set(await invoices.rows.locator('.pill').allInnerTexts()))
      .toEqual(new Set([tk('invoices:status.overdue')]));

    // The keyboard path of every list: / to the search, ↓ to the first row, ↑ from it back to the search.
    const focused = () =>
      page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.tagName);
    await page.locator('body').click({ position: { x: 700, y: 20 } });
    await page.keyboard.press('/');
    expect(await focused()).toBe(tr('Search invoices'));
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-invoice-id'))).toBe(
      await invoices.rows.first().getAttribute('data-invoice-id'),
    );
    await page.keyboard.press('ArrowUp');
    expect(await focused()).toBe(tr('Search invoices'));

    // Accept the first suggestion: its invoice is paid.
    const first = suggested[0]!;
    const suggestions = page.getByRole('region', { name: tr('Payments to confirm') });
    const item = suggestions.locator(`[data-payment-id="${first.id}"]`);
    await item.getByRole('button', { name: startsWith('Accept') }).click();
    await app.toast('{{number}} is paid', { number: first.invoiceNumber }).waitFor();
    await item.waitFor({ state: 'detached' });
    expect((await api.call(invoiceRoutes.get, { params: { id: first.invoiceId } })).status).toBe('paid');
    await checkAxeBothThemes(page, 'invoice list');
  });
});
