/**
 * "Create a rule from these" after an import, in the web build against a real server: the statement is imported,
 * the link opens the rule editor with a rule proposed from the rows (their shared counterparty, the category the
 * payee's history suggests) and the dry run over exactly the import's rows; saved and applied, the rule is listed
 * and the rows are categorised (checked through the API). An unknown import, or another team's, gets an empty
 * state; rows sharing nothing get the first row's payee, said as a guess; Cancel leaves the plain rules screen.
 * And a saved rule opened in the editor lists the actions that could not apply when it ran.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { ensureTeam } from '../../src-main/store/teams/teams';
import { write } from '../../src-main/store/write';
import { createApiClient } from '../../src-shared/api-client';
import { categoryRoutes } from '../../src-shared/contract/categories';
import { ruleRoutes } from '../../src-shared/contract/rules';
import { transactionRoutes } from '../../src-shared/contract/transactions';
import { checkAxe, checkAxeBothThemes } from './helpers/axe';
import { contextOptions, formatted, literally, tk, tr } from './helpers/i18n';
import { SAMPLE_CSV } from './helpers/screens-data';
import { journeySuite } from './helpers/suite';
import { clockedContext } from './helpers/ui-server';
import { AppPage } from './pages/app-page';

const journey = journeySuite({ viewport: { width: 1280, height: 900 } });
const page = () => journey.page;
let accountId: string;
const client = () => createApiClient({ baseUrl: journey.ui.url, token: () => journey.ui.key() });

beforeEach(async () => {
  const teamId = ensureTeam(journey.ui.server.db, 'Browser Test Co').id;
  accountId = write(journey.ui.server.db, teamId, (w) =>
    w.insert('bank_account', { name: 'Girokonto', type: 'depository', currency: 'EUR', manual: 1 }),
  );
  const { email, password } = await journey.ui.user();
  await journey.app.open('/import');
  await journey.app.signIn(email, password);
  await expect.poll(() => page().locator('.import-top select').inputValue()).toBe(accountId);
  // 401: the session check before signing in; 404: the unknown import, as the empty state says.
  return () => expect(journey.app.errors.filter((e) => !/status of (401|404)/.test(e))).toEqual([]);
});

/** Three lines of one hosting company among others: the statement a rule is made from. */
const HOSTING_CSV = [
  'Buchungstag;Empfaenger;Verwendungszweck;Betrag',
  '03.11.2026;Cloud Hosting AG;Server November;-49,00',
  '04.11.2026;Nordlicht Design GmbH;Rechnung INV-0042;4.800,00',
  '05.11.2026;Cloud Hosting AG;Backup November;-9,90',
  '06.11.2026;Stadtwerke;Strom November;-89,90',
  '07.11.2026;Cloud Hosting AG;Domain;-12,00',
].join('\n');

/** Imports a CSV on the import screen and follows "Create a rule from these"; the batch's id. */
async function importAndMakeRule(name: string, csv: string, rows: number): Promise<string> {
  await page()
    .getByLabel(tr('Bank file'), { exact: true })
    .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv) });
  const preview = page().getByRole('region', { name: tr('Preview') });
  await preview.getByText(name).waitFor({ timeout: 30_000 });
  await preview.getByRole('button', { name: new RegExp(`^${tk('import:importRows', { count: rows })}`) }).click();
  const done = page()
    .getByRole('status')
    .filter({ hasText: tr('Show its transactions') });
  await done.getByRole('link', { name: tr('Create a rule from these') }).click({ timeout: 30_000 });
  await expect.poll(() => new URL(page().url()).pathname).toBe('/rules');
  const batch = new URL(page().url()).searchParams.get('fromBatch');
  expect(batch).toBeTruthy();
  return batch!;
}

const editor = () => page().getByRole('dialog', { name: tk('rules:editor.newTitle') });

describe('a rule from an import', () => {
  it('proposes the shared counterparty with its suggested category, previews the import, saves and lists it', async () => {
    const c = client();
    // One earlier line of the payee, categorised: the suggestion (confidence 0.5) proposes, it does not auto-apply.
    const category = (await c.call(categoryRoutes.list)).data.find((x) => x.parentId && !x.system)!;
    await c.call(transactionRoutes.create, {
      body: {
        bankAccountId: accountId,
        name: 'Server Oktober',
        counterpartyName: 'Cloud Hosting AG',
        amount: -29,
        currency: 'EUR',
        date: '2026-10-03',
        categorySlug: category.slug,
      },
    });

    const batch = await importAndMakeRule('hosting-november.csv', HOSTING_CSV, 5);
    const rows = (await c.call(transactionRoutes.list, { query: { importBatch: batch, pageSize: 100 } })).data;
    expect(rows).toHaveLength(5);
    const hosting = rows.filter((r) => r.counterparty_name === 'Cloud Hosting AG').map((r) => r.id);
    expect(hosting).toHaveLength(3);

    const dialog = editor();
    const note = dialog.getByTestId('rule-from-batch');
    await note.waitFor({ timeout: 30_000 });
    const said = await note.innerText();
    expect(said).toContain(tk('rules:fromBatch.open', { count: 5, file: 'hosting-november.csv' }));
    expect(said).toContain(tk('rules:fromBatch.counterparty', { count: 3, who: 'Cloud Hosting AG' }));
    expect(said).toContain(tk('rules:fromBatch.category.suggested'));
    const name = tk('rules:counterparty.ruleName', { who: 'Cloud Hosting AG', category: category.name });
    expect(await dialog.getByLabel(tk('rules:editor.name')).inputValue()).toBe(name);
    const words = await dialog.getByTestId('rule-in-words').innerText();
    expect(words).toContain(
      tk('rules:words.text.is', { field: tk('rules:words.fields.counterparty'), value: 'Cloud Hosting AG' }),
    );
    expect(words).toContain(tk('rules:words.noCategory'));

    // The dry run ran at once, over the import's five rows: the three hosting lines would change.
    const summary = literally(tk('rules:preview.summaryBatch', { count: 3, scanned: formatted(5) }));
    await dialog.getByTestId('dry-run-summary').filter({ hasText: summary }).waitFor({ timeout: 30_000 });
    const listed = dialog.getByRole('table', { name: tk('rules:preview.title') }).locator('[data-preview-id]');
    await expect.poll(() => listed.count()).toBe(3);
    const ids = await listed.evaluateAll((els) => els.map((e) => e.getAttribute('data-preview-id')));
    expect(ids.sort()).toEqual([...hosting].sort());
    await checkAxeBothThemes(page(), 'the rule editor opened from an import');

    await dialog.getByLabel(tk('rules:editor.applyNow', { count: 3 })).check();
    await dialog.getByRole('button', { name: new RegExp(`^${tk('rules:editor.save')}`) }).click();
    await page()
      .locator('.toast', { hasText: literally(tk('rules:editor.savedApplied', { name, count: 3 })) })
      .waitFor();
    await expect.poll(() => new URL(page().url()).searchParams.has('fromBatch')).toBe(false);
    expect(await editor().count()).toBe(0);
    const list = page().getByRole('table', { name: tk('rules:listLabel') });
    await list.getByText(name, { exact: true }).waitFor();

    const rules = (await c.call(ruleRoutes.list)).data;
    expect(rules.map((r) => r.name)).toEqual([name]);
    const after = (await c.call(transactionRoutes.list, { query: { importBatch: batch, pageSize: 100 } })).data;
    expect(
      after
        .filter((r) => r.category === category.slug)
        .map((r) => r.id)
        .sort(),
    ).toEqual([...hosting].sort());
    expect(after.filter((r) => r.category === null)).toHaveLength(2);
  });

  it("says so when the rows share nothing, cancels to the plain screen, and shows an unknown or another team's import as empty", async () => {
    const batch = await importAndMakeRule('statement-november.csv', SAMPLE_CSV, 5);
    // The list's first row (newest first, as the screen reads it) gives the payee.
    const [newest] = (await client().call(transactionRoutes.list, { query: { importBatch: batch, pageSize: 100 } })).data;
    const dialog = editor();
    const note = dialog.getByTestId('rule-from-batch');
    await note.waitFor({ timeout: 30_000 });
    const said = await note.innerText();
    expect(said).toContain(tk('rules:fromBatch.firstRow', { who: newest!.counterparty_name ?? newest!.name }));
    // No category is proposed (no history): the preview waits for one.
    expect(said).toContain(tk('rules:fromBatch.category.none'));
    await dialog.getByText(tk('rules:preview.incomplete')).waitFor();
    await dialog.getByRole('button', { name: tk('common:cancel') }).click();
    await expect.poll(() => new URL(page().url()).searchParams.has('fromBatch')).toBe(false);
    expect(await editor().count()).toBe(0);
    await page()
      .getByRole('heading', { name: tk('rules:empty.title') })
      .waitFor();

    // Another team's import is unknown to this one: the same empty state, nothing of the other team shown.
    const other = await clockedContext(journey.context.browser()!, contextOptions({ viewport: { width: 1280, height: 900 } }));
    try {
      const otherApp = new AppPage(await other.newPage(), journey.ui.url);
      const outsider = await journey.ui.user('Other Team Co', 'outsider@example.com');
      await otherApp.open(`/rules?fromBatch=${encodeURIComponent(batch)}`);
      await otherApp.signIn(outsider.email, outsider.password);
      const elsewhere = otherApp.page.getByTestId('rule-from-batch-empty');
      await elsewhere.getByRole('heading', { name: tk('rules:fromBatch.notFound') }).waitFor({ timeout: 30_000 });
      expect(await otherApp.page.getByRole('dialog').count()).toBe(0);
      expect(await otherApp.page.getByText(newest!.name).count()).toBe(0);
    } finally {
      await other.close();
    }

    await journey.app.open('/rules?fromBatch=no-such-batch');
    const empty = page().getByTestId('rule-from-batch-empty');
    await empty.getByRole('heading', { name: tk('rules:fromBatch.notFound') }).waitFor({ timeout: 30_000 });
    expect(await editor().count()).toBe(0);
    await checkAxe(page(), 'the rules screen with an unknown import');
    await empty.getByRole('button', { name: tk('rules:fromBatch.back') }).click();
    await expect.poll(() => new URL(page().url()).search).toBe('');
    expect(await empty.count()).toBe(0);
  });
  it('lists the actions a saved rule could not apply, with their transactions', async () => {
    const c = client();
    const category = (await c.call(categoryRoutes.list)).data.find((x) => x.parentId && !x.system)!;
    const line = (date: string, amount: number) =>
      c.call(transactionRoutes.create, {
        body: { bankAccountId: accountId, name: 'Kiosk Ecke', amount, currency: 'EUR', date },
      });
    const kept = await line('2026-11-02', -12);
    const dropped = await line('2026-11-03', -8);
    // A fixed part of 100 does not fit lines of 12 and 8: each run of the rule leaves a failure per line.
    const rule = await c.call(ruleRoutes.create, {
      body: {
        name: 'Kiosk split',
        conditions: { field: 'name', op: 'is', value: 'Kiosk Ecke' },
        actions: [{ type: 'split', parts: [{ amount: 100, categorySlug: category.slug }] }],
      },
    });
    await c.call(ruleRoutes.run, { params: { id: rule.id }, body: {} });
    await c.call(transactionRoutes.delete, { params: { id: dropped.id } });
    expect((await c.call(ruleRoutes.failures, { params: { id: rule.id } })).data).toHaveLength(2);

    await journey.app.nav('Rules').click();
    await page()
      .getByRole('table', { name: tk('rules:listLabel') })
      .locator(`tr[data-rule-id="${rule.id}"]`)
      .click();
    const dialog = page().getByRole('dialog', { name: tk('rules:editor.editTitle', { name: rule.name }) });
    const failures = dialog.getByTestId('rule-failures');
    await failures.getByText(tk('rules:failures.count', { count: 2 })).waitFor({ timeout: 30_000 });
    const rows = failures.getByRole('table', { name: tk('rules:failures.title') }).locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    await rows
      .filter({ hasText: kept.name })
      .filter({ hasText: formatted(12, 2) })
      .waitFor();
    await rows.filter({ hasText: tk('rules:failures.gone') }).waitFor();
    expect(await rows.filter({ hasText: 'the fixed split parts are larger than the transaction' }).count()).toBe(2);
    await checkAxeBothThemes(page(), 'a rule with its failures');
  });
});
