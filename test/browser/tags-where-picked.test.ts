/**
 * Issue 36's rough edges, as a person meets them at 1280 px: a tag is made where it is picked (the customer form,
 * the transaction panel), picked at once, and a name already taken in another letter case picks that tag instead of
 * failing; the tag is on the record after a reload. And the bank-account pickers and the state badges show their
 * whole text (a long German account name, "Ausgeschlossen", "Noch nicht gesendet"): nothing is cut off.
 */
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src-shared/api-client';
import { bankAccountRoutes } from '../../src-shared/contract/bank-accounts';
import { customerRoutes } from '../../src-shared/contract/customers';
import { tagRoutes } from '../../src-shared/contract/tags';
import { transactionRoutes } from '../../src-shared/contract/transactions';
import { containing, literally, tk, tr } from './helpers/i18n';
import { journeySuite } from './helpers/suite';
import type { UiServer } from './helpers/ui-server';
import { type AppPage, CustomersPage } from './pages/app-page';

// The shared journey set-up (a fresh server with the demo, a context at 1280 × 860); the tests read its parts by name.
const journey = journeySuite({ viewport: { width: 1280, height: 860 } }, (ui) => ui.seedDemo());
let ui: UiServer;
let app: AppPage;
let page: Page;
let key: string;

beforeEach(() => {
  ({ ui, app, page } = journey);
  key = ui.key();
});

const client = () => createApiClient({ baseUrl: ui.url, token: () => key });
const tagsNamed = async (name: string) =>
  (await client().call(tagRoutes.list, {})).data.filter((x) => x.name.toLocaleLowerCase() === name.toLocaleLowerCase());

async function signIn(path: string): Promise<void> {
  const { email, password } = await ui.user();
  await app.open(path);
  await app.signIn(email, password);
}

/** The tag field's name input and its button, inside `scope` (a drawer or the panel). */
const newTagInput = (scope: ReturnType<Page['getByRole']>) =>
  scope.getByRole('textbox', { name: tk('common:tagField.newTag'), exact: true });
const tagToggle = (scope: ReturnType<Page['getByRole']>, name: string) => scope.getByRole('button', { name, exact: true });

/** Elements of `selector` whose text needs more room than they have (or than their cell gives them). */
function clipped(selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(sel)) {
      const text = el instanceof HTMLSelectElement ? (el.selectedOptions[0]?.text ?? '') : (el.textContent ?? '');
      if (el instanceof HTMLSelectElement) {
        // A select never scrolls: its text needs the width the same select takes when sized to its content.
        const probe = el.cloneNode(true) as HTMLSelectElement;
        probe.value = el.value;
        probe.style.cssText = 'field-sizing: content; width: auto; min-width: 0; max-width: none; position: absolute;';
        el.parentElement?.append(probe);
        const needed = probe.getBoundingClientRect().width;
        probe.remove();
        if (needed - el.getBoundingClientRect().width > 1) out.push(`${text} (select ${needed} > ${el.offsetWidth})`);
        continue;
      }
      if (el.scrollWidth - el.clientWidth > 1) out.push(`${text} (${el.scrollWidth} > ${el.clientWidth})`);
      const box = el.getBoundingClientRect();
      const cell = el.parentElement?.getBoundingClientRect();
      if (cell && el.parentElement && getComputedStyle(el.parentElement).overflow !== 'visible' && box.right - cell.right > 1)
        out.push(`${text} (cell ends at ${cell.right}, badge at ${box.right})`);
    }
    return out;
  }, selector);
}

/** Containers wider than the window lets them be (as screens.test.ts's noHorizontalOverflow asks). */
function wider(selector: string): Promise<string[]> {
  return page.evaluate(
    (sel) =>
      [...document.querySelectorAll(sel)]
        .filter((el) => el.scrollWidth - el.clientWidth > 1)
        .map((el) => `${el.className} (${el.scrollWidth} > ${el.clientWidth})`),
    selector,
  );
}

describe('tags made where they are picked', () => {
  it('a new tag typed in the customer form is picked at once, an existing name in another case picks that tag', async () => {
    const before = (await client().call(tagRoutes.list, {})).data;
    const existing = before[0];
    expect(existing, 'the demo team has tags').toBeDefined();
    await signIn('/customers');
    const customers = new CustomersPage(app);
    await customers.table.waitFor();
    await customers.startNew();
    await customers.fill({ Name: 'Rheinufer Möbel GmbH' });
    const drawer = customers.drawer;

    await newTagInput(drawer).fill('Stammkunde Köln');
    await newTagInput(drawer).press('Enter');
    await expect.poll(() => tagToggle(drawer, 'Stammkunde Köln').getAttribute('aria-pressed')).toBe('true');
    expect(await newTagInput(drawer).inputValue()).toBe('');
    // Enter made the tag; it did not save the form.
    expect(await drawer.isVisible()).toBe(true);

    // The demo's tag, typed in upper case: that tag is picked, no second one is made.
    await newTagInput(drawer).fill(existing!.name.toLocaleUpperCase());
    await drawer.getByRole('button', { name: tk('common:tagField.pick'), exact: true }).click();
    await expect.poll(() => tagToggle(drawer, existing!.name).getAttribute('aria-pressed')).toBe('true');
    expect(await tagsNamed(existing!.name)).toHaveLength(1);
    expect(await tagsNamed('Stammkunde Köln')).toHaveLength(1);

    await customers.save();
    await app.toast('Created {{name}}', { name: 'Rheinufer Möbel GmbH' }).waitFor();
    const made = (await client().call(customerRoutes.list, { query: { q: 'Rheinufer' } })).data[0];
    expect(made?.tags.map((x) => x.name).sort()).toEqual([existing!.name, 'Stammkunde Köln'].sort());

    // After a reload the customer's form shows both tags on.
    await page.goto(`${ui.url}/customers/${made!.id}`);
    await customers.detail('Rheinufer Möbel GmbH').waitFor();
    await page.reload();
    await customers.detail('Rheinufer Möbel GmbH').waitFor();
    await customers.edit('Rheinufer Möbel GmbH');
    await expect.poll(() => tagToggle(customers.drawer, 'Stammkunde Köln').getAttribute('aria-pressed')).toBe('true');
    expect(await tagToggle(customers.drawer, existing!.name).getAttribute('aria-pressed')).toBe('true');
  });

  it('a new tag typed in the transaction panel is on the transaction at once and after a reload', async () => {
    await signIn('/transactions');
    const grid = page.getByRole('grid', { name: tr('Transactions') });
    const first = grid.locator('[data-transaction-id]').first();
    await first.waitFor();
    const id = (await first.getAttribute('data-transaction-id')) as string;
    const name = (await client().call(transactionRoutes.get, { params: { id } })).name;
    await first.click();
    await page.keyboard.press('Enter');
    const panel = page.getByRole('dialog', { name });
    await panel.waitFor();

    await newTagInput(panel).fill('Messe Düsseldorf');
    await newTagInput(panel).press('Enter');
    await app.toast(literally(tk('transactions:panel.tagAdded', { name: 'Messe Düsseldorf' }))).waitFor();
    await expect.poll(() => tagToggle(panel, 'Messe Düsseldorf').getAttribute('aria-pressed')).toBe('true');
    const tagged = await client().call(transactionRoutes.get, { params: { id } });
    expect(tagged.tags?.map((x) => x.name)).toContain('Messe Düsseldorf');

    // Typed again in lower case: the same tag, still one of that name, still on once.
    await newTagInput(panel).fill('messe düsseldorf');
    await newTagInput(panel).press('Enter');
    await expect.poll(() => newTagInput(panel).inputValue()).toBe('');
    expect(await tagsNamed('Messe Düsseldorf')).toHaveLength(1);
    expect(
      (await client().call(transactionRoutes.get, { params: { id } })).tags?.filter((x) => x.name === 'Messe Düsseldorf'),
    ).toHaveLength(1);

    await page.reload();
    const again = grid.locator(`[data-transaction-id="${id}"]`);
    await page.getByRole('tab', { name: containing('All') }).click();
    await again.waitFor();
    await again.click();
    await page.keyboard.press('Enter');
    await panel.waitFor();
    await expect.poll(() => tagToggle(panel, 'Messe Düsseldorf').getAttribute('aria-pressed')).toBe('true');
  });
});

describe('account pickers and state badges at 1280 px', () => {
  it('show a long account name and every state word whole', async () => {
    const long = 'Geschäftskonto Sparkasse Köln-Bonn';
    const account = await client().call(bankAccountRoutes.create, { body: { name: long, currency: 'EUR' } });
    await signIn('/transactions');
    const grid = page.getByRole('grid', { name: tr('Transactions') });
    await page.getByRole('tab', { name: containing('All') }).click();
    await grid.locator('[data-transaction-id] .pill').first().waitFor();
    expect(await clipped('.tx-grid .pill')).toEqual([]);
    // Every state word, as the grid's state column shows it.
    const states = ['to_review', 'needs_receipt', 'ready', 'exported', 'excluded'];
    const widest = await page.evaluate(
      ({ words }) => {
        const pill = document.querySelector<HTMLElement>('.tx-grid [data-transaction-id] .pill');
        if (!pill) return [];
        const was = pill.textContent;
        const out: string[] = [];
        for (const w of words) {
          pill.textContent = w;
          const cell = pill.parentElement!.getBoundingClientRect();
          if (pill.scrollWidth - pill.clientWidth > 1 || pill.getBoundingClientRect().right - cell.right > 1)
            out.push(`${w} (${pill.scrollWidth}/${pill.clientWidth}, cell ${cell.width})`);
        }
        pill.textContent = was;
        return out;
      },
      { words: states.map((s) => tk(`transactions:tabs.${s}`)) },
    );
    expect(widest).toEqual([]);

    const filter = page.getByRole('search').locator('select.account-select');
    await filter.selectOption(account.id);
    expect(await filter.getAttribute('title')).toBe(long);
    expect(await clipped('.filter-bar select')).toEqual([]);
    expect(await wider('.main, .table-wrap, .tx-grid, .card')).toEqual([]);

    await page.goto(`${ui.url}/import`);
    const picker = page.locator('.import-top select');
    await picker.waitFor();
    await picker.selectOption(account.id);
    expect(await picker.getAttribute('title')).toContain(long);
    expect(await clipped('.import-top select')).toEqual([]);

    await page.goto(`${ui.url}/invoices`);
    await page.locator('.pill').first().waitFor();
    expect(await clipped('.pill')).toEqual([]);
    expect(await wider('.main, .table-wrap, .card')).toEqual([]);
    // The words of an unsent and an overdue invoice are in the list's badges as the catalogue says them.
    const words = await page.locator('.pill').allInnerTexts();
    expect(words.some((w) => w === tk('invoices:status.overdue') || w === tk('invoices:status.unsent'))).toBe(true);
  });
});
