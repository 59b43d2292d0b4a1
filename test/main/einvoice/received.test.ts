import fs from 'node:fs';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { detectType } from '../../../src-main/documents/detect';
import { extractFile } from '../../../src-main/documents/extract';
import { OcrEngine } from '../../../src-main/documents/ocr';
import { EInvoiceReadError, readEInvoiceXml } from '../../../src-main/einvoice/read';
import { validateCii } from '../../../src-main/einvoice/schema';
import { checkEInvoice } from '../../../src-shared/domain/einvoice/rules';

/**
 * Received e-invoices, written by hand from the published specifications (test/fixtures/einvoice), read into an
 * inbox item's fields from their XML: never by OCR (the engine given is never started).
 */

const dir = path.join(__dirname, '../../fixtures/einvoice');
const fixture = (name: string) => fs.readFileSync(path.join(dir, name));
const ocr = new OcrEngine();

/** A hybrid: a PDF with a CII fixture attached under the name Factur-X (factur-x.xml) or ZUGFeRD 2 gives it. */
function hybridPdf(file: string, attachment: 'factur-x.xml' | 'zugferd-invoice.xml'): Promise<Buffer> {
  return new Promise((resolve) => {
    const doc = new PDFDocument({ size: 'A4' });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.text(`Rechnung (the readable part of ${file}; the figures come from the attached XML)`);
    doc.file(fixture(file), { name: attachment, type: 'text/xml', description: 'Factur-X / ZUGFeRD' });
    doc.end();
  });
}

interface Expected {
  file: string;
  fields: Record<string, unknown>;
  e: Record<string, unknown> & { number: string };
  /** Category, rate, taxable amount, VAT. */
  vat: [string, number, string, string][];
  /** The exemption reason (or VATEX code) of the first breakdown. */
  exemption?: string;
  /** Name, quantity, unit, price, net. */
  lines?: [string, number, string, string, string][];
}

const EXPECTED: Expected[] = [
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
  {
    file: 'de-credit-note-ubl.xml',
    fields: {
      merchant: 'Druckerei Hansen KG',
      date: '2025-05-06',
      amount: '211.82',
      currency: 'EUR',
      vatAmount: '33.82',
      vatRate: 19,
    },
    e: {
      syntax: 'UBL',
      typeCode: '381',
      number: 'GS-2025-0042',
      dueDate: null,
      supplierVatId: 'DE145678901',
      supplierLegalId: 'HRA 98765',
      precedingInvoice: 'DH-2025-311',
      buyerReference: '991-12345-67',
      iban: 'DE89370400440532013000',
    },
    vat: [['S', 19, '178.00', '33.82']],
    lines: [['Tonerkartusche TK-5240, schwarz', 2, 'H87', '89.00', '178.00']],
  },
  {
    file: 'de-rates-allowances-cii.xml',
    fields: {
      merchant: 'Kontorhaus Weber GmbH & Co. KG',
      date: '2025-05-16',
      amount: '433.31',
      currency: 'EUR',
      vatAmount: '27.61',
      vatRate: null,
    },
    e: {
      syntax: 'CII',
      number: 'KW-25-01877',
      dueDate: '2025-06-15',
      supplierEndpoint: 'EM:rechnung@kontorhaus-weber.example',
      supplierAddress: ['Georgstraße 21', '30159 Hannover', 'DE'],
      lineTotal: '409.80',
      allowances: '10.00',
      charges: '5.90',
      totalWithoutVat: '405.70',
      totalWithVat: '433.31',
      iban: 'DE12500105170648489890',
    },
    vat: [
      ['S', 19, '115.90', '22.02'],
      ['S', 7, '79.80', '5.59'],
      ['Z', 0, '210.00', '0.00'],
    ],
    lines: [
      ['Druckerpapier A4, Karton zu 2500 Blatt', 5, 'CT', '24.00', '120.00'],
      ['Steuerhandbuch 2025', 2, 'H87', '39.90', '79.80'],
      ['Solarmodul 400 W', 1, 'H87', '210.00', '210.00'],
    ],
  },
  {
    file: 'be-peppol-0208-ubl.xml',
    fields: {
      merchant: 'Koffie Service Gent NV',
      date: '2026-02-03',
      amount: '465.35',
      currency: 'EUR',
      vatAmount: '70.35',
      vatRate: null,
    },
    e: {
      syntax: 'UBL',
      number: '2026/00071',
      dueDate: '2026-03-05',
      supplierVatId: 'BE0403019261',
      supplierLegalId: '0403019261',
      supplierEndpoint: '0208:0403019261',
      buyer: 'Noorderlicht Advies BV',
      iban: 'BE71096123456769',
      paymentReference: '+++090/9337/55493+++',
    },
    vat: [
      ['S', 21, '255.00', '53.55'],
      ['S', 12, '140.00', '16.80'],
    ],
    lines: [
      ['Onderhoud koffiemachine', 3, 'C62', '85.00', '255.00'],
      ['Catering vergadering 20 personen', 1, 'C62', '140.00', '140.00'],
    ],
  },
  {
    file: 'nl-reverse-charge-peppol-ubl.xml',
    fields: {
      merchant: 'Grachtsoft B.V.',
      date: '2026-03-02',
      amount: '3920.00',
      currency: 'EUR',
      vatAmount: '0.00',
      vatRate: 0,
    },
    e: {
      syntax: 'UBL',
      number: 'NL-2026-0310',
      supplierVatId: 'NL859722034B01',
      supplierEndpoint: '0106:69599084',
      iban: 'NL91ABNA0417164300',
    },
    vat: [['AE', 0, '3920.00', '0.00']],
    exemption: 'Btw verlegd',
    lines: [
      ['Softwarelicentie Grachtsoft Planner, 1 jaar', 1, 'ANN', '2400.00', '2400.00'],
      ['Implementatie en training', 16, 'HUR', '95.00', '1520.00'],
    ],
  },
  {
    file: 'de-usd-peppol-ubl.xml',
    fields: {
      merchant: 'Fernweh Software GmbH',
      date: '2025-06-10',
      amount: '5712.00',
      currency: 'USD',
      vatAmount: '912.00',
      vatRate: 19,
    },
    e: {
      syntax: 'UBL',
      number: 'FW-2025-US-009',
      dueDate: '2025-07-10',
      vatAccounting: { currency: 'EUR', vat: '840.55' },
      paymentTerms: 'Net 30 days',
      iban: 'DE02120300000000202051',
    },
    vat: [['S', 19, '4800.00', '912.00']],
    lines: [['Software development, May 2025', 40, 'HUR', '120.00', '4800.00']],
  },
  {
    file: 'fr-chorus-pro-cii.xml',
    fields: {
      merchant: 'Atelier Numérique Durand',
      date: '2025-06-02',
      amount: '802.00',
      currency: 'EUR',
      vatAmount: '0.00',
      vatRate: 0,
    },
    e: {
      syntax: 'CII',
      number: 'AND-2025-061',
      dueDate: '2025-07-02',
      supplierVatId: 'FR64852345678',
      supplierLegalId: '85234567800019',
      supplierEndpoint: '0009:85234567800019',
      buyer: 'Ville de Lyon, Direction des finances',
      buyerReference: 'SERV-FINANCES',
      totalWithVat: '1002.00',
      prepaid: '200.00',
      iban: 'FR1420041010050500013M02606',
    },
    vat: [['E', 0, '1002.00', '0.00']],
    exemption: 'TVA non applicable, art. 293 B du CGI',
    lines: [
      ['Formation bureautique des agents', 2, 'DAY', '450.00', '900.00'],
      ['Support de cours imprimé', 12, 'H87', '8.50', '102.00'],
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
      if (x.exemption) expect(result.fields.eInvoice?.vatBreakdown[0]?.exemptionReason).toBe(x.exemption);
      if (x.lines)
        expect(result.fields.eInvoice?.lines.map((l) => [l.name, l.quantity, l.unitCode, l.price, l.net])).toEqual(x.lines);
      expect(result.text).toContain(x.e.number);
      read++;
    });
  }

  const HYBRIDS = [
    { file: 'de-xrechnung-cii.xml', attachment: 'factur-x.xml', merchant: 'Rechenzentrum Süd GmbH', amount: '1413.13' },
    {
      file: 'de-rates-allowances-cii.xml',
      attachment: 'zugferd-invoice.xml',
      merchant: 'Kontorhaus Weber GmbH & Co. KG',
      amount: '433.31',
    },
  ] as const;
  for (const h of HYBRIDS) {
    it(`reads a hybrid PDF carrying ${h.attachment} from its XML, not its text`, async () => {
      const result = await extractFile(await hybridPdf(h.file, h.attachment), 'application/pdf', ocr);
      expect(result.method).toBe('e-invoice');
      expect(result.fields).toMatchObject({ merchant: h.merchant, amount: h.amount });
      expect(result.fields.eInvoice?.lines.length).toBeGreaterThan(0);
      read++;
    });
  }

  it('read every fixture', () => {
    expect(read).toBe(EXPECTED.length + HYBRIDS.length);
    const bad = ['malformed.xml', 'not-an-invoice.xml'];
    const files = fs.readdirSync(dir).filter((f) => !bad.includes(f));
    expect(files.sort()).toEqual(EXPECTED.map((x) => x.file).sort());
  });

  // The fixtures are written by hand: the ones in CII pass the EN 16931 CII schema, and every one adds up as the
  // EN 16931 rules ask (so an expected figure above is the document's, not a slip of its writer).
  for (const x of EXPECTED) {
    it(`${x.file} is a consistent EN 16931 invoice`, async () => {
      const xml = fixture(x.file).toString('utf8');
      const { syntax, invoice } = readEInvoiceXml(xml);
      if (syntax === 'CII') expect(await validateCii(xml)).toEqual([]);
      expect(checkEInvoice(invoice, 'en16931')).toEqual([]);
    });
  }

  it('gives a clear error for a malformed file and for XML that is no e-invoice', async () => {
    await expect(extractFile(fixture('malformed.xml'), 'application/xml', ocr)).rejects.toThrow(/not well-formed XML/);
    await expect(extractFile(fixture('not-an-invoice.xml'), 'application/xml', ocr)).rejects.toThrow(EInvoiceReadError);
    await expect(extractFile(fixture('not-an-invoice.xml'), 'application/xml', ocr)).rejects.toThrow(
      /Order document, not an e-invoice/,
    );
  });
});
