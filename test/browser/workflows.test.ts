import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import REMINDER from '../../resources/workflows/invoice-reminder.json';
import { createApiClient } from '../../src-shared/api-client';
import { invoiceRoutes } from '../../src-shared/contract/invoices';
import { containing, contextOptions, literally, pattern, tk, tr } from './helpers/i18n';
import { clockedContext, launchChromium, startUiServer, type UiServer, webUiRoot } from './helpers/ui-server';
import { importApprovalWorkflow, startRun, workflowAppRoutes } from './helpers/workflows-data';
import { AppPage } from './pages/app-page';

let webRoot: string;
let ui: UiServer;
let browser: Browser;
let context: BrowserContext;
let app: AppPage;
let page: Page;
let key: string;

beforeAll(async () => {
  webRoot = webUiRoot();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  ui = await startUiServer(webRoot);
  key = ui.key();
  context = await clockedContext(browser, contextOptions({ viewport: { width: 1280, height: 860 } }));
  page = await context.newPage();
  app = new AppPage(page, ui.url);
  return async () => {
    await context.close();
    await ui.close();
  };
});

const runsTable = () => page.getByRole('table', { name: tr('Workflow runs') });
const waiting = () => tk('workflows:statuses.waiting');
/** A decision as the run detail says it: "approved by Alex Accountant" (the test user), by name. */
const decided = (status: 'approved' | 'rejected') =>
  literally(`${tk(`workflows:approvals.${status}`)} ${tk('workflows:detail.decidedBy', { who: 'Alex Accountant' })}`);
const startDialog = () => page.getByRole('dialog', { name: tr('Start a run') });

describe('workflow runs in the web UI', () => {
  it('starts a run, sees it wait, approves it and watches it complete without a reload', async () => {
    const workflowId = await importApprovalWorkflow(ui, key);
    const { email, password } = await ui.user();
    await app.open('/workflows');
    await app.signIn(email, password);
    await page.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });

    await page.getByRole('button', { name: tr('Start a run') }).click();
    await startDialog().getByText(tr('This workflow needs nothing more to start.')).waitFor();
    await startDialog()
      .getByRole('button', { name: tr('Start a run') })
      .click();
    await app.toast(pattern('Run {{run}} started', { run: '.*' })).waitFor();
    const row = runsTable().locator('tbody tr[data-run-id]').first();
    await row.getByText(waiting()).waitFor({ timeout: 20_000 });
    await row.getByText(tr('Needs approval')).waitFor();
    expect(await row.getAttribute('class')).toContain('attention');
    await page.getByRole('tab', { name: `${tk('workflows:filters.waiting')} 1` }).waitFor();

    const detail = page.getByRole('region', { name: tr('Run detail') });
    await detail.getByText('Supplier payment approval').waitFor();
    await detail.getByText(containing('Waiting for your approval:')).waitFor();
    await detail.getByLabel(tr('Comment (optional)')).fill('Invoice checked');
    await detail.getByRole('button', { name: tr('Approve') }).click();
    await app.toast(pattern('Approved: {{title}}', { title: 'Pay Kestrel.*' })).waitFor();
    await row.getByText(tr('Completed')).waitFor({ timeout: 20_000 });
    await detail.getByText('tell', { exact: true }).waitFor();
    await detail.getByText(decided('approved')).waitFor();
    // Each step says what it is in words (never a code such as load_record), its node's name beside it.
    const steps = detail.locator('.timeline .step-title strong');
    await expect(steps.allInnerTexts()).resolves.toEqual(
      expect.arrayContaining([tk('workflows:stepKinds.approval'), tk('workflows:stepKinds.notify')]),
    );
    expect((await detail.locator('.timeline').innerText()).match(/\b[a-z]+_[a-z]+\b/)).toBeNull();

    const id = (await row.getAttribute('data-run-id')) as string;
    const run = await createApiClient({ baseUrl: ui.url, token: () => key }).call(workflowAppRoutes.getRun, { params: { id } });
    expect(run.status).toBe('completed');
    expect(run.approvals[0]).toMatchObject({ status: 'approved', comment: 'Invoice checked' });
    expect(run.workflowId).toBe(workflowId);
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  });

  it('shows a run started elsewhere (the API) as it arrives, and rejects a waiting run', async () => {
    const workflowId = await importApprovalWorkflow(ui, key);
    const { email, password } = await ui.user();
    await app.open('/workflows');
    await app.signIn(email, password);
    await page.getByRole('heading', { name: tr('No runs yet') }).waitFor();
    await startRun(ui, key, workflowId);
    const row = runsTable().locator('tbody tr[data-run-id]').first();
    await row.getByText(waiting()).waitFor({ timeout: 20_000 });
    await row.click();
    const detail = page.getByRole('region', { name: tr('Run detail') });
    await detail.getByRole('button', { name: tr('Reject') }).click();
    await row.getByText(tr('Completed')).waitFor({ timeout: 20_000 });
    await detail.getByText(decided('rejected')).waitFor();
  });

  it('starts a reminder run with its invoice picked by number, approves it, and the reminder is queued', {
    timeout: 120_000,
  }, async () => {
    ui.seedDemo();
    const api = createApiClient({ baseUrl: ui.url, token: () => key });
    const [invoice] = (await api.call(invoiceRoutes.list, { query: { statuses: ['overdue'], pageSize: 1 } })).data;
    if (!invoice) throw new Error('the demo has no overdue invoice');
    const { email, password } = await ui.user();
    await app.open('/workflows');
    await app.signIn(email, password);

    await page.getByRole('button', { name: tr('Start a run') }).click();
    await startDialog().getByLabel(tr('Workflow to start')).selectOption({ label: 'Invoice reminder (v1)' });
    // Nothing is sent without the invoice the run is about.
    await startDialog()
      .getByRole('button', { name: tr('Start a run') })
      .click();
    await startDialog().getByText(tr('Choose the invoice this run is about')).waitFor();
    const picker = startDialog().getByRole('combobox', { name: tk('workflows:start.inputs.invoiceId') });
    await picker.fill(invoice.invoiceNumber!);
    await startDialog()
      .getByRole('option', { name: new RegExp(`^${invoice.invoiceNumber}`) })
      .click();
    await startDialog()
      .getByRole('button', { name: tr('Start a run') })
      .click();
    await app.toast(pattern('Run {{run}} started', { run: '.*' })).waitFor();

    const detail = page.getByRole('region', { name: tr('Run detail') });
    await detail.getByText(containing('Waiting for your approval:')).waitFor({ timeout: 20_000 });
    await detail.getByText(new RegExp(`${invoice.invoiceNumber}.*${invoice.customerName}`)).waitFor();
    // A waiting run's time runs on.
    const duration = detail.locator('dt', { hasText: tr('Duration') }).locator('xpath=following-sibling::dd[1]');
    const before = await duration.textContent();
    await expect.poll(() => duration.textContent(), { timeout: 5_000 }).not.toBe(before);
    await page.getByRole('tab', { name: `${tk('workflows:filters.waiting')} 1` }).waitFor();

    await detail.getByRole('button', { name: tr('Approve') }).click();
    const row = runsTable().locator('tbody tr[data-run-id]').first();
    await row.getByText(tr('Completed')).waitFor({ timeout: 20_000 });
    await detail.getByText(decided('approved')).waitFor();
    const run = await api.call(workflowAppRoutes.getRun, { params: { id: (await row.getAttribute('data-run-id')) as string } });
    expect(run.triggerData).toEqual({ invoiceId: invoice.id });
    expect(run.steps.map((st) => st.nodeId)).toEqual([
      'load-invoice',
      'still-open',
      'approve-reminder',
      'send-reminder',
      'notify-sent',
    ]);
    expect(app.errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
  });

  it('retries a failed run, starts it again with the data it lacked, and imports and promotes a definition', {
    timeout: 120_000,
  }, async () => {
    ui.seedDemo();
    const api = createApiClient({ baseUrl: ui.url, token: () => key });
    const reminder = (await api.call(workflowAppRoutes.list, { query: { pageSize: 100 } })).data.find(
      (w) => w.name === 'Invoice reminder',
    );
    // As a call without trigger data would (the issue's "{{trigger.invoiceId}} gives no invoice id").
    await api.call(workflowAppRoutes.start, { params: { id: reminder!.id }, body: { triggerData: { note: 'by hand' } } });
    const { email, password } = await ui.user();
    await app.open('/workflows');
    await app.signIn(email, password);
    const failedRow = runsTable().locator('tbody tr[data-run-id]').first();
    await failedRow.getByText(tk('workflows:statuses.failed')).waitFor({ timeout: 20_000 });
    await failedRow.click();
    const detail = page.getByRole('region', { name: tr('Run detail') });
    await detail.getByRole('button', { name: tk('workflows:retry.button') }).click();
    await app.toast(pattern('Run {{run}} started: {{failed}} again', { run: 'WR-2', failed: 'WR-1' })).waitFor();
    await detail.getByText(tk('workflows:detail.version', { version: 1, run: 'WR-2' }), { exact: false }).waitFor();
    await detail.locator('dl .run-pill.failed').waitFor({ timeout: 20_000 });

    await detail.getByRole('button', { name: tr('Start again with other data…') }).click();
    await expect.poll(() => startDialog().getByLabel(tr('Workflow to start')).inputValue()).toBe(reminder!.id);
    const [invoice] = (await api.call(invoiceRoutes.list, { query: { statuses: ['unpaid'], pageSize: 1 } })).data;
    await startDialog()
      .getByRole('combobox', { name: tk('workflows:start.inputs.invoiceId') })
      .fill(invoice!.invoiceNumber!);
    await startDialog()
      .getByRole('option', { name: new RegExp(`^${invoice!.invoiceNumber}`) })
      .click();
    await startDialog()
      .getByRole('button', { name: tr('Start a run') })
      .click();
    await detail.getByText(containing('Waiting for your approval:')).waitFor({ timeout: 20_000 });

    // The Workflows view: import a definition file (a new version of the reminder), promote it, turn it off and on.
    await page.getByRole('tab', { name: tk('workflows:views.definitions') }).click();
    const definition = { ...REMINDER, id: reminder!.id, description: 'Version two.' };
    await page
      .getByLabel(tr('Workflow definition file'))
      .setInputFiles({ name: 'reminder.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(definition)) });
    await app.toast('{{name}}: v{{version}} imported and promoted', { name: 'Invoice reminder', version: 2 }).waitFor();
    const wfRow = page.locator(`tr[data-workflow-id="${reminder!.id}"]`);
    await wfRow.getByText(tr('v{{version}} runs', { version: 2 })).waitFor();
    await wfRow.getByRole('button', { name: new RegExp(`^${tr('Deactivate')}`) }).click();
    await wfRow.getByText(tr('Inactive')).waitFor();
    await wfRow.getByRole('button', { name: new RegExp(`^${tr('Activate')}`) }).click();
    await wfRow.getByText(tr('Active'), { exact: true }).waitFor();
    await page
      .getByLabel(tr('Workflow definition file'))
      .setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"name": "x"') });
    await page.getByText(tr('{{file}} is not JSON:', { file: 'broken.json' })).waitFor();
  });
});
