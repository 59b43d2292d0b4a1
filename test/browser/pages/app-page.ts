/**
 * Page objects for the UI, by what a person sees (roles, labels, text), not by CSS classes, so the tests read as
 * the flows they check and survive restyling. Texts are named in English and said in the run's language (`tr`).
 */
import type { Locator, Page } from 'playwright-core';
import { startsWith, tIn, tk, tr } from '../helpers/i18n';

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
    return this.mainNav.getByRole('link', {
      name: typeof label === 'string' ? tr(label) : label,
      exact: typeof label === 'string',
    });
  }

  get mainNav(): Locator {
    return this.page.getByRole('navigation', { name: tr('Main') });
  }

  /** The navigation after the journey switched the screens to another language. */
  mainNavIn(language: 'en' | 'de'): Locator {
    return this.page.getByRole('navigation', { name: tIn(language, 'app:mainNav') });
  }

  /** Signs in on the sign-in form, as a person would, and waits for the app frame. */
  async signIn(email: string, password: string): Promise<void> {
    const form = this.signInForm;
    await form.getByLabel(tr('Email')).fill(email);
    await form.getByLabel(tr('Password')).fill(password);
    await form.getByRole('button', { name: tr('Sign in') }).click();
    await this.mainNav.waitFor();
  }

  get signInForm(): Locator {
    return this.page.getByRole('form', { name: tr('Sign in') });
  }

  async open(path = '/'): Promise<void> {
    await this.page.goto(`${this.baseUrl}${path}`);
  }

  /** A toast, by its English text (a catalogue string with `vars` filled in), or by a pattern. */
  toast(text: string | RegExp, vars?: Record<string, unknown>): Locator {
    return this.page.locator('.toast', { hasText: typeof text === 'string' ? tr(text, vars) : text });
  }
}

export class CustomersPage {
  constructor(readonly app: AppPage) {}

  get page(): Page {
    return this.app.page;
  }

  get table(): Locator {
    return this.page.getByRole('table', { name: tr('Customers') });
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
    await this.page.getByLabel(tr('Search customers')).fill(q);
  }

  async tab(label: string): Promise<void> {
    await this.page
      .getByRole('tablist', { name: tr('Customer groups') })
      .getByRole('tab', { name: tr(label) })
      .click();
  }

  async sortBy(column: string): Promise<void> {
    await this.table
      .getByRole('columnheader', { name: tr(column) })
      .getByRole('button')
      .click();
  }

  async startNew(): Promise<void> {
    await this.page.getByRole('button', { name: startsWith('New customer') }).click();
  }

  async fill(fields: Record<string, string>): Promise<void> {
    for (const [label, value] of Object.entries(fields)) {
      const input = this.drawer.getByLabel(tr(label), { exact: true });
      if ((await input.evaluate((el) => el.tagName)) === 'SELECT') await input.selectOption(value);
      else await input.fill(value);
    }
  }

  async save(): Promise<void> {
    const save = new RegExp(`^(${tr('Create customer')}|${tr('Save changes')})`);
    await this.drawer.getByRole('button', { name: save }).click();
  }

  fieldError(label: string): Locator {
    return this.drawer.locator('.field', { has: this.page.getByLabel(tr(label), { exact: true }) }).locator('.error');
  }

  /** The customer's page, by its heading. */
  detail(name: string): Locator {
    return this.page.getByRole('heading', { level: 1, name, exact: true });
  }

  /** Opens the customer's page from the list (a click on its row), unless it is open, and its edit form. */
  async edit(name: string): Promise<void> {
    if (!(await this.detail(name).isVisible())) await this.row(name).click();
    await this.page.getByRole('button', { name: startsWith('Edit') }).click();
    await this.drawer.waitFor();
  }

  /** From a customer's page back to the list, by the breadcrumb. */
  async backToList(): Promise<void> {
    await this.page
      .getByRole('navigation', { name: tk('customers:detail.breadcrumb') })
      .getByRole('link', { name: tr('Customers') })
      .click();
    await this.table.waitFor();
  }

  async deleteOpen(): Promise<void> {
    await this.drawer.getByRole('button', { name: tr('Delete'), exact: true }).click();
    await this.page
      .getByRole('alertdialog')
      .getByRole('button', { name: tr('Delete customer') })
      .click();
  }

  /** The name column of the visible rows, top to bottom. */
  names(): Promise<string[]> {
    return this.rows.locator('.cell-name').allInnerTexts();
  }
}
