import fs from 'node:fs';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { detectType } from '../../../src-main/documents/detect';
import { extractFile } from '../../../src-main/documents/extract';
import { OcrEngine } from '../../../src-main/documents/ocr';
import { EInvoiceReadError } from '../../../src-main/einvoice/read';

/**
 * Received e-invoices, written by hand from the published specifications (test/fixtures/einvoice), read into an
 * inbox item's fields from their XML: never by OCR (the engine given is never started).
 */

const dir = path.join(__dirname, '../../fixtures/einvoice');
const fixture = (name: string) => fs.readFileSync(path.join(dir, name));
const ocr = new OcrEngine();

/** A hybrid: a PDF with the German CII fixture attached as factur-x.xml, the way Factur-X names it. */
function hybridPdf(): Promise<Buffer> {
  return new Promise((resolve) => {
    const doc = new PDFDocument({ size: 'A4' });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.text('Rechnung 2025/04-117 (the readable part; the figures come from the attached XML)');
    doc.file(fixture('de-xrechnung-cii.xml'), { name: 'factur-x.xml', type: 'text/xml', description: 'Factur-X' });
    doc.end();
  });
}

const EXPECTED = [
  {
    file: 'de-xrechnung-ubl.xml',
    fields: {
      merchant: 'Bürobedarf König GmbH',
      date: '2025-05-02',
      amount: '314.12',
      currency: 'EUR',
      vatAmount: '45.22',
      vatRate: null,
    },
    e: {
      syntax: 'UBL',
      number: 'RE-2025-0815',
      dueDate: '2025-06-01',
      supplierVatId: 'DE811234567',
      iban: 'DE02370502990000684712',
    },
    vat: [
      ['S', 19, '220.00', '41.80'],
      ['S', 7, '48.90', '3.42'],
    ],
  },
  {
    file: 'de-xrechnung-cii.xml',
    fields: {
      merchant: 'Rechenzentrum Süd GmbH',
      date: '2025-05-05',
      amount: '1413.13',
      currency: 'EUR',
      vatAmount: '225.63',
      vatRate: 19,
    },
    e: {
      syntax: 'CII',
      number: '2025/04-117',
      dueDate: '2025-05-19',
      supplierVatId: 'DE299999999',
      iban: 'DE75512108001245126199',
    },
    vat: [['S', 19, '1187.50', '225.63']],
  },
  {
    file: 'fr-facturx-cii.xml',
    fields: {
      merchant: 'Infogérance Lumière SAS',
      date: '2025-05-05',
      amount: '1425.00',
      currency: 'EUR',
      vatAmount: '237.50',
      vatRate: 20,
    },
    e: {
      syntax: 'CII',
      number: 'FA-2025-0042',
      dueDate: '2025-05-19',
      supplierVatId: 'FR40303265045',
      iban: 'FR7630006000011234567890189',
    },
    vat: [['S', 20, '1187.50', '237.50']],
  },
  {
    file: 'be-peppol-ubl.xml',
    fields: {
      merchant: 'Brouwerij De Kroon BV',
      date: '2025-05-02',
      amount: '318.03',
      currency: 'EUR',
      vatAmount: '49.13',
      vatRate: null,
    },
    e: { syntax: 'UBL', number: 'F2025/0193', dueDate: '2025-06-01', supplierVatId: 'BE0477472701', iban: 'BE68539007547034' },
    vat: [
      ['S', 21, '220.00', '46.20'],
      ['S', 6, '48.90', '2.93'],
    ],
  },
];

describe('received e-invoices', () => {
  let read = 0;
  for (const x of EXPECTED) {
    it(`reads ${x.file} from its XML`, async () => {
      const bytes = fixture(x.file);
      const type = await detectType(bytes);
      expect(type).toMatchObject({ ok: true, mimetype: 'application/xml' });
      const result = await extractFile(bytes, 'application/xml', ocr);
      expect(result.method).toBe('e-invoice');
      expect(result.fields).toMatchObject(x.fields);
      expect(result.fields.eInvoice).toMatchObject(x.e);
      expect(result.fields.eInvoice?.vatBreakdown.map((b) => [b.category, b.rate, b.taxable, b.vat])).toEqual(x.vat);
      expect(result.text).toContain(x.e.number);
      read++;
    });
  }

  it('reads a hybrid PDF from the XML it carries, not its text', async () => {
    const pdf = await hybridPdf();
    const result = await extractFile(pdf, 'application/pdf', ocr);
    expect(result.method).toBe('e-invoice');
    expect(result.fields).toMatchObject({ merchant: 'Rechenzentrum Süd GmbH', amount: '1413.13', vatAmount: '225.63' });
    expect(result.fields.eInvoice?.iban).toBe('DE75512108001245126199');
    read++;
  });

  it('read every fixture', () => {
    expect(read).toBe(EXPECTED.length + 1);
  });

  it('gives a clear error for a malformed file and for XML that is no e-invoice', async () => {
    await expect(extractFile(fixture('malformed.xml'), 'application/xml', ocr)).rejects.toThrow(/not well-formed XML/);
    await expect(extractFile(fixture('not-an-invoice.xml'), 'application/xml', ocr)).rejects.toThrow(EInvoiceReadError);
    await expect(extractFile(fixture('not-an-invoice.xml'), 'application/xml', ocr)).rejects.toThrow(
      /Order document, not an e-invoice/,
    );
  });
});
