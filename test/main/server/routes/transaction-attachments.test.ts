/**
 * A receipt dropped onto a transaction, over the real app and data dir: the upload becomes an inbox item matched to
 * that transaction in the same write (attached, fulfilled, the transaction leaves "needs receipt"), its fields are
 * extracted afterwards without it being matched elsewhere, the same file twice is attached once, and the hosted
 * download link to an attachment serves the file until the attachment is gone.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createTransactions } from '../../../../src-main/store/transactions/create';
import { write } from '../../../../src-main/store/write';
import { InboxItem } from '../../../../src-shared/contract/inbox';
import { RECEIPTS, receiptPdf } from '../../../fixtures/receipts';
import { makeTestApi, type TestApi } from '../../../helpers/api';
import { documentsSettled } from '../../../helpers/documents';

let cafe: Buffer;
beforeAll(async () => {
  cafe = await receiptPdf(RECEIPTS.find((r) => r.key === 'cafe-vienna')!);
});

async function setup(): Promise<{ api: TestApi; token: string; tx: string; twin: string }> {
  const api = await makeTestApi({ rateLimitPerMinute: 1_000_000 });
  const token = api.key('Acme');
  const teamId = api.team('Acme').id;
  const account = write(api.db, teamId, (w) =>
    w.insert('bank_account', { name: 'Giro', type: 'depository', currency: 'EUR', manual: 1 }),
  );
  // Two lines the receipt would fit equally: matching by itself could pick either, an upload onto one must not.
  const [tx, twin] = createTransactions(api.db, teamId, [
    { bankAccountId: account, name: 'CAFE CENTRAL WIEN', amountMinor: -2340, currency: 'EUR', date: '2025-03-14', manual: true },
    { bankAccountId: account, name: 'CAFE CENTRAL WIEN', amountMinor: -2340, currency: 'EUR', date: '2025-03-14', manual: true },
  ]);
  const reviewed = await api.call('PATCH', `/v1/transactions/${tx}`, { token, body: { reviewed: true } });
  expect(reviewed.json().reviewState).toBe('needs_receipt');
  return { api, token, tx: tx!, twin: twin! };
}

const attach = (api: TestApi, token: string, tx: string, bytes: Buffer = cafe) =>
  api.call('POST', `/v1/transactions/${tx}/attachments`, {
    token,
    body: { fileName: 'cafe.pdf', content: bytes.toString('base64') },
  });

describe('attaching a receipt to a transaction', () => {
  it('keeps the upload as an inbox item matched to the transaction, which leaves "needs receipt"', async () => {
    const { api, token, tx, twin } = await setup();
    const res = await attach(api, token, tx);
    expect(res.statusCode, res.body).toBe(201);
    const item = InboxItem.parse(res.json());
    expect(item).toMatchObject({ status: 'done', fileName: 'cafe.pdf', transaction: { id: tx }, suggestions: [] });
    const after = (await api.call('GET', `/v1/transactions/${tx}`, { token })).json();
    expect(after).toMatchObject({ reviewState: 'ready', isFulfilled: true });
    expect(after.attachments).toEqual([
      expect.objectContaining({ id: item.attachmentId, filename: 'cafe.pdf', type: 'application/pdf', size: cafe.length }),
    ]);

    // Extraction fills the fields; the match stands (the twin is never proposed).
    await documentsSettled(api.db);
    const settled = InboxItem.parse((await api.call('GET', `/v1/inbox/${item.id}`, { token })).json());
    expect(settled).toMatchObject({ status: 'done', displayName: 'Café Central', amount: 23.4, transaction: { id: tx } });
    expect((await api.call('GET', `/v1/transactions/${twin}`, { token })).json().attachments).toEqual([]);

    // The same file again: the item that holds it, not a second attachment.
    const again = await attach(api, token, tx);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().id).toBe(item.id);
    expect(api.db.prepare('SELECT count(*) FROM transaction_attachments').pluck().get()).toBe(1);
    expect(api.db.prepare('SELECT count(*) FROM inbox_items').pluck().get()).toBe(1);
  });

  it('answers 404 for a transaction not of the team and 415 for a file that is no receipt, storing nothing', async () => {
    const { api, token, tx } = await setup();
    const other = api.key('Other');
    expect((await attach(api, other, tx)).statusCode).toBe(404);
    expect((await attach(api, token, 'no-such-transaction')).statusCode).toBe(404);
    const text = await attach(api, token, tx, Buffer.from('just some text, not a receipt'));
    expect(text.statusCode).toBe(415);
    expect(api.db.prepare('SELECT count(*) FROM inbox_items').pluck().get()).toBe(0);
    expect(api.db.prepare('SELECT count(*) FROM stored_files').pluck().get()).toBe(0);
  });

  it('serves a download link to the attachment until the attachment is removed (unmatch)', async () => {
    const { api, token, tx } = await setup();
    const item = InboxItem.parse((await attach(api, token, tx)).json());
    const path = `/v1/transactions/${tx}/attachments/${item.attachmentId}/presigned-url`;
    const link = await api.call('POST', path, { token, body: { expiresIn: 60 } });
    expect(link.statusCode, link.body).toBe(200);
    const url = new URL(link.json().url);
    const file = await api.call('GET', url.pathname);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.rawPayload.equals(cafe)).toBe(true);

    expect((await api.call('POST', path, { token: api.key('Other'), body: {} })).statusCode).toBe(404);
    const wrongTx = `/v1/transactions/${item.id}/attachments/${item.attachmentId}/presigned-url`;
    expect((await api.call('POST', wrongTx, { token, body: {} })).statusCode).toBe(404);

    expect((await api.call('POST', `/v1/inbox/${item.id}/unmatch`, { token })).statusCode).toBe(200);
    expect((await api.call('GET', url.pathname)).statusCode).toBe(404);
    expect((await api.call('POST', path, { token, body: {} })).statusCode).toBe(404);
  });
});
