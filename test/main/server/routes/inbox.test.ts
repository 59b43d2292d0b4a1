/**
 * The inbox end to end over the real app and a real data dir: a receipt rendered to PDF is uploaded, its fields are
 * extracted in the background, and it is matched against real ledger transactions — automatically when the
 * evidence is strong and unambiguous, as a suggestion otherwise; confirm attaches the file (the transaction becomes
 * fulfilled), decline and unmatch undo; pending items older than 90 days become no_match.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { expireStaleInbox } from '../../../../src-main/store/inbox/matching';
import { createTransactions } from '../../../../src-main/store/transactions/create';
import { write } from '../../../../src-main/store/write';
import { InboxItem } from '../../../../src-shared/contract/inbox';
import { RECEIPTS, receiptPdf } from '../../../fixtures/receipts';
import { makeTestApi, type TestApi } from '../../../helpers/api';
import { documentsSettled } from '../../../helpers/documents';

let cafe: Buffer;
let pret: Buffer;
beforeAll(async () => {
  cafe = await receiptPdf(RECEIPTS.find((r) => r.key === 'cafe-vienna')!);
  pret = await receiptPdf(RECEIPTS.find((r) => r.key === 'pret-london')!);
});

async function setup(): Promise<{ api: TestApi; token: string; teamId: string; account: string }> {
  const api = await makeTestApi({ rateLimitPerMinute: 1_000_000 });
  const token = api.key('Acme');
  const teamId = api.team('Acme').id;
  const account = write(api.db, teamId, (w) =>
    w.insert('bank_account', { name: 'Giro', type: 'depository', currency: 'EUR', manual: 1 }),
  );
  return { api, token, teamId, account };
}

function transaction(
  api: TestApi,
  teamId: string,
  account: string,
  t: { name: string; amountMinor: number; date: string; currency?: string },
) {
  return createTransactions(api.db, teamId, [
    {
      bankAccountId: account,
      name: t.name,
      amountMinor: t.amountMinor,
      currency: t.currency ?? 'EUR',
      date: t.date,
      manual: true,
    },
  ])[0]!;
}

async function upload(api: TestApi, token: string, bytes: Buffer, fileName: string): Promise<InboxItem> {
  const res = await api.call('POST', '/v1/inbox', { token, body: { fileName, content: bytes.toString('base64') } });
  expect(res.statusCode, res.body).toBe(201);
  return InboxItem.parse(res.json());
}

async function item(api: TestApi, token: string, id: string): Promise<InboxItem> {
  return InboxItem.parse((await api.call('GET', `/v1/inbox/${id}`, { token })).json());
}

const fulfilled = (api: TestApi, id: string) =>
  api.db.prepare('SELECT is_fulfilled FROM transactions WHERE id = ?').pluck().get(id) as number;

describe('inbox reconciliation', () => {
  it('extracts a receipt and matches it automatically to the one transaction that fits: attached, fulfilled, done', async () => {
    const { api, token, teamId, account } = await setup();
    const tx = transaction(api, teamId, account, { name: 'CAFE CENTRAL WIEN', amountMinor: -2340, date: '2025-03-15' });
    transaction(api, teamId, account, { name: 'Cafe Central', amountMinor: -2340, date: '2025-01-02' }); // too far
    transaction(api, teamId, account, { name: 'Billa', amountMinor: -1999, date: '2025-03-14' });
    const uploaded = await upload(api, token, cafe, 'cafe.pdf');
    expect(uploaded.status).toMatch(/^(new|processing)$/);
    await documentsSettled(api.db);
    const done = await item(api, token, uploaded.id);
    expect(done).toMatchObject({
      status: 'done',
      displayName: 'Café Central',
      amount: 23.4,
      currency: 'EUR',
      date: '2025-03-14',
      taxAmount: 2.13,
      taxRate: 10,
      transaction: { id: tx, amount: -23.4 },
    });
    expect(fulfilled(api, tx)).toBe(1);
    const attachments = api.db
      .prepare('SELECT sha256, source_id FROM transaction_attachments WHERE transaction_id = ?')
      .all(tx) as { sha256: string; source_id: string }[];
    expect(attachments).toHaveLength(1);
    expect(attachments[0]!.source_id).toBe(uploaded.id);
    const match = api.db
      .prepare('SELECT match_type, status, confidence FROM inbox_suggestions WHERE inbox_id = ?')
      .get(uploaded.id);
    expect(match).toMatchObject({ match_type: 'auto', status: 'confirmed' });
  });

  it('suggests when the name does not agree; decline drops it, confirm attaches another; unmatch restores both', async () => {
    const { api, token, teamId, account } = await setup();
    const a = transaction(api, teamId, account, { name: 'SUMUP *VIENNA 1010', amountMinor: -2340, date: '2025-03-14' });
    const b = transaction(api, teamId, account, { name: 'Card payment 4411', amountMinor: -2340, date: '2025-03-16' });
    const uploaded = await upload(api, token, cafe, 'cafe.pdf');
    await documentsSettled(api.db);
    const suggested = await item(api, token, uploaded.id);
    expect(suggested.status).toBe('suggested_match');
    expect(suggested.suggestions.map((s) => s.transactionId)).toEqual([a, b]);
    expect(suggested.suggestions[0]!.confidence).toBeGreaterThanOrEqual(0.6);
    expect(suggested.suggestions[0]!.confidence).toBeLessThan(0.9);

    const declined = (await api.call('POST', `/v1/inbox/${uploaded.id}/decline`, { token, body: { transactionId: a } })).json();
    expect(declined.suggestions.map((s: { transactionId: string }) => s.transactionId)).toEqual([b]);
    expect(declined.status).toBe('suggested_match');

    const confirmed = await api.call('POST', `/v1/inbox/${uploaded.id}/confirm`, { token, body: { transactionId: b } });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ status: 'done', transaction: { id: b }, suggestions: [] });
    expect(fulfilled(api, b)).toBe(1);
    const again = await api.call('POST', `/v1/inbox/${uploaded.id}/confirm`, { token, body: { transactionId: a } });
    expect(again.statusCode).toBe(409);
    // While the receipt is matched, its transaction is not removed (the item would be done with nothing).
    const held = await api.call('DELETE', `/v1/transactions/${b}`, { token });
    expect(held.statusCode, held.body).toBe(409);
    expect(held.json().description).toContain(`POST /v1/inbox/${uploaded.id}/unmatch`);

    const undone = await api.call('POST', `/v1/inbox/${uploaded.id}/unmatch`, { token });
    expect(undone.statusCode, undone.body).toBe(200);
    // Neither a (declined) nor b (unmatched) is suggested again: the item waits.
    expect(undone.json()).toMatchObject({ status: 'pending', transaction: null, attachmentId: null, suggestions: [] });
    expect(fulfilled(api, b)).toBe(0);
    expect(api.db.prepare('SELECT count(*) FROM transaction_attachments').pluck().get()).toBe(0);
    // The file stays with the inbox item.
    expect((await api.call('GET', `/v1/inbox/${uploaded.id}/download`, { token })).rawPayload.equals(cafe)).toBe(true);
  });

  it('a transaction arriving later is matched to a waiting item; two equally good ones are only suggested', async () => {
    const { api, token, teamId } = await setup();
    const uploaded = await upload(api, token, pret, 'pret.pdf');
    await documentsSettled(api.db);
    expect((await item(api, token, uploaded.id)).status).toBe('pending');
    const gbp = write(api.db, teamId, (w) =>
      w.insert('bank_account', { name: 'Sterling', type: 'depository', currency: 'GBP', manual: 1 }),
    );
    const x = transaction(api, teamId, gbp, {
      name: 'PRET A MANGER KINGSWAY',
      amountMinor: -785,
      date: '2025-02-13',
      currency: 'GBP',
    });
    const y = transaction(api, teamId, gbp, {
      name: 'PRET A MANGER LONDON',
      amountMinor: -785,
      date: '2025-02-13',
      currency: 'GBP',
    });
    await documentsSettled(api.db);
    const waiting = await item(api, token, uploaded.id);
    expect(waiting.status).toBe('suggested_match');
    expect(waiting.suggestions.map((s) => s.transactionId).sort()).toEqual([x, y].sort());
  });

  it('pending items older than 90 days become no_match', async () => {
    const { api, token } = await setup();
    const uploaded = await upload(api, token, pret, 'pret.pdf');
    await documentsSettled(api.db);
    expect(expireStaleInbox(api.db, new Date(Date.now() + 89 * 86_400_000))).toBe(0);
    expect(expireStaleInbox(api.db, new Date(Date.now() + 91 * 86_400_000))).toBe(1);
    expect((await item(api, token, uploaded.id)).status).toBe('no_match');
  });

  it('PATCH corrects fields and matching runs again; statuses a person may set; another team’s item is 404', async () => {
    const { api, token, teamId, account } = await setup();
    const tx = transaction(api, teamId, account, { name: 'Pret A Manger', amountMinor: -850, date: '2025-02-12' });
    const uploaded = await upload(api, token, pret, 'pret.pdf');
    await documentsSettled(api.db);
    expect((await item(api, token, uploaded.id)).status).toBe('pending'); // GBP 7.85 vs EUR 8.50
    const fixed = await api.call('PATCH', `/v1/inbox/${uploaded.id}`, { token, body: { amount: 8.5, currency: 'EUR' } });
    expect(fixed.json()).toMatchObject({ status: 'done', transaction: { id: tx } });
    expect((await api.call('PATCH', `/v1/inbox/${uploaded.id}`, { token, body: { status: 'archived' } })).statusCode).toBe(409);
    expect((await api.call('PATCH', `/v1/inbox/${uploaded.id}`, { token, body: { status: 'done' } })).statusCode).toBe(422);
    const other = api.key('Other');
    expect((await api.call('GET', `/v1/inbox/${uploaded.id}`, { token: other })).statusCode).toBe(404);
    expect((await api.call('POST', `/v1/inbox/${uploaded.id}/unmatch`, { token: other })).statusCode).toBe(404);
    expect((await api.call('GET', '/v1/inbox', { token: other })).json().data).toEqual([]);
  });

  it('an e-invoice dropped in is read from its XML: the item carries the invoice (lines, VAT per rate, IBAN), other files none', async () => {
    const { api, token, teamId, account } = await setup();
    const tx = transaction(api, teamId, account, { name: 'Kontorhaus Weber', amountMinor: -43331, date: '2025-05-20' });
    const xml = fs.readFileSync(path.join(__dirname, '../../../fixtures/einvoice/de-rates-allowances-cii.xml'));
    const uploaded = await upload(api, token, xml, 'KW-25-01877.xml');
    const receipt = await upload(api, token, pret, 'pret.pdf');
    await documentsSettled(api.db);
    const read = await item(api, token, uploaded.id);
    expect(read).toMatchObject({
      displayName: 'Kontorhaus Weber GmbH & Co. KG',
      amount: 433.31,
      status: 'done',
      transaction: { id: tx },
      eInvoice: {
        number: 'KW-25-01877',
        iban: 'DE12500105170648489890',
        allowances: '10.00',
        charges: '5.90',
        vatBreakdown: [{ rate: 19 }, { rate: 7 }, { category: 'Z', rate: 0 }],
      },
    });
    expect(read.eInvoice?.lines).toHaveLength(3);
    expect((await item(api, token, receipt.id)).eInvoice).toBeNull();
  });
});
