import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { checkPdfInflation, MAX_STREAM_BYTES, PdfTooLarge } from '../../../src-main/documents/pdf-inflation';
import { DocumentRunner } from '../../../src-main/documents/runner';
import { parsers } from '../../../src-main/sandbox/pool';
import { ABANDONED_EXTRACTION, claimExtraction, MAX_EXTRACTION_ATTEMPTS } from '../../../src-main/store/files/stored-files';
import { RECEIPTS, receiptPdf } from '../../fixtures/receipts';
import { makeTestApi } from '../../helpers/api';
import { documentsSettled } from '../../helpers/documents';
import { pdfWithEmbeddedFile } from '../../helpers/pdf-bomb';

/**
 * Documents read in the parser sandbox (docs/decisions/0170): bombs refused before a reader inflates or decodes
 * them, the refusal on the document, and a file that ends its reader's process failed instead of claimed for ever.
 */
const MB = 1024 * 1024;

async function upload(api: Awaited<ReturnType<typeof makeTestApi>>, token: string, bytes: Buffer, fileName: string) {
  const res = await api.call('POST', '/v1/documents', { token, body: { fileName, content: bytes.toString('base64') } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

/** A PNG whose header declares width × height and whose data is a few bytes: what a decoder would allocate for. */
function pngDeclaring(width: number, height: number): Buffer {
  const png = createCanvas(1, 1).toBuffer('image/png');
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  return png;
}

describe('PDF bombs', () => {
  it('a 100 KB PDF whose embedded file inflates to 100 MB fails its extraction once, saying why; the server grows < 100 MB', async () => {
    const api = await makeTestApi({ rateLimitPerMinute: 1_000_000 });
    const token = api.key('Acme');
    const bomb = pdfWithEmbeddedFile({ inflatedBytes: 100 * MB });
    expect(bomb.length).toBeLessThan(110 * 1024);
    // The server's reader is up, as it is once it has read a file: what grows after is the bomb's.
    await upload(api, token, await receiptPdf(RECEIPTS[0]!), 'receipt.pdf');
    await documentsSettled(api.db);
    const before = process.memoryUsage().rss;
    const id = await upload(api, token, bomb, 'factur-x-bomb.pdf');
    await documentsSettled(api.db);
    const growth = process.memoryUsage().rss - before;
    const doc = (await api.call('GET', `/v1/documents/${id}`, { token })).json();
    expect(doc).toMatchObject({
      processingStatus: 'failed',
      summary: 'Not read: the PDF holds a compressed stream that inflates past 64 MiB',
    });
    expect(
      api.db.prepare("SELECT extraction_attempts FROM stored_files WHERE extraction_status = 'failed'").pluck().all(),
    ).toEqual([1]);
    expect(growth).toBeLessThan(100 * MB);
  }, 120_000);

  it('counts chained Flate filters and streams of an indirect /Length; a PDF of many "stream" words is scanned in one pass', async () => {
    await expect(checkPdfInflation(pdfWithEmbeddedFile({ inflatedBytes: 80 * MB, lengthKnown: false }))).rejects.toThrow(
      PdfTooLarge,
    );
    const inner = pdfWithEmbeddedFile({ inflatedBytes: 0, content: Buffer.alloc(70 * MB) });
    // The same bomb deflated twice (a filter chain) is about 1 KB.
    const twice = Buffer.from(
      inner.toString('latin1').replace('/Filter /FlateDecode', '/Filter [/FlateDecode /FlateDecode]'),
      'latin1',
    );
    const data = /stream\n([\s\S]*?)\nendstream/g;
    const streams = [...twice.toString('latin1').matchAll(data)];
    const last = streams[streams.length - 1]!;
    const zlib = await import('node:zlib');
    const again = zlib.deflateSync(Buffer.from(last[1]!, 'latin1'));
    const chained = Buffer.concat([
      Buffer.from(twice.toString('latin1').slice(0, last.index! + 'stream\n'.length), 'latin1'),
      again,
      Buffer.from(twice.toString('latin1').slice(last.index! + last[0].length - '\nendstream'.length), 'latin1'),
    ]);
    expect(chained.length).toBeLessThan(20 * 1024);
    await expect(checkPdfInflation(chained)).rejects.toThrow(`inflates past ${MAX_STREAM_BYTES / MB} MiB`);
    const started = performance.now();
    await checkPdfInflation(Buffer.from(`%PDF-1.7\n${'<< /Filter /FlateDecode >>\nstream\n'.repeat(100_000)}`));
    expect(performance.now() - started).toBeLessThan(5_000);
    // A receipt passes.
    await checkPdfInflation(await receiptPdf(RECEIPTS[0]!));
  }, 60_000);
});

describe('image bombs', () => {
  it('refuses an image declaring 50,000 × 50,000 pixels unread, and scales a 24-megapixel photo down for OCR', async () => {
    const refused = await parsers()
      .run('document', { bytes: pngDeclaring(50_000, 50_000), mimetype: 'image/png' })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({
      name: 'ParserFailed',
      errorName: 'ImageTooLarge',
      message: 'the image declares 50000 × 50000 pixels (2500 megapixels); at most 60 megapixels are read',
    });
    const photo = await createCanvas(6000, 4000).encode('jpeg');
    const read = await parsers().run('document', { bytes: photo, mimetype: 'image/jpeg' });
    expect(read.kind).toBe('ocr');
    const png = Buffer.from((read as { images: Uint8Array[] }).images[0]!);
    const [w, h] = [png.readUInt32BE(16), png.readUInt32BE(20)];
    expect(w * h).toBeLessThanOrEqual(16_000_000);
    expect(w / h).toBeCloseTo(1.5, 2);
    // A photo of a usual size goes to OCR as it is.
    const usual = await createCanvas(1200, 1600).encode('jpeg');
    expect(
      Buffer.from(
        ((await parsers().run('document', { bytes: usual, mimetype: 'image/jpeg' })) as { images: Uint8Array[] }).images[0]!,
      ),
    ).toEqual(usual);
  }, 60_000);
});

describe('a file that ends its reader’s process', () => {
  it('is failed after its attempts instead of claimed again: no crash loop', async () => {
    const api = await makeTestApi({ documents: { runner: false } });
    const token = api.key('Acme');
    const id = await upload(api, token, await receiptPdf(RECEIPTS[0]!), 'r.pdf');
    // Each claim's holder dies (its lease lapses without an answer).
    let at = Date.now() - 60_000;
    for (let i = 0; i < MAX_EXTRACTION_ATTEMPTS; i++) {
      expect(claimExtraction(api.db, `dead-${i}`, 1_000, new Date(at))).toBeDefined();
      at += 2_000;
    }
    expect(claimExtraction(api.db, 'next', 1_000, new Date(at))).toBeUndefined();
    const runner = new DocumentRunner(api.db, api.dataDir);
    expect(await runner.extractOne()).toBe(false);
    const doc = (await api.call('GET', `/v1/documents/${id}`, { token })).json();
    expect(doc).toMatchObject({ processingStatus: 'failed', summary: `Not read: ${ABANDONED_EXTRACTION}` });
    await runner.stop();
  }, 60_000);
});
