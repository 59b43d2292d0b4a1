/** The invoice screens by what a person sees: the list's rows, the new-invoice drawer, an invoice's page. */
import type { Locator, Page } from 'playwright-core';
import { startsWith, tk, tr } from '../helpers/i18n';
import type { AppPage } from './app-page';

export class InvoicesPage {
  constructor(readonly app: AppPage) {}

  get page(): Page {
    return this.app.page;
  }

  get rows(): Locator {
    return this.page.getByRole('table', { name: tr('Invoices') }).locator('tbody tr[data-invoice-id]');
  }

  row(number: string): Locator {
    return this.rows.filter({ has: this.page.locator('.inv-number', { hasText: number }) });
  }

  get drawer(): Locator {
    return this.page.getByRole('dialog', { name: tk('invoices:form.title') });
  }

  async startNew(): Promise<void> {
    await this.page.getByRole('button', { name: startsWith('New invoice') }).click();
    await this.drawer.waitFor();
  }

  /** Types part of a name in the customer field and picks the customer from the matches. */
  async chooseCustomer(typed: string, name: string): Promise<void> {
    const field = this.drawer.getByRole('combobox', { name: tk('invoices:form.customer') });
    await field.fill(typed);
    await this.drawer.getByRole('option', { name: new RegExp(`^${name}`) }).click();
  }

  /** A line's input by its column's English name ("Price") and the line's number from 1. */
  line(n: number, column: string): Locator {
    return this.drawer.getByLabel(tr('{{field}}, line {{n}}', { field: tr(column), n }), { exact: true });
  }

  async fillLine(n: number, fields: Record<string, string>): Promise<void> {
    for (const [column, value] of Object.entries(fields)) await this.line(n, column).fill(value);
  }

  /** The status pill at the top of an invoice's page. */
  pill(status: string): Locator {
    return this.page.locator('h1 .pill', { hasText: status });
  }

  async command(english: string): Promise<void> {
    await this.page
      .locator('.inv-commands')
      .getByRole('button', { name: tr(english), exact: true })
      .click();
  }

  /** Waits until the PDF preview has drawn its pages. */
  async pdfDrawn(): Promise<void> {
    await this.page.locator('.pdf-pages[data-state="done"] canvas').first().waitFor({ timeout: 30_000 });
  }
}
