/**
 * Workflow runs in the web build against a real server whose runner executes runs: a run started from the screen
 * appears, waits for its approval (highlighted, counted on the Waiting tab), is approved with a comment in the
 * detail panel and completes — the list and the step timeline follow live from the change stream, no reload.
 */
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src-shared/api-client';
import { containing, contextOptions, literally, pattern, tk, tr } from './helpers/i18n';
import { buildWebUi, launchChromium, startUiServer, type UiServer } from './helpers/ui-server';
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
  webRoot = await buildWebUi();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  if (webRoot) fs.rmSync(webRoot, { recursive: true, force: true });
});

beforeEach(async () => {
  ui = await startUiServer(webRoot);
  key = ui.key();
  context = await browser.newContext(contextOptions({ viewport: { width: 1280, height: 860 } }));
  page = await context.newPage();
  app = new AppPage(page, ui.url);
  return async () => {
    await context.close();
    await ui.close();
  };
});

const runsTable = () => page.getByRole('table', { name: tr('Workflow runs') });
const waiting = () => tk('workflows:statuses.waiting');
/** A decision as the run detail says it: "approved by user:…". */
const decided = (status: 'approved' | 'rejected') =>
  literally(`${tk(`workflows:approvals.${status}`)} ${tk('workflows:detail.decidedBy', { who: 'user:' })}`);

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
    await app.toast(pattern('Run {{run}} started', { run: '.*' })).waitFor();
    const row = runsTable().locator('tbody tr[data-run-id]').first();
    await row.getByText(waiting()).waitFor({ timeout: 20_000 });
    await row.getByText(tr('Needs approval')).waitFor();
    expect(await row.getAttribute('class')).toContain('attention');
    await page.getByRole('tab', { name: new RegExp(`${tk('workflows:filters.waiting')}\\s*1`) }).waitFor();

    const detail = page.getByRole('region', { name: tr('Run detail') });
    await detail.getByText('Supplier payment approval').waitFor();
    await detail.getByText(containing('Waiting for your approval:')).waitFor();
    await detail.getByLabel(tr('Comment (optional)')).fill('Invoice checked');
    await detail.getByRole('button', { name: tr('Approve') }).click();
    await app.toast(pattern('Approved: {{title}}', { title: 'Pay Kestrel.*' })).waitFor();
    await row.getByText(tr('Completed')).waitFor({ timeout: 20_000 });
    await detail.getByText('tell', { exact: true }).waitFor();
    await detail.getByText(decided('approved')).waitFor();

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
});
