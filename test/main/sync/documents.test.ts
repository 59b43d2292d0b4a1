/**
 * Documents sync with a Finops Desk remote file and all, and stay local against the hosted kind
 * (docs/decisions/0151-document-sync.md): A ↔ R ↔ B over real HTTP, each a real data dir.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { listConflicts } from '../../../src-main/store/sync/conflicts';
import { readProjection } from '../../../src-main/store/sync/projections';
import {
  chooser,
  expectConflictsOfTwoValues,
  type Remote,
  type Replica,
  remoteReplica,
  replica,
  settleThenQuiet,
  syncOnce,
  triangle,
} from './helpers';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
/** The same pixel, another content (a PNG may carry bytes after its end). */
const OTHER_PNG = Buffer.concat([PNG, Buffer.from('second receipt')]);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

type Side = Replica | Remote;

/** A manual transaction on a fresh cash account of the side (a receipt's holder). */
async function manualTransaction(s: Side, name: string, amount: number): Promise<{ id: string }> {
  const account = (await s.call('POST', '/v1/bank-accounts', { name: 'Cash', currency: 'EUR', type: 'depository' })).body;
  return (
    await s.call('POST', '/v1/transactions', { bankAccountId: account.id, name, amount, currency: 'EUR', date: '2026-03-04' })
  ).body;
}

/** Documents and receipts as each side shows them, each file downloaded and hashed. */
async function fileSnapshot(s: Side): Promise<{ documents: string[]; receipts: string[] }> {
  const download = async (path: string) => sha((await s.api.call('GET', path, { token: s.token })).rawPayload);
  const documents: string[] = [];
  for (const d of (await s.call('GET', '/v1/documents?pageSize=100')).body.data)
    documents.push([d.id, d.title, d.summary, d.metadata.sha256, await download(`/v1/documents/${d.id}/download`)].join('|'));
  const receipts: string[] = [];
  for (const t of (await s.call('GET', '/v1/transactions?pageSize=100')).body.data) {
    const full = (await s.call('GET', `/v1/transactions/${t.id}`)).body;
    for (const x of full.attachments ?? [])
      receipts.push([t.id, x.id, x.filename, x.size, await download(`/v1/transaction-attachments/${x.id}/download`)].join('|'));
  }
  return { documents: documents.sort(), receipts: receipts.sort() };
}

describe('document sync', () => {
  it('a document made on one replica reaches the other with its file; edits and deletes follow', async () => {
    const { r, a, b } = await triangle();
    const up = await a.call('POST', '/v1/documents', {
      fileName: 'receipt.png',
      title: 'Lunch receipt',
      folder: 'receipts/2026',
      content: PNG.toString('base64'),
    });
    expect(up.status).toBe(201);
    await a.call('PATCH', `/v1/documents/${up.body.id}`, { date: '2026-03-04', summary: 'team lunch' });

    const pushed = await syncOnce(a, r);
    expect(pushed.pushed).toBeGreaterThanOrEqual(1);
    await syncOnce(b, r);

    // Replicas of one remote share the document's id (a chosen id on the upload).
    const onB = await b.call('GET', `/v1/documents/${up.body.id}`);
    expect(onB.status).toBe(200);
    expect(onB.body).toMatchObject({
      title: 'Lunch receipt',
      fileName: 'receipt.png',
      pathTokens: ['receipts', '2026', 'receipt.png'],
      date: '2026-03-04',
      summary: 'team lunch',
      metadata: { size: PNG.length, mimetype: 'image/png', sha256: sha(PNG) },
    });
    const file = await b.api.call('GET', `/v1/documents/${up.body.id}/download`, { token: b.token });
    expect(file.statusCode).toBe(200);
    expect(sha(file.rawPayload)).toBe(sha(PNG));
    for (const side of [r, b])
      expect(readProjection(side.api.db, side.teamId, 'document', up.body.id)).toEqual(
        readProjection(a.api.db, a.teamId, 'document', up.body.id),
      );

    // An edit on B reaches A; a quiet round moves nothing.
    expect((await b.call('PATCH', `/v1/documents/${up.body.id}`, { title: 'Team lunch, March' })).status).toBe(200);
    await syncOnce(b, r);
    await syncOnce(a, r);
    expect((await a.call('GET', `/v1/documents/${up.body.id}`)).body.title).toBe('Team lunch, March');
    const quiet = await syncOnce(a, r);
    expect({ pulled: quiet.pulled, pushed: quiet.pushed, conflicts: quiet.conflicts }).toEqual({
      pulled: 0,
      pushed: 0,
      conflicts: 0,
    });

    // Both edit the title: the remote's stands (its rule) and the conflict holds both values.
    await a.call('PATCH', `/v1/documents/${up.body.id}`, { title: 'from A' });
    await b.call('PATCH', `/v1/documents/${up.body.id}`, { title: 'from B' });
    await syncOnce(b, r);
    await syncOnce(a, r);
    expect((await a.call('GET', `/v1/documents/${up.body.id}`)).body.title).toBe('from B');
    const c = listConflicts(a.api.db, a.teamId).find((x) => x.entity === 'document');
    expect(c).toMatchObject({ group: 'title', local: { title: 'from A' }, remote: { title: 'from B' }, winner: 'remote' });

    // A delete on the remote removes it everywhere; the file is no longer served.
    expect((await r.call('DELETE', `/v1/documents/${up.body.id}`)).status).toBe(200);
    await syncOnce(a, r);
    await syncOnce(b, r);
    for (const side of [a, b]) expect((await side.call('GET', `/v1/documents/${up.body.id}`)).status).toBe(404);
  }, 60_000);

  it('a receipt attached on one replica reaches the other after its transaction, file and all; a detach follows', async () => {
    const { r, a, b } = await triangle();
    const tx = await manualTransaction(a, 'Lunch', -42.5);
    const att = await a.call('POST', '/v1/transaction-attachments', {
      transactionId: tx.id,
      fileName: 'lunch.png',
      content: PNG.toString('base64'),
    });
    expect(att.status).toBe(201);
    expect(att.body).toMatchObject({ transactionId: tx.id, sha256: sha(PNG), size: PNG.length, mimetype: 'image/png' });

    await syncOnce(a, r);
    await syncOnce(b, r);
    const onB = (await b.call('GET', `/v1/transactions/${tx.id}`)).body;
    expect(onB.attachments).toEqual([expect.objectContaining({ id: att.body.id, filename: 'lunch.png', size: PNG.length })]);
    expect(onB.isFulfilled).toBe(true);
    const file = await b.api.call('GET', `/v1/transaction-attachments/${att.body.id}/download`, { token: b.token });
    expect(sha(file.rawPayload)).toBe(sha(PNG));
    expect(readProjection(b.api.db, b.teamId, 'transaction_attachment', att.body.id)).toEqual(
      readProjection(a.api.db, a.teamId, 'transaction_attachment', att.body.id),
    );

    // Detached on B: gone on the remote and on A, whose transaction is no longer fulfilled.
    expect((await b.call('DELETE', `/v1/transaction-attachments/${att.body.id}`)).status).toBe(200);
    await syncOnce(b, r);
    await syncOnce(a, r);
    expect((await r.call('GET', `/v1/transaction-attachments/${att.body.id}`)).status).toBe(404);
    const onA = (await a.call('GET', `/v1/transactions/${tx.id}`)).body;
    expect(onA.attachments ?? []).toEqual([]);
    expect(onA.isFulfilled).toBe(false);
    const quiet = await syncOnce(a, r);
    expect({ pulled: quiet.pulled, pushed: quiet.pushed, conflicts: quiet.conflicts }).toEqual({
      pulled: 0,
      pushed: 0,
      conflicts: 0,
    });
  }, 60_000);

  it('convergence: random uploads, edits, deletes, attaches and detaches on A, B and R end equal, then quiet', async () => {
    const { random, pick } = chooser(11);
    const { r, a, b } = await triangle();
    const account = (await a.call('POST', '/v1/bank-accounts', { name: 'Main', currency: 'EUR' })).body;
    for (let i = 0; i < 4; i++)
      await a.call('POST', '/v1/transactions', {
        name: `Line ${i}`,
        amount: -10 - i,
        currency: 'EUR',
        date: '2026-03-10',
        bankAccountId: account.id,
      });
    await syncOnce(a, r);
    await syncOnce(b, r);
    // Two contents: the same receipt held by several records is stored once and fetched once.
    const files = [PNG, OTHER_PNG].map((f) => f.toString('base64'));
    const sides: Side[] = [a, b, r];
    let made = 0;
    for (let step = 0; step < 80; step++) {
      const s = pick(sides);
      const op = random();
      const docs: { id: string }[] = (await s.call('GET', '/v1/documents?pageSize=100')).body.data;
      const txs: { id: string }[] = (await s.call('GET', '/v1/transactions?pageSize=100')).body.data;
      const receipts = (
        await Promise.all(txs.map(async (t) => (await s.call('GET', `/v1/transactions/${t.id}`)).body.attachments ?? []))
      ).flat() as { id: string }[];
      if (op < 0.2) await s.call('POST', '/v1/documents', { fileName: `d${made++}.png`, content: pick(files) });
      else if (op < 0.35 && docs.length)
        await s.call(
          'PATCH',
          `/v1/documents/${pick(docs).id}`,
          random() < 0.5 ? { title: `t${made++}` } : { summary: `s${made++}` },
        );
      else if (op < 0.42 && docs.length) await s.call('DELETE', `/v1/documents/${pick(docs).id}`);
      else if (op < 0.57 && txs.length)
        await s.call('POST', '/v1/transaction-attachments', {
          transactionId: pick(txs).id,
          fileName: `r${made++}.png`,
          content: pick(files),
        });
      else if (op < 0.65 && receipts.length) await s.call('DELETE', `/v1/transaction-attachments/${pick(receipts).id}`);
      else if (s !== r) await syncOnce(s as Replica, r);
    }
    await settleThenQuiet(a, b, r, async () => {
      const onR = await fileSnapshot(r);
      expect(onR.documents.length + onR.receipts.length).toBeGreaterThan(0);
      expect(await fileSnapshot(a)).toEqual(onR);
      expect(await fileSnapshot(b)).toEqual(onR);
      expectConflictsOfTwoValues(a, b);
    });
  }, 180_000);

  it('a hosted-style remote takes no files: documents and receipts stay local and the round succeeds', async () => {
    const r = await remoteReplica('Acme', { specOnly: true });
    const a = await replica();
    const up = await a.call('POST', '/v1/documents', { fileName: 'receipt.png', content: PNG.toString('base64') });
    expect(up.status).toBe(201);
    const tx = await manualTransaction(a, 'Taxi', -20);
    const att = await a.call('POST', '/v1/transaction-attachments', { transactionId: tx.id, content: PNG.toString('base64') });
    expect(att.status).toBe(201);
    // The extension routes answer 404 on a spec-only server, as the hosted service has none.
    expect(
      (await r.call('POST', '/v1/transaction-attachments', { transactionId: 'x', content: PNG.toString('base64') })).status,
    ).toBe(404);

    const round = await syncOnce(a, r, 'hosted');
    expect(round.conflicts).toBe(0);
    expect((await r.call('GET', '/v1/documents')).body.data).toEqual([]);
    const there = (await r.call('GET', '/v1/transactions')).body.data;
    expect(there).toHaveLength(1);
    expect(there[0].attachments ?? []).toEqual([]);
    expect((await a.call('GET', `/v1/documents/${up.body.id}`)).status).toBe(200);
    expect((await a.call('GET', `/v1/transactions/${tx.id}`)).body.attachments).toHaveLength(1);
  }, 60_000);
});
