/**
 * Rules and categories in the web build, for real: demo data in a real server, Debian Chromium, signed in. From a
 * transaction's panel, "always categorise this counterparty as …" shows the dry run — the same the API computes —
 * before the rule is saved and applied; the rules screen says the rule in words and turns it off; a learned
 * suggestion is accepted through the editor with its preview; a category is created under a group, renamed and
 * deleted. Each checked through the API.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src-shared/api-client';
import { appTransactionRoutes } from '../../src-shared/contract/app-transactions';
import { categoryRoutes } from '../../src-shared/contract/categories';
import { ruleRoutes } from '../../src-shared/contract/rules';
import { transactionRoutes } from '../../src-shared/contract/transactions';
import { formatted, LANG, literally, tk, tr } from './helpers/i18n';
import { journeySuite } from './helpers/suite';

const journey = journeySuite({ viewport: { width: 1280, height: 860 } }, (ui) => ui.seedDemo());
let key: string;
beforeEach(async () => {
  key = journey.ui.key();
  const { email, password } = await journey.ui.user();
  await journey.app.open('/transactions?state=all');
  await journey.app.signIn(email, password);
  // 401: the session check before signing in.
  return () => expect(journey.app.errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
});
const page = () => journey.page;

const client = () => createApiClient({ baseUrl: journey.ui.url, token: () => key });
const summary = (count: number, scanned: number) =>
  literally(tk('rules:preview.summary', { count, scanned: formatted(scanned) }));

describe('rules and categories in the web UI', () => {
  it('creates a rule from a transaction after showing its dry run, then lists it in words and turns it off', async () => {
    const c = client();
    // The payee with the most lines, and a category none of them has.
    const sample = await c.call(appTransactionRoutes.list, { query: { type: 'expense', pageSize: 500 } });
    const byPayee = new Map<string, typeof sample.data>();
    for (const t of sample.data)
      if (t.counterpartyName) byPayee.set(t.counterpartyName, [...(byPayee.get(t.counterpartyName) ?? []), t]);
    const [who, lines] = [...byPayee].sort((a, b) => b[1].length - a[1].length)[0]!;
    expect(lines.length).toBeGreaterThan(2);
    const categories = (await c.call(categoryRoutes.list)).data;
    const target = categories.find((x) => x.parentId && !x.system && !lines.some((t) => t.category?.slug === x.slug))!;

    await page()
      .getByRole('tab', { name: new RegExp(`^${tk('transactions:tabs.all')}`) })
      .waitFor();
    await page().getByLabel(tk('transactions:filters.search')).fill(who);
    const row = page()
      .getByRole('grid', { name: tr('Transactions') })
      .locator(`[data-transaction-id="${lines[0]!.id}"]`);
    await row.dblclick();
    const panel = page().getByRole('dialog', { name: lines[0]!.name });
    const section = panel.getByTestId('counterparty-rule');
    await section.getByRole('button', { name: tr('Always categorise {{who}} as…', { who }) }).click();
    await section.getByLabel(tr('Always categorise {{who}} as', { who })).selectOption(target.slug);

    // The dry run shown is the API's for the same rule.
    const rule = {
      name: tk('rules:counterparty.ruleName', { who, category: target.name }),
      conditions: { field: 'counterparty' as const, op: 'is' as const, value: who },
      actions: [{ type: 'set_category' as const, categorySlug: target.slug }],
    };
    const expected = await c.call(ruleRoutes.dryRun, {
      body: { rule: { ...rule, stage: 'default', enabled: true, applyOn: ['import', 'create'] } },
    });
    expect(expected.changed).toBeGreaterThan(2);
    await section.getByTestId('dry-run-summary').getByText(summary(expected.changed, expected.scanned)).waitFor();
    const preview = section.getByRole('table', { name: tk('rules:preview.title') });
    await expect.poll(() => preview.locator('tbody tr').count()).toBe(Math.min(expected.changed, 200));
    const changedId = expected.transactions[0]!.id;
    await preview.locator(`tr[data-preview-id="${changedId}"]`).getByText(target.name).waitFor();

    await section.getByRole('button', { name: tk('rules:counterparty.create') }).click();
    await journey.app.page
      .locator('.toast', { hasText: literally(tk('rules:editor.savedApplied', { name: rule.name, count: expected.changed })) })
      .waitFor();
    const saved = (await c.call(ruleRoutes.list)).data.find((r) => r.name === rule.name)!;
    expect(saved).toMatchObject({ enabled: true, conditions: rule.conditions, actions: rule.actions });
    expect((await c.call(transactionRoutes.get, { params: { id: changedId } })).category?.slug).toBe(target.slug);
    // The transaction the rule was made from is categorised too, and its panel says so.
    expect((await c.call(transactionRoutes.get, { params: { id: lines[0]!.id } })).category?.slug).toBe(target.slug);
    expect((await c.call(ruleRoutes.dryRun, { body: { ruleId: saved.id } })).changed).toBe(0);
    await page().keyboard.press('Escape');

    // The rules screen says it in words; the switch turns it off.
    await journey.app.nav('Rules').click();
    const listed = page()
      .getByRole('table', { name: tk('rules:listLabel') })
      .locator(`tr[data-rule-id="${saved.id}"]`);
    await listed
      .getByText(tk('rules:words.text.is', { field: tk('rules:words.fields.counterparty'), value: who }), { exact: true })
      .waitFor();
    await listed.getByText(tk('rules:words.actions.set_category', { category: target.name }), { exact: true }).waitFor();
    await listed.getByRole('switch', { name: tk('rules:columns.enabledFor', { name: rule.name }) }).click();
    await expect.poll(async () => (await c.call(ruleRoutes.get, { params: { id: saved.id } })).enabled).toBe(false);
    // Opened, its dry run has nothing left to change.
    await listed.click();
    const editor = page().getByRole('dialog', { name: tk('rules:editor.editTitle', { name: rule.name }) });
    await editor.getByTestId('dry-run-summary').getByText(summary(0, expected.scanned)).waitFor();
    await editor.getByRole('button', { name: tk('common:cancel') }).click();
  });

  it('accepts a learned rule through the editor, and keeps the category tree', async () => {
    const c = client();
    await journey.app.nav('Rules').click();
    const suggestions = page().getByRole('region', { name: tk('rules:suggestions.title') });
    const first = suggestions.locator('li[data-suggestion]').first();
    const payee = (await first.getAttribute('data-suggestion')) as string;
    await first.getByRole('button', { name: tk('rules:suggestions.accept') }).click();
    const editor = page().getByRole('dialog', { name: tk('rules:editor.newTitle') });
    await editor.getByTestId('rule-in-words').getByText(literally(payee)).waitFor();
    await editor.getByTestId('dry-run-summary').waitFor();
    await editor.getByRole('button', { name: new RegExp(`^${tk('rules:editor.save')}`) }).click();
    await editor.waitFor({ state: 'detached' });
    await expect
      .poll(async () => (await c.call(ruleRoutes.list)).data.some((r) => JSON.stringify(r.conditions).includes(payee)))
      .toBe(true);
    // Accepted, it is no longer suggested.
    await suggestions.locator(`li[data-suggestion="${payee}"]`).waitFor({ state: 'detached' });

    // Categories: a new one under a group, renamed, deleted.
    await journey.app.nav('Categories').click();
    const table = page().getByRole('table', { name: tk('categories:title') });
    const group = (await c.call(categoryRoutes.list)).data.find((x) => !x.parentId && !x.system)!;
    await table.getByRole('button', { name: tk('categories:addUnder', { name: group.name }) }).click();
    let form = page().getByRole('dialog', { name: tk('categories:form.newTitle') });
    await form.getByLabel(tk('categories:form.name')).fill('Coworking');
    await form.getByLabel(tk('categories:form.taxRate')).fill(LANG === 'en' ? '7.5' : '7,5');
    await form.getByRole('button', { name: new RegExp(`^${tk('categories:form.create')}`) }).click();
    await expect
      .poll(async () => (await c.call(categoryRoutes.list)).data.find((x) => x.name === 'Coworking'))
      .toMatchObject({
        parentId: group.id,
        taxRate: 7.5,
      });
    const created = (await c.call(categoryRoutes.list)).data.find((x) => x.name === 'Coworking')!;
    await table.locator(`tr[data-category-id="${created.id}"]`).click();
    form = page().getByRole('dialog', { name: tk('categories:form.editTitle', { name: 'Coworking' }) });
    await form.getByLabel(tk('categories:form.name')).fill('Coworking space');
    await form.getByRole('button', { name: new RegExp(`^${tk('categories:form.save')}`) }).click();
    await expect
      .poll(async () => (await c.call(categoryRoutes.get, { params: { id: created.id } })).name)
      .toBe('Coworking space');
    await table.locator(`tr[data-category-id="${created.id}"]`).click();
    form = page().getByRole('dialog', { name: tk('categories:form.editTitle', { name: 'Coworking space' }) });
    await form.getByRole('button', { name: tk('common:delete') }).click();
    const confirm = page().getByRole('alertdialog', { name: tk('categories:form.deleteTitle', { name: 'Coworking space' }) });
    await confirm.getByText(literally(tk('categories:form.deleteText', { count: 0, shown: '0' }))).waitFor();
    await confirm.getByRole('button', { name: tk('common:delete') }).click();
    await table.locator(`tr[data-category-id="${created.id}"]`).waitFor({ state: 'detached' });
    expect((await c.call(categoryRoutes.list)).data.some((x) => x.id === created.id)).toBe(false);
  });
});
