/**
 * Receipts in the web build, for real: demo data in a real server, receipts rendered to PDF, Debian Chromium, signed
 * in. A receipt dropped on a transaction waiting for one ("Needs receipt") is attached and the row leaves the tab; one
 * dropped on the open panel likewise, and shows there; a receipt uploaded to the inbox is read, a transaction is
 * suggested for it, and confirming it attaches the file; a picture receipt is shown in place and matched by hand,
 * from the inbox and from the transaction's panel — each checked through the API.
 */
import type { Locator } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src-shared/api-client';
import { bankAccountRoutes } from '../../src-shared/contract/bank-accounts';
import { inboxRoutes } from '../../src-shared/contract/inbox';
import { transactionRoutes } from '../../src-shared/contract/transactions';
import { receiptHtml, receiptPdf } from '../fixtures/receipts';
import { literally, tk, tr, userDay } from './helpers/i18n';
import { tillReceipt } from './helpers/inbox-rules-data';
import { journeySuite } from './helpers/suite';

const journey = journeySuite({ viewport: { width: 1280, height: 860 } }, (ui) => ui.seedDemo());
let key: string;
beforeEach(() => {
  key = journey.ui.key();
  // 401: the session check before signing in.
  return () => expect(journey.app.errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
});
const page = () => journey.page;

const client = () => createApiClient({ baseUrl: journey.ui.url, token: () => key });

async function signInAt(path: string): Promise<void> {
  const { email, password } = await journey.ui.user();
  await journey.app.open(path);
  await journey.app.signIn(email, password);
}

/** Drops a file on an element, as a file dragged from the desktop is: dragenter, dragover, drop. */
async function dropFile(target: Locator, name: string, bytes: Buffer): Promise<void> {
  const dataTransfer = await page().evaluateHandle(
    ({ name, base64 }) => {
      const data = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([data], name, { type: 'application/pdf' }));
      return transfer;
    },
    { name, base64: bytes.toString('base64') },
  );
  for (const type of ['dragenter', 'dragover', 'drop']) await target.dispatchEvent(type, { dataTransfer });
}

/** Reviewed expenses with no receipt: the demo's lines are not reviewed yet, so a few are marked reviewed. */
async function someNeedReceipts(): Promise<void> {
  const c = client();
  const expenses = await c.call(transactionRoutes.list, { query: { type: 'expense', attachments: 'exclude', pageSize: 40 } });
  await c.call(transactionRoutes.bulkUpdate, { body: { ids: expenses.data.map((t) => t.id), reviewed: true } });
  const counts = await c.call(transactionRoutes.reviewCounts, { query: {} });
  expect(counts.data.needs_receipt).toBeGreaterThan(2);
}

const grid = () => page().getByRole('grid', { name: tr('Transactions') });
const rows = () => grid().locator('[data-transaction-id]');
const needsReceiptTab = () => page().getByRole('tab', { name: new RegExp(`^${tk('transactions:tabs.needs_receipt')}`) });
const tabCount = async () => Number((await needsReceiptTab().locator('.tab-count').innerText()).replace(/\D/g, ''));

describe('receipts in the web UI', () => {
  it('attaches a receipt dropped on a row of "Needs receipt", and one dropped on the open panel', async () => {
    await someNeedReceipts();
    await signInAt('/transactions?state=needs_receipt');
    await rows().first().waitFor();
    await expect.poll(tabCount).toBeGreaterThan(2);
    const before = await tabCount();
    const c = client();

    // 1: on a row of the list.
    const row = rows().first();
    const id = (await row.getAttribute('data-transaction-id')) as string;
    const tx = await c.call(transactionRoutes.get, { params: { id } });
    const pdf = await receiptPdf(tillReceipt('Papierhaus Mitte', tx.date.slice(0, 10), '12,40', '1,98'));
    await dropFile(row, 'papierhaus.pdf', pdf);
    await journey.app.toast('{{file}} attached to {{name}}', { file: 'papierhaus.pdf', name: tx.name }).waitFor();
    await expect.poll(async () => (await c.call(transactionRoutes.get, { params: { id } })).reviewState).toBe('ready');
    const attached = await c.call(transactionRoutes.get, { params: { id } });
    expect(attached.attachments).toEqual([expect.objectContaining({ filename: 'papierhaus.pdf', size: pdf.length })]);
    // It leaves the tab.
    await grid().locator(`[data-transaction-id="${id}"]`).waitFor({ state: 'detached' });
    await expect.poll(tabCount).toBe(before - 1);
    // It is in the inbox too, matched to that transaction.
    const inbox = await c.call(inboxRoutes.list, { query: { status: ['done'] } });
    expect(inbox.data.map((i) => i.transaction?.id)).toContain(id);

    // 2: on the open panel's drop zone.
    const next = rows().first();
    const nextId = (await next.getAttribute('data-transaction-id')) as string;
    const nextTx = await c.call(transactionRoutes.get, { params: { id: nextId } });
    await next.dblclick();
    const panel = page().getByRole('dialog', { name: nextTx.name });
    const receipts = panel.getByTestId('tx-receipts');
    await receipts.getByText(tk('inbox:attach.needsReceipt')).waitFor();
    await dropFile(
      receipts.locator('.dropzone'),
      'kiosk.pdf',
      await receiptPdf(tillReceipt('Kiosk am Markt', nextTx.date.slice(0, 10), '3,20', '0,51')),
    );
    await journey.app.toast('{{file}} attached to {{name}}', { file: 'kiosk.pdf', name: nextTx.name }).waitFor();
    // The panel shows it, and the file in place.
    const item = receipts.locator('[data-attachment-id]');
    await item.getByText('kiosk.pdf').waitFor();
    await panel.locator('.pill[data-review-state="ready"]').waitFor();
    await expect(receipts.getByText(tk('inbox:attach.needsReceipt')).count()).resolves.toBe(0);
    await item.getByRole('button', { name: tk('inbox:attach.show') }).click();
    await item.locator('.pdf-pages[data-state="done"] canvas').first().waitFor({ timeout: 30_000 });
    await page().keyboard.press('Escape');
    await grid().locator(`[data-transaction-id="${nextId}"]`).waitFor({ state: 'detached' });
    expect((await c.call(transactionRoutes.get, { params: { id: nextId } })).reviewState).toBe('ready');
  });

  it('reads a receipt uploaded to the inbox, suggests its transaction, and confirming attaches it', async () => {
    const c = client();
    // A card payment whose name says nothing of the shop: the receipt is suggested for it, not matched by itself.
    const account = await c.call(bankAccountRoutes.create, { body: { name: 'Card', currency: 'EUR' } });
    const day = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
    const tx = await c.call(transactionRoutes.create, {
      body: { bankAccountId: account.id, name: 'SUMUP *4411 CARD', amount: -87.35, currency: 'EUR', date: day },
    });
    await signInAt('/inbox');
    await page()
      .getByRole('heading', { name: tk('inbox:title'), level: 1 })
      .waitFor();

    await page()
      .getByLabel(tk('inbox:upload.input'))
      .setInputFiles({
        name: 'bergblick.pdf',
        mimeType: 'application/pdf',
        buffer: await receiptPdf(tillReceipt('Bergblick Kiosk', day, '87,35', '13,95')),
      });
    await journey.app.toast('{{file}} is in the inbox: it is being read and matched', { file: 'bergblick.pdf' }).waitFor();
    const table = page().getByRole('table', { name: tk('inbox:listLabel') });
    const row = table.locator('tbody tr[data-inbox-id]', { hasText: 'bergblick.pdf' });
    // Read and matched in the background; the list follows the change stream.
    await row.locator('[data-status="suggested_match"]').waitFor({ timeout: 30_000 });
    await row.getByText('Bergblick Kiosk').waitFor();
    await row.click();

    const match = page().getByTestId('inbox-match');
    const suggestion = match.locator(`[data-suggestion-id="${tx.id}"]`);
    await suggestion.waitFor();
    await suggestion.getByText(userDay(day)).waitFor();
    // The fields read from the file.
    await expect(page().getByLabel(tk('inbox:fields.merchant')).inputValue()).resolves.toBe('Bergblick Kiosk');
    await expect(page().getByLabel(tk('inbox:fields.amount')).inputValue()).resolves.toMatch(/^87[.,]35$/);
    await page()
      .getByTestId('inbox-vat')
      .getByText(/13[.,]95/)
      .waitFor();
    await page().locator('.file-preview .pdf-pages[data-state="done"] canvas').first().waitFor({ timeout: 30_000 });

    await suggestion.getByRole('button', { name: tr('Confirm {{name}}', { name: tx.name }) }).click();
    await journey.app.toast('Matched to {{name}}: the receipt is attached', { name: tx.name }).waitFor();
    await page().locator('.inbox-item[data-status="done"]').waitFor();
    await match.getByRole('button', { name: tk('inbox:match.unmatch') }).waitFor();
    const after = await c.call(transactionRoutes.get, { params: { id: tx.id } });
    expect(after.attachments).toEqual([expect.objectContaining({ filename: 'bergblick.pdf' })]);
    expect(after.isFulfilled).toBe(true);

    // Back in the list it is under "Matched", naming its transaction.
    await page()
      .getByRole('navigation', { name: tk('inbox:detail.breadcrumb') })
      .getByRole('link')
      .click();
    await page()
      .getByRole('tab', { name: tk('inbox:tabs.matched') })
      .click();
    await table.locator('tbody tr[data-inbox-id]', { hasText: 'bergblick.pdf' }).getByText(literally(tx.name)).waitFor();
  });

  it('shows a picture receipt in place, matches it by hand from either side, and undoes a match', async () => {
    const c = client();
    // A shop whose bank line's amount differs from the receipt (a tip added): no suggestion makes the match.
    const account = await c.call(bankAccountRoutes.create, { body: { name: 'Cash card', currency: 'EUR' } });
    const day = new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10);
    const tx = await c.call(transactionRoutes.create, {
      body: { bankAccountId: account.id, name: 'KARTENZAHLUNG 7781 FLUSSCAFE', amount: -46.5, currency: 'EUR', date: day },
    });
    const shot = await page().context().newPage();
    await shot.setContent(receiptHtml(tillReceipt('Flusscafé am Kai', day, '42,00', '6,71')));
    const png = await shot.locator('#r').screenshot({ type: 'png' });
    await shot.close();

    await signInAt('/inbox');
    await page()
      .getByLabel(tk('inbox:upload.input'))
      .setInputFiles({ name: 'flusscafe.png', mimeType: 'image/png', buffer: png });
    const table = page().getByRole('table', { name: tk('inbox:listLabel') });
    const row = table.locator('tbody tr[data-inbox-id]', { hasText: 'flusscafe.png' });
    await row.waitFor({ timeout: 30_000 });
    const itemId = (await row.getAttribute('data-inbox-id')) as string;
    await row.click();
    // The picture itself, drawn (the UI's policy lets it show the bytes it fetched: blob: URLs).
    const img = page().locator('.file-preview img');
    await img.waitFor();
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(100);

    // Read (OCR), then matched by hand: found by a word of its bank line.
    const pick = page().getByTestId('inbox-pick');
    await pick.waitFor({ timeout: 60_000 });
    await pick.getByLabel(tk('inbox:match.pickLabel')).fill('flusscafe');
    await pick
      .locator(`[data-pick-id="${tx.id}"]`)
      .getByRole('button', { name: tk('inbox:match.pickNamed', { name: tx.name }) })
      .click();
    await journey.app.toast('Matched to {{name}}: the receipt is attached', { name: tx.name }).waitFor();
    await expect
      .poll(async () => (await c.call(transactionRoutes.get, { params: { id: tx.id } })).attachments?.map((a) => a.filename))
      .toEqual(['flusscafe.png']);

    // Undone, then taken from the transaction's side.
    const match = page().getByTestId('inbox-match');
    await match.getByRole('button', { name: tk('inbox:match.unmatch') }).click();
    await journey.app.toast('No longer matched to {{name}}', { name: tx.name }).waitFor();
    await expect.poll(async () => (await c.call(transactionRoutes.get, { params: { id: tx.id } })).attachments ?? []).toEqual([]);
    await journey.app.open(`/transactions?q=${encodeURIComponent('FLUSSCAFE')}`);
    await rows().first().waitFor();
    await grid().locator(`[data-transaction-id="${tx.id}"]`).dblclick();
    const panel = page().getByRole('dialog', { name: tx.name });
    const receipts = panel.getByTestId('tx-receipts');
    await receipts.getByRole('button', { name: tk('inbox:attach.fromInbox') }).click();
    await receipts
      .getByTestId('tx-receipt-pick')
      .locator(`[data-inbox-id="${itemId}"]`)
      .getByRole('button', { name: tk('inbox:attach.takeNamed', { file: 'flusscafe.png' }) })
      .click();
    await journey.app.toast('{{file}} attached to {{name}}', { file: 'flusscafe.png', name: tx.name }).waitFor();
    await receipts.locator('[data-attachment-id]').getByText('flusscafe.png').waitFor();
    const item = await c.call(inboxRoutes.get, { params: { id: itemId } });
    expect([item.status, item.transaction?.id]).toEqual(['done', tx.id]);
  });

  it('keeps a receipt matched on arrival in sight: "Added just now" says where it went, and leads to it', async () => {
    const c = client();
    const account = await c.call(bankAccountRoutes.create, { body: { name: 'Office card', currency: 'EUR' } });
    const day = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const tx = await c.call(transactionRoutes.create, {
      body: {
        bankAccountId: account.id,
        name: 'Papeterie Lindenhof',
        counterpartyName: 'Papeterie Lindenhof',
        amount: -19.9,
        currency: 'EUR',
        date: day,
      },
    });
    await signInAt('/inbox');
    await page()
      .getByLabel(tk('inbox:upload.input'))
      .setInputFiles({
        name: 'lindenhof.pdf',
        mimeType: 'application/pdf',
        buffer: await receiptPdf(tillReceipt('Papeterie Lindenhof', day, '19,90', '3,18')),
      });
    // Matched by itself (name, amount and day agree): it leaves "Waiting", and is said here instead.
    await expect
      .poll(async () => (await c.call(inboxRoutes.list, { query: { q: 'lindenhof' } })).data[0]?.status, { timeout: 30_000 })
      .toBe('done');
    const strip = page().getByTestId('inbox-just-added');
    const row = strip.locator('[data-status="done"]', { hasText: 'Papeterie Lindenhof' });
    await row.getByText(tk('inbox:justAdded.matched', { name: tx.name })).waitFor();
    const table = page().getByRole('table', { name: tk('inbox:listLabel') });
    await expect(table.locator('tbody tr', { hasText: 'lindenhof.pdf' }).count()).resolves.toBe(0);
    await row.getByRole('link', { name: tk('inbox:justAdded.open') }).click();
    await page().getByTestId('inbox-match').getByText(tx.name).waitFor();
  });
});
