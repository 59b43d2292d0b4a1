/**
 * The search box over the demo data in the web build: Ctrl+K from any screen, type an invoice number, open it with
 * Enter; type a customer's name, move to it with ↓ and open its page; Esc gives focus back. Axe in both themes.
 */
import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../src-shared/api-client';
import { customerRoutes } from '../../src-shared/contract/customers';
import { invoiceRoutes } from '../../src-shared/contract/invoices';
import { checkAxeBothThemes } from './helpers/axe';
import { tk, tr } from './helpers/i18n';
import { journeySuite } from './helpers/suite';

const journey = journeySuite({}, (ui) => ui.seedDemo());

describe('search in the web UI', () => {
  it('finds an invoice with Ctrl+K and opens it with Enter; a customer with ↓ and Enter', { timeout: 120_000 }, async () => {
    const { ui, page, app } = journey;
    const api = createApiClient({ baseUrl: ui.url, token: () => ui.key() });
    const [invoice] = (await api.call(invoiceRoutes.list, { query: { statuses: ['overdue'], pageSize: 1 } })).data;
    const [customer] = (await api.call(customerRoutes.list, { query: { tab: 'repeat', pageSize: 1 } })).data;
    const { email, password } = await ui.user();
    await app.open('/transactions');
    await app.signIn(email, password);
    await page.getByRole('grid', { name: tr('Transactions') }).waitFor();

    // Ctrl+K from the transactions screen; the newest records show before anything is typed.
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: tr('Search everything') });
    const box = dialog.getByRole('combobox', {
      name: tr('Search customers, invoices, transactions, projects, inbox and documents'),
    });
    await box.waitFor();
    expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
    await dialog.getByRole('group', { name: tr('Newest invoices') }).waitFor();
    await checkAxeBothThemes(page, 'search');

    // An invoice number: the invoice is the first result, opened with Enter.
    const number = invoice!.invoiceNumber!;
    await box.fill(number);
    const invoices = dialog.getByRole('group', { name: tk('search:types.invoice') });
    const option = invoices.getByRole('option', { name: new RegExp(number) });
    await option.waitFor();
    expect(await option.getAttribute('aria-selected')).toBe('true');
    expect(await option.innerText()).toContain(tk('search:statuses.invoice.overdue'));
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('heading', { level: 1, name: new RegExp(number) }).waitFor();
    expect(page.url()).toContain(`/invoices/${invoice!.id}`);

    // A customer's name: ↓ moves through the results, Enter opens the customer's page.
    await page.keyboard.press('Control+k');
    await box.fill(customer!.name);
    const customerOption = dialog
      .getByRole('group', { name: tk('search:types.customer') })
      .getByRole('option', { name: new RegExp(customer!.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) })
      .first();
    await customerOption.waitFor();
    const options = dialog.getByRole('option');
    const index = await customerOption.evaluate((el) =>
      [...el.closest('[role="listbox"]')!.querySelectorAll('[role="option"]')].indexOf(el),
    );
    for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
    expect(await customerOption.getAttribute('aria-selected')).toBe('true');
    expect(await options.count()).toBeGreaterThan(0);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: customer!.name, exact: true }).waitFor();

    // Esc closes it and gives focus back to where it was.
    const edit = page.getByRole('button', { name: new RegExp(`^${tr('Edit')}`) });
    await edit.focus();
    await page.keyboard.press('Control+k');
    await box.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await edit.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(app.errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
  });
});
