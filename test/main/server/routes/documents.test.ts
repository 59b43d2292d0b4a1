/**
 * Documents over the real app and a real data dir: the three upload forms, type and size checks by content,
 * content-addressed storage (stored once, removed with the last reference, by documents and inbox items alike),
 * downloads and expiring presigned links, background extraction into the record, list search and filters, team
 * isolation; extraction claims with two connections; garbage collection of files nothing references.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { machineNow } from '../../../../src-main/clock';
import { blobPath } from '../../../../src-main/infra/blob-store';
import { backgroundOf } from '../../../../src-main/runtime/background';
import { openDatabase } from '../../../../src-main/store/db';
import { claimExtraction } from '../../../../src-main/store/files/stored-files';
import { Document, DocumentDetail } from '../../../../src-shared/contract/documents';
import { RECEIPTS, receiptPdf } from '../../../fixtures/receipts';
import { makeTestApi, type TestApi } from '../../../helpers/api';
import { documentsSettled } from '../../../helpers/documents';

let pdf: Buffer;
let other: Buffer;
beforeAll(async () => {
  pdf = await receiptPdf(RECEIPTS.find((r) => r.key === 'db-ticket')!);
  other = await receiptPdf(RECEIPTS.find((r) => r.key === 'uber-paris')!);
});

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

async function setup(options: Parameters<typeof makeTestApi>[0] = {}): Promise<{ api: TestApi; token: string }> {
  const api = await makeTestApi({ rateLimitPerMinute: 1_000_000, ...options });
  return { api, token: api.key('Acme') };
}

const json = (api: TestApi, token: string, bytes: Buffer, extra: Record<string, unknown> = {}) =>
  api.call('POST', '/v1/documents', { token, body: { fileName: 'ticket.pdf', content: bytes.toString('base64'), ...extra } });

function multipart(bytes: Buffer, fileName: string, fields: Record<string, string> = {}): { body: Buffer; type: string } {
  const boundary = '----finops-test-boundary';
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

const storedCount = (api: TestApi) => api.db.prepare('SELECT count(*) FROM stored_files').pluck().get() as number;

describe('documents', () => {
  it('takes JSON, multipart and raw uploads; identical content is stored once and goes with its last reference', async () => {
    const { api, token } = await setup({ documents: { runner: false } });
    const a = await json(api, token, pdf, { title: 'DB ticket', folder: 'travel/2025' });
    expect(a.statusCode, a.body).toBe(201);
    const doc = Document.parse(a.json());
    expect(doc).toMatchObject({
      title: 'DB ticket',
      fileName: 'ticket.pdf',
      pathTokens: ['travel', '2025', 'ticket.pdf'],
      metadata: { size: pdf.length, mimetype: 'application/pdf' },
      processingStatus: 'pending',
    });
    const form = multipart(pdf, 'Fahrkarte.pdf', { title: 'From a form' });
    const b = await api.app.inject({
      method: 'POST',
      url: '/v1/documents',
      headers: { authorization: `Bearer ${token}`, 'content-type': form.type },
      payload: form.body,
    });
    expect(b.statusCode, b.body).toBe(201);
    expect(b.json()).toMatchObject({ fileName: 'Fahrkarte.pdf', title: 'From a form' });
    const c = await api.app.inject({
      method: 'POST',
      url: '/v1/inbox',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/pdf',
        'x-filename': encodeURIComponent('Bahn März.pdf'),
      },
      payload: pdf,
    });
    expect(c.statusCode, c.body).toBe(201);
    expect(c.json().fileName).toBe('Bahn März.pdf');

    const sha = doc.metadata.sha256;
    const blob = blobPath(api.dataDir, sha);
    expect(fs.readFileSync(blob).equals(pdf)).toBe(true);
    expect(storedCount(api)).toBe(1);
    expect(fs.readdirSync(path.dirname(blob))).toEqual([sha]);

    for (const [url, id] of [
      ['/v1/documents', doc.id],
      ['/v1/documents', b.json().id],
    ]) {
      expect((await api.call('DELETE', `${url}/${id}`, { token })).statusCode).toBe(200);
      expect(fs.existsSync(blob), 'still held by the inbox item').toBe(true);
    }
    expect((await api.call('DELETE', `/v1/inbox/${c.json().id}`, { token })).statusCode).toBe(200);
    expect(fs.existsSync(blob)).toBe(false);
    expect(storedCount(api)).toBe(0);
  });

  it('decides the type from the bytes: a text file named .pdf, empty and oversized files are refused; HEIC is taken', async () => {
    const { api, token } = await setup({ documents: { runner: false } });
    const text = await json(api, token, Buffer.from('Total 12.00 EUR — definitely a PDF'), { fileName: 'fake.pdf' });
    expect(text.statusCode).toBe(415);
    expect(text.json().message).toContain('upload a PDF, PNG, JPEG, HEIC or an e-invoice');
    const heic = fs.readFileSync(path.resolve(__dirname, '../../../fixtures/receipts-heic/cafe-vienna.heic'));
    const h = await json(api, token, heic, { fileName: 'IMG_0001.jpg' });
    expect(h.statusCode, h.body).toBe(201);
    expect(h.json().metadata.mimetype).toBe('image/heic');
    const png = await json(api, token, PNG, { fileName: 'receipt.pdf' });
    expect(png.statusCode).toBe(201);
    expect(png.json().metadata.mimetype).toBe('image/png'); // the bytes decide, not the name
    expect((await json(api, token, Buffer.alloc(0))).statusCode).toBe(422);
    const huge = Buffer.concat([pdf, Buffer.alloc(21 * 1024 * 1024)]);
    const raw = await api.app.inject({
      method: 'POST',
      url: '/v1/documents',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/pdf' },
      payload: huge,
    });
    expect(raw.statusCode).toBe(413);
    expect(raw.json().error).toBe('Payload Too Large');
    expect((await api.call('POST', '/v1/documents', { token, body: { content: 'not base64!' } })).statusCode).toBe(422);
    const wrongType = await api.app.inject({
      method: 'POST',
      url: '/v1/documents',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
      payload: 'a,b',
    });
    expect(wrongType.statusCode).toBe(415);
  });

  it('extracts in the background; lists by search, folder and status; downloads; another team sees nothing', async () => {
    const { api, token } = await setup();
    const a = Document.parse((await json(api, token, pdf, { folder: 'travel' })).json());
    const b = Document.parse((await json(api, token, other, { fileName: 'uber.pdf', folder: 'rides' })).json());
    await documentsSettled(api.db);
    const detail = DocumentDetail.parse((await api.call('GET', `/v1/documents/${a.id}`, { token })).json());
    expect(detail).toMatchObject({
      processingStatus: 'completed',
      date: '2025-04-02',
      extracted: { merchant: 'Deutsche Bahn', amount: 89.9, currency: 'EUR', vatAmount: 14.35, vatRate: 19, method: 'pdf-text' },
    });
    expect(detail.summary).toBe('Deutsche Bahn · 2025-04-02 · EUR 89.90 (VAT 14.35)');
    expect(detail.content).toContain('ICE Berlin Hbf');

    const list = async (q: string) =>
      ((await api.call('GET', `/v1/documents?${q}`, { token })).json().data as Document[]).map((d) => d.id);
    expect(await list('q=hambu')).toEqual([a.id]);
    expect(await list('folder=rides')).toEqual([b.id]);
    expect((await list('processingStatus=completed')).sort()).toEqual([a.id, b.id].sort());
    expect(await list('processingStatus=failed')).toEqual([]);
    expect(await list('sort=title&sort=asc&pageSize=1')).toHaveLength(1);

    const download = await api.call('GET', `/v1/documents/${a.id}/download`, { token });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toContain('ticket.pdf');
    expect(download.rawPayload.equals(pdf)).toBe(true);

    const stranger = api.key('Other');
    for (const [method, url] of [
      ['GET', `/v1/documents/${a.id}`],
      ['GET', `/v1/documents/${a.id}/download`],
      ['POST', `/v1/documents/${a.id}/presigned-url`],
      ['PATCH', `/v1/documents/${a.id}`],
      ['DELETE', `/v1/documents/${a.id}`],
    ] as const) {
      const res = await api.call(method, url, { token: stranger, body: method === 'PATCH' ? { title: 'x' } : undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await api.call('GET', '/v1/documents', { token: stranger })).json().data).toEqual([]);
    const patched = await api.call('PATCH', `/v1/documents/${a.id}`, { token, body: { title: 'Hamburg trip', date: null } });
    expect(patched.json()).toMatchObject({ title: 'Hamburg trip', date: null });
  });

  it('a presigned URL downloads without a credential until it expires or its record goes', async () => {
    const { api, token } = await setup({ documents: { runner: false } });
    const doc = Document.parse((await json(api, token, pdf)).json());
    const presign = await api.call('POST', `/v1/documents/${doc.id}/presigned-url`, { token, body: { expiresIn: 60 } });
    expect(presign.statusCode, presign.body).toBe(200);
    const { url, expiresAt } = presign.json();
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(55_000);
    const base = await api.listen();
    const link = url.replace(/^https?:\/\/[^/]+/, base);
    const got = await fetch(link);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(pdf)).toBe(true);
    expect((await fetch(`${base}/v1/files/finops_dl_forged`)).status).toBe(404);
    // Expired: the same link stops working.
    api.db.prepare('UPDATE download_links SET expires_at = ?').run(new Date(Date.now() - 1000).toISOString());
    expect((await fetch(link)).status).toBe(404);
    const fresh = (await api.call('POST', `/v1/documents/${doc.id}/presigned-url`, { token }))
      .json()
      .url.replace(/^https?:\/\/[^/]+/, base);
    expect((await fetch(fresh)).status).toBe(200);
    await api.call('DELETE', `/v1/documents/${doc.id}`, { token });
    expect((await fetch(fresh)).status).toBe(404);
    expect((await api.call('POST', `/v1/documents/${doc.id}/presigned-url`, { token, body: { expiresIn: 5 } })).statusCode).toBe(
      422,
    );
  });

  it('two connections claiming extraction never get the same file', async () => {
    const { api, token } = await setup({ documents: { runner: false } });
    for (const r of RECEIPTS.slice(0, 6)) await json(api, token, await receiptPdf(r), { fileName: `${r.key}.pdf` });
    const second = openDatabase(api.dataDir);
    try {
      const claimed: string[] = [];
      for (let i = 0; i < 4; i++) {
        for (const [db, owner] of [
          [api.db, 'a'],
          [second, 'b'],
        ] as const) {
          const f = claimExtraction(db, owner, 60_000);
          if (f) claimed.push(f.sha256);
        }
      }
      expect(claimed).toHaveLength(6);
      expect(new Set(claimed).size).toBe(6);
      // A claim whose holder died (lease expired) is taken over.
      const later = new Date(Date.now() + 61_000);
      expect(claimExtraction(second, 'c', 60_000, later)).toBeDefined();
    } finally {
      second.close();
    }
  });

  it('garbage collection removes files nothing references and files a crash left behind', async () => {
    const { api, token } = await setup({ documents: { runner: false } });
    const doc = Document.parse((await json(api, token, pdf)).json());
    // A team deleted with everything it had (cascades) leaves its files unreferenced.
    api.db.prepare('DELETE FROM teams WHERE id = ?').run(api.team('Acme').id);
    const stray = path.join(api.dataDir, 'files', 'ab', 'ab'.repeat(32));
    fs.mkdirSync(path.dirname(stray), { recursive: true });
    fs.writeFileSync(stray, 'left by a crash');
    const twoHoursAgo = new Date(machineNow() - 2 * 3_600_000); // file times are on the machine's clock
    fs.utimesSync(stray, twoHoursAgo, twoHoursAgo);
    const removed = backgroundOf(api.db)!.documents!.collectGarbage();
    expect(removed).toBe(2);
    expect(fs.existsSync(blobPath(api.dataDir, doc.metadata.sha256))).toBe(false);
    expect(fs.existsSync(stray)).toBe(false);
    expect(storedCount(api)).toBe(0);
  });
});
