/**
 * Local extraction over the fixture set (test/fixtures/receipts.ts): ten realistic receipts and invoices, each as a
 * text PDF, a clean PNG, a "photo" JPEG and a scanned PDF, 40 files. Measures how often each field is found right
 * and holds the accuracy the decision record states; proves that OCR never reaches the network (the worker's guard
 * blocks it, and a whole extraction succeeds in a namespace without any network).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectType } from '../../../src-main/documents/detect';
import { extractFile } from '../../../src-main/documents/extract';
import { OCR_LANG_PATH, OCR_LANGUAGES, OcrEngine, ocrLangPath, ocrLanguages } from '../../../src-main/documents/ocr';
import { renderPdfPages } from '../../../src-main/documents/pdf';
import { fileLanguageHints } from '../../../src-main/store/files/stored-files';
import { LAYOUTS, RECEIPTS, type Receipt, type RenderedReceipt, renderReceipts, VARIANTS } from '../../fixtures/receipts';
import { makeTestApi } from '../../helpers/api';
import { documentsSettled } from '../../helpers/documents';
import { tmpDir } from '../../helpers/tmp';

const FIELDS = ['merchant', 'date', 'amount', 'currency', 'vat'] as const;

let rendered: Map<string, RenderedReceipt>;
let layouts: Map<string, RenderedReceipt>;
const ocr = new OcrEngine();

beforeAll(async () => {
  rendered = await renderReceipts();
  layouts = await renderReceipts(process.env.RECEIPTS_DIR, LAYOUTS);
}, 90_000);
afterAll(() => ocr.stop());

/** Extracts every variant of every receipt and counts the fields found right, per format; prints the table. */
async function measure(title: string, receipts: readonly Receipt[], files: Map<string, RenderedReceipt>) {
  const hits: Record<string, Record<string, number>> = {};
  const misses: string[] = [];
  let total = 0;
  let right = 0;
  for (const r of receipts) {
    for (const v of VARIANTS) {
      // Read in the receipt's language as a team of that language would (its data first, then English).
      const languages = ocrLanguages({ locales: r.language ? [r.language] : [] });
      const e = await extractFile(files.get(r.key)![v.kind], v.mimetype, ocr, { languages });
      const f = e.fields;
      const minor = (a: string | null) => (a === null ? null : Math.round(Number(a) * 100));
      const ok: Record<(typeof FIELDS)[number], boolean> = {
        merchant: f.merchant?.toLowerCase() === r.merchant.toLowerCase(),
        date: f.date === r.truth.date,
        amount: minor(f.amount) === r.truth.amountMinor,
        currency: f.currency === r.truth.currency,
        vat: minor(f.vatAmount) === r.truth.vatMinor,
      };
      expect(e.method).toBe(v.kind === 'pdf' ? 'pdf-text' : v.kind === 'scan' ? 'pdf-ocr' : 'image-ocr');
      hits[v.kind] ??= {};
      for (const field of FIELDS) {
        hits[v.kind]![field] = (hits[v.kind]![field] ?? 0) + (ok[field] ? 1 : 0);
        total++;
        if (ok[field]) right++;
        else misses.push(`${r.key}.${v.kind}.${field}: ${JSON.stringify(f)}`);
      }
    }
  }
  const n = receipts.length;
  const table = Object.entries(hits).map(([kind, h]) => `${kind.padEnd(6)} ${FIELDS.map((x) => `${x} ${h[x]}/${n}`).join('  ')}`);
  console.info(`${title} ${right}/${total}\n${table.join('\n')}${misses.length ? `\nmisses:\n${misses.join('\n')}` : ''}`);
  const perFormat = Object.fromEntries(
    Object.entries(hits).map(([kind, h]) => [kind, FIELDS.reduce((s, x) => s + (h[x] ?? 0), 0) / (FIELDS.length * n)]),
  );
  return { accuracy: right / total, perFormat };
}

describe('extraction accuracy over the fixture set', () => {
  it('finds merchant, date, amount, currency and VAT in at least 95 % of cases (each format at least 90 %)', async () => {
    const { accuracy, perFormat } = await measure('extraction accuracy', RECEIPTS, rendered);
    expect(accuracy).toBeGreaterThanOrEqual(0.95);
    for (const [kind, share] of Object.entries(perFormat)) expect(share, kind).toBeGreaterThanOrEqual(0.9);
  }, 180_000);

  it('reads other layouts as well: titles on the merchant line, dd-MM-yyyy dates, columns, right-aligned totals, German and French', async () => {
    const { accuracy, perFormat } = await measure('extraction accuracy (other layouts)', LAYOUTS, layouts);
    expect(accuracy).toBeGreaterThanOrEqual(0.95);
    for (const [kind, share] of Object.entries(perFormat)) expect(share, kind).toBeGreaterThanOrEqual(0.9);
    // A scan reads as well as the same image: the page is rendered at the image's own resolution before OCR.
    expect(perFormat.scan).toBeGreaterThanOrEqual(perFormat.png! - 0.05);
  }, 240_000);
});

describe('scanned PDFs', () => {
  it('renders a scanned page at its image’s own resolution (and never below 300 dpi), keeping every pixel for OCR', async () => {
    const png = layouts.get('acme-bv-invoice')!.png;
    const width = (image: Buffer) => image.readUInt32BE(16);
    // The image drawn 200 pt wide on an A5 page (419.53 pt): its pixels per point set the scale.
    const small = await new Promise<Buffer>((resolve) => {
      const doc = new PDFDocument({ size: 'A5', margin: 20 });
      const chunks: Buffer[] = [];
      doc.on('data', (c: Buffer) => chunks.push(c));
      doc.on('end', () => resolve(Buffer.concat(chunks)));
      doc.image(png, { width: 200 });
      doc.end();
    });
    const [page] = await renderPdfPages(small, 1);
    expect(width(page!)).toBeCloseTo((419.53 * width(png)) / 200, -1);
    // A page with an image of less than 300 dpi is rendered at 300 dpi.
    const [scan] = await renderPdfPages(layouts.get('acme-bv-invoice')!.scan, 1);
    expect(width(scan!)).toBeCloseTo((419.53 * 300) / 72, -1);
  });
});

describe('HEIC photos', () => {
  it('decodes the photo of every receipt stored as HEIC and finds its fields as well as from the JPEG', async () => {
    const dir = path.resolve(__dirname, '../../fixtures/receipts-heic');
    let right = 0;
    const misses: string[] = [];
    for (const r of RECEIPTS) {
      const bytes = fs.readFileSync(path.join(dir, `${r.key}.heic`));
      expect((await detectType(bytes)).ok, r.key).toBe(true);
      const e = await extractFile(bytes, 'image/heic', ocr);
      expect(e.method).toBe('image-ocr');
      const f = e.fields;
      const minor = (a: string | null) => (a === null ? null : Math.round(Number(a) * 100));
      const ok = [
        f.merchant?.toLowerCase() === r.merchant.toLowerCase(),
        f.date === r.truth.date,
        minor(f.amount) === r.truth.amountMinor,
        f.currency === r.truth.currency,
        minor(f.vatAmount) === r.truth.vatMinor,
      ];
      right += ok.filter(Boolean).length;
      if (ok.includes(false)) misses.push(`${r.key}: ${JSON.stringify(f)}`);
    }
    console.info(`HEIC extraction accuracy ${right}/${RECEIPTS.length * 5}${misses.length ? `\n${misses.join('\n')}` : ''}`);
    expect(right / (RECEIPTS.length * 5)).toBeGreaterThanOrEqual(0.9);
  }, 180_000);

  it('a file that only claims to be HEIC fails its extraction with a clear error', async () => {
    const fake = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic'), Buffer.alloc(16)]);
    await expect(extractFile(fake, 'image/heic', ocr)).rejects.toThrow(/HEIC image could not be decoded/);
  }, 60_000);
});

describe('OCR languages', () => {
  it('reads the team’s language first, then English; English alone for anyone else', () => {
    expect(ocrLanguages({ locales: ['de-AT'] })).toEqual(['deu', 'eng']);
    expect(ocrLanguages({ locales: ['fr-FR', 'en'] })).toEqual(['fra', 'eng']);
    expect(ocrLanguages({ locales: ['en'], countries: ['CH'] })).toEqual(['deu', 'fra', 'eng']);
    expect(ocrLanguages({ locales: ['es-ES'], countries: ['US'] })).toEqual(['eng']);
    expect(ocrLanguages({})).toEqual(['eng']);
  });

  it('a French team’s photographed invoice is read with French data: the accent of its merchant survives', async () => {
    const api = await makeTestApi({ rateLimitPerMinute: 1_000_000 });
    const token = api.key('Équipe');
    await api.call('PATCH', `/v1/teams/${api.team('Équipe').id}`, { token, body: { countryCode: 'FR' } });
    const photo = layouts.get('lumiere-facture')!.photo;
    const up = await api.call('POST', '/v1/documents', {
      token,
      body: { fileName: 'facture.jpg', content: photo.toString('base64') },
    });
    expect(up.statusCode, up.body).toBe(201);
    const sha = api.db.prepare('SELECT sha256 FROM stored_file_refs').pluck().get() as string;
    expect(fileLanguageHints(api.db, sha)).toEqual({ locales: [], countries: ['FR'] });
    await documentsSettled(api.db);
    const doc = (await api.call('GET', `/v1/documents/${up.json().id}`, { token })).json();
    expect(doc).toMatchObject({ processingStatus: 'completed', date: '2025-02-28' });
    expect(doc.extracted).toMatchObject({ merchant: 'Studio Lumière SAS', amount: 960, vatAmount: 160, method: 'image-ocr' });
  }, 120_000);
});

describe('OCR without network', () => {
  it('reads its language data from the installed npm packages', () => {
    expect(OCR_LANG_PATH).toContain(path.join('node_modules', '@tesseract.js-data', 'eng'));
    for (const lang of OCR_LANGUAGES) {
      expect(ocrLangPath(lang)).toContain(path.join('node_modules', '@tesseract.js-data', lang));
      expect(fs.statSync(path.join(ocrLangPath(lang), `${lang}.traineddata.gz`)).size, lang).toBeGreaterThan(500_000);
    }
  });

  it('the worker blocks any attempt to fetch: language data from a URL fails instead of downloading', async () => {
    const remote = new OcrEngine({ langPath: 'https://cdn.example.invalid/tessdata' });
    try {
      await expect(remote.recognize(rendered.get('uber-paris')!.png)).rejects.toThrow(/network access blocked/);
    } finally {
      await remote.stop();
    }
  }, 60_000);

  it('a whole extraction succeeds in a network namespace that has no network at all', () => {
    const dir = tmpDir();
    const file = path.join(dir, 'receipt.jpg');
    fs.writeFileSync(file, rendered.get('shell-fuel')!.photo);
    const probe = spawnSync('unshare', ['-rn', 'true']);
    if (probe.status !== 0) throw new Error(`unshare -rn is not available here: ${probe.stderr}`);
    const run = spawnSync(
      'unshare',
      ['-rn', process.execPath, '--import', 'tsx', path.join(__dirname, 'offline-extract.ts'), file, 'image/jpeg'],
      { encoding: 'utf8', timeout: 120_000, cwd: path.resolve(__dirname, '../../..') },
    );
    expect(run.status, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.method).toBe('image-ocr');
    expect(result.fields).toMatchObject({ merchant: 'Shell Station Amstelveen', amount: '72.15', currency: 'EUR' });
  }, 150_000);
});
