/**
 * Local extraction over the fixture set (test/fixtures/receipts.ts): ten realistic receipts and invoices, each as a
 * text PDF, a clean PNG, a "photo" JPEG and a scanned PDF, 40 files. Measures how often each field is found right
 * and holds the accuracy the decision record states; proves that OCR never reaches the network (the worker's guard
 * blocks it, and a whole extraction succeeds in a namespace without any network).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectType } from '../../../src-main/documents/detect';
import { extractFile } from '../../../src-main/documents/extract';
import { OCR_LANG_PATH, OcrEngine } from '../../../src-main/documents/ocr';
import { RECEIPTS, type RenderedReceipt, renderReceipts, VARIANTS } from '../../fixtures/receipts';
import { tmpDir } from '../../helpers/tmp';

const FIELDS = ['merchant', 'date', 'amount', 'currency', 'vat'] as const;

let rendered: Map<string, RenderedReceipt>;
const ocr = new OcrEngine();

beforeAll(async () => {
  rendered = await renderReceipts();
}, 60_000);
afterAll(() => ocr.stop());

describe('extraction accuracy over the fixture set', () => {
  it('finds merchant, date, amount, currency and VAT in at least 95 % of cases (each format at least 90 %)', async () => {
    const hits: Record<string, Record<string, number>> = {};
    const misses: string[] = [];
    let total = 0;
    let right = 0;
    for (const r of RECEIPTS) {
      for (const v of VARIANTS) {
        const e = await extractFile(rendered.get(r.key)![v.kind], v.mimetype, ocr);
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
    const table = Object.entries(hits).map(([kind, h]) => `${kind.padEnd(6)} ${FIELDS.map((x) => `${x} ${h[x]}/10`).join('  ')}`);
    console.info(
      `extraction accuracy ${right}/${total}\n${table.join('\n')}${misses.length ? `\nmisses:\n${misses.join('\n')}` : ''}`,
    );
    expect(right / total).toBeGreaterThanOrEqual(0.95);
    for (const [kind, h] of Object.entries(hits)) {
      const sum = FIELDS.reduce((s, x) => s + (h[x] ?? 0), 0);
      expect(sum / (FIELDS.length * RECEIPTS.length), kind).toBeGreaterThanOrEqual(0.9);
    }
  }, 180_000);
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

describe('OCR without network', () => {
  it('reads its language data from the installed npm package', () => {
    expect(OCR_LANG_PATH).toContain(path.join('node_modules', '@tesseract.js-data', 'eng'));
    expect(fs.statSync(path.join(OCR_LANG_PATH, 'eng.traineddata.gz')).size).toBeGreaterThan(1_000_000);
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
