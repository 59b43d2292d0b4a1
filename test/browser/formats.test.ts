/**
 * Personal formats in the web build: a new user is asked at the first sign-in (suggested from the browser), the
 * screens then speak the chosen language and write amounts and dates in the chosen formats; Settings changes them
 * again and every screen follows. Run in English and in German, the journey switches to the other language.
 */
import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../src-shared/api-client';
import { transactionRoutes } from '../../src-shared/contract/transactions';
import { userRoutes } from '../../src-shared/contract/users';
import { LANG, LOCALE, tIn, tr } from './helpers/i18n';
import { journeySuite } from './helpers/suite';

const journey = journeySuite({}, (ui) => ui.seedDemo());

/** The other language of the journey, and how its locale writes days and amounts. */
const target =
  LANG === 'de'
    ? {
        language: 'en' as const,
        locale: 'en-US',
        dateFormat: 'MM/dd/yyyy',
        day: (y: string, m: string, d: string) => `${m}/${d}/${y}`,
      }
    : {
        language: 'de' as const,
        locale: 'de-DE',
        dateFormat: 'dd.MM.yyyy',
        day: (y: string, m: string, d: string) => `${d}.${m}.${y}`,
      };

/** An amount as Intl writes it in a locale, with the screens' plain spaces. */
const amountIn = (locale: string, amount: number, currency: string) =>
  new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount).replace(/\u00a0/g, ' ');

describe('personal formats', () => {
  it('asks at the first sign-in, then amounts, dates and the language follow the choice, and Settings changes them', async () => {
    const { ui, page, app } = journey;
    const { email, password } = await ui.user('Browser Test Co', 'new.accountant@example.com', { formats: false });
    await app.open('/transactions');
    await app.signIn(email, password);

    // The question, suggested from the browser's language.
    const question = page.getByRole('dialog', { name: tr('How should amounts and dates read?') });
    await question.waitFor();
    const locale = question.getByLabel(tr('Language and region'));
    expect(await locale.inputValue()).toBe(LOCALE);
    // Another locale brings its own date format.
    await locale.selectOption(target.locale);
    expect(await question.getByLabel(tr('Date format')).inputValue()).toBe(target.dateFormat);
    await question.getByRole('button', { name: tr('Use these formats') }).click();
    await question.waitFor({ state: 'detached' });

    // The screens now speak the other language, and the grid writes amounts and days in its formats.
    const grid = page.getByRole('grid', { name: tIn(target.language, 'transactions:title') });
    await grid.locator('[data-transaction-id]').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe(target.language);
    const key = ui.key();
    const api = createApiClient({ baseUrl: ui.url, token: () => key });
    expect((await api.call(userRoutes.me)).locale).toBe(target.locale);
    const firstId = await grid.locator('[data-transaction-id]').first().getAttribute('data-transaction-id');
    const first = await api.call(transactionRoutes.get, { params: { id: firstId ?? '' } });
    const row = grid.locator(`[data-transaction-id="${firstId}"]`);
    const [y, m, d] = first.date.slice(0, 10).split('-') as [string, string, string];
    expect(await row.locator('.date').innerText()).toBe(target.day(y, m, d));
    expect(await row.locator('.money').innerText()).toBe(amountIn(target.locale, first.amount, first.currency));

    // Settings: another number format and ISO days.
    await app
      .mainNavIn(target.language)
      .getByRole('link', { name: tIn(target.language, 'settings:title'), exact: true })
      .click();
    const formats = page.getByRole('region', { name: tIn(target.language, 'settings:formats.title') });
    // Another language here brings its date format too (the one shown was the locale's own), and back again.
    const back = LOCALE;
    const dateFormat = formats.getByLabel(tIn(target.language, 'settings:formats.dateFormat'));
    await formats.getByLabel(tIn(target.language, 'settings:formats.locale')).selectOption(back);
    await expect(dateFormat.inputValue()).resolves.not.toBe(target.dateFormat);
    await formats.getByLabel(tIn(target.language, 'settings:formats.locale')).selectOption(target.locale);
    await expect(dateFormat.inputValue()).resolves.toBe(target.dateFormat);
    // French is offered as what it is: partly translated.
    const french = formats.getByLabel(tIn(target.language, 'settings:formats.locale')).locator('option[value="fr-FR"]');
    await expect(french.innerText()).resolves.toMatch(target.language === 'de' ? /teilweise übersetzt/ : /partly translated/);
    await formats.getByLabel(tIn(target.language, 'settings:formats.numberFormat')).selectOption('1’234.56');
    await formats.getByLabel(tIn(target.language, 'settings:formats.dateFormat')).selectOption('yyyy-MM-dd');
    await formats.getByRole('button', { name: tIn(target.language, 'settings:formats.save') }).click();
    await app.page.locator('.toast', { hasText: tIn(target.language, 'settings:formats.saved') }).waitFor();
    const preview = page.getByTestId('formats-preview');
    await expect.poll(() => preview.innerText()).toContain(target.language === 'de' ? '-1’234.50 €' : '-€1’234.50');

    await app
      .mainNavIn(target.language)
      .getByRole('link', { name: tIn(target.language, 'transactions:title'), exact: true })
      .click();
    await row.waitFor();
    expect(await row.locator('.date').innerText()).toBe(first.date.slice(0, 10));
    expect(await row.locator('.money').innerText()).toMatch(/\.\d{2}\b/);
    expect(await row.locator('.money').innerText()).not.toMatch(/,\d{2}\b/);
  });

  it('keeps the defaults for now when asked "Later", and does not ask again in this browser', async () => {
    const { ui, page, app } = journey;
    const { email, password } = await ui.user('Browser Test Co', 'later@example.com', { formats: false });
    await app.open('/customers');
    await app.signIn(email, password);
    const question = page.getByRole('dialog', { name: tr('How should amounts and dates read?') });
    await question.getByRole('button', { name: tr('Later') }).click();
    await question.waitFor({ state: 'detached' });
    await page.reload();
    await app.mainNav.waitFor();
    await page.getByRole('table', { name: tr('Customers') }).waitFor();
    expect(await question.count()).toBe(0);
  });
});
