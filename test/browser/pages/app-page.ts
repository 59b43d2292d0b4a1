/**
 * Page objects for the UI, by what a person sees (roles, labels, text), not by CSS classes, so the tests read as
 * the flows they check and survive restyling.
 */
import type { Locator, Page } from 'playwright-core';

export class AppPage {
  readonly errors: string[] = [];

  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {
    page.on('console', (m) => {
      if (m.type() === 'error') this.errors.push(m.text());
    });
    page.on('pageerror', (e) => this.errors.push(e.message));
  }

  nav(label: string | RegExp): Locator {
    // A string names a built entry exactly ("Settings", not "Team settings not built"); a pattern matches loosely.
    return this.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: label, exact: typeof label === 'string' });
  }

  /** Signs in on the sign-in form, as a person would, and waits for the app frame. */
  async signIn(email: string, password: string): Promise<void> {
    const form = this.page.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Password').fill(password);
    await form.getByRole('button', { name: 'Sign in' }).click();
    await this.page.getByRole('navigation', { name: 'Main' }).waitFor();
  }

  async open(path = '/'): Promise<void> {
    await this.page.goto(`${this.baseUrl}${path}`);
  }

  toast(text: string | RegExp): Locator {
    return this.page.locator('.toast', { hasText: text });
  }
}

export class CustomersPage {
  constructor(readonly app: AppPage) {}

  get page(): Page {
    return this.app.page;
  }

  get table(): Locator {
    return this.page.getByRole('table', { name: 'Customers' });
  }

  get rows(): Locator {
    return this.table.locator('tbody tr[data-customer-id]');
  }

  row(name: string): Locator {
    return this.rows.filter({ has: this.page.locator('.cell-name', { hasText: name }) });
  }

  get drawer(): Locator {
    return this.page.getByRole('dialog');
  }

  async open(): Promise<void> {
    await this.app.nav('Customers').click();
  }

  async search(q: string): Promise<void> {
    await this.page.getByLabel('Search customers').fill(q);
  }

  async tab(label: string): Promise<void> {
    await this.page.getByRole('tablist', { name: 'Customer groups' }).getByRole('tab', { name: label }).click();
  }

  async sortBy(column: string): Promise<void> {
    await this.table.getByRole('columnheader', { name: column }).getByRole('button').click();
  }

  async startNew(): Promise<void> {
    await this.page.getByRole('button', { name: /^New customer/ }).click();
  }

  async fill(fields: Record<string, string>): Promise<void> {
    for (const [label, value] of Object.entries(fields)) {
      const input = this.drawer.getByLabel(label, { exact: true });
      if ((await input.evaluate((el) => el.tagName)) === 'SELECT') await input.selectOption(value);
      else await input.fill(value);
    }
  }

  async save(): Promise<void> {
    await this.drawer.getByRole('button', { name: /^(Create customer|Save changes)/ }).click();
  }

  fieldError(label: string): Locator {
    return this.drawer.locator('.field', { has: this.page.getByLabel(label, { exact: true }) }).locator('.error');
  }

  async edit(name: string): Promise<void> {
    await this.row(name).click();
  }

  async deleteOpen(): Promise<void> {
    await this.drawer.getByRole('button', { name: 'Delete', exact: true }).click();
    await this.page.getByRole('alertdialog').getByRole('button', { name: 'Delete customer' }).click();
  }

  /** The name column of the visible rows, top to bottom. */
  names(): Promise<string[]> {
    return this.rows.locator('.cell-name').allInnerTexts();
  }
}
