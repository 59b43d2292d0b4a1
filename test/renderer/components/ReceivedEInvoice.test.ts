import fs from 'node:fs';
import path from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractFile } from '../../../src-main/documents/extract';
import { OcrEngine } from '../../../src-main/documents/ocr';
import { ReceivedEInvoice } from '../../../src-renderer/components/ReceivedEInvoice';
import { i18n } from '../../../src-renderer/i18n';
import { setFormatPreferences } from '../../../src-renderer/lib/format';
import type { ReceivedEInvoice as Fields } from '../../../src-shared/contract/documents';

/**
 * A received e-invoice as a readable invoice: hand-written fixtures read by the real extraction (from their XML),
 * rendered by React to markup, in English and German.
 */

const dir = path.join(__dirname, '../../fixtures/einvoice');

async function read(file: string): Promise<{ eInvoice: Fields; currency: string }> {
  const result = await extractFile(fs.readFileSync(path.join(dir, file)), 'application/xml', new OcrEngine());
  const e = result.fields.eInvoice;
  if (!e || !result.fields.currency) throw new Error(`${file} was not read as an e-invoice`);
  return { eInvoice: e, currency: result.fields.currency };
}

/** The markup as text, one line per block, spaces folded (Intl puts no-break spaces in amounts). */
function render(props: { eInvoice: Fields; currency: string }): string {
  return renderToStaticMarkup(createElement(ReceivedEInvoice, props))
    .replace(/<\/(div|h2|h3|dt|dd|td|th|p|span)>/g, '\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/[ \u00a0\u202f]+/g, ' ')
    .replace(/&amp;/g, '&');
}

beforeAll(async () => {
  setFormatPreferences({ locale: 'en-GB', dateFormat: 'yyyy-MM-dd', timezone: 'UTC', numberFormat: 'locale' });
  await i18n.changeLanguage('en');
});
afterAll(() => i18n.changeLanguage('en'));

describe('a received e-invoice shown as an invoice', () => {
  it('names the supplier, number, dates, lines, VAT per rate, allowance and charge, totals and where to pay', async () => {
    const text = render(await read('de-rates-allowances-cii.xml'));
    for (const expected of [
      'Invoice KW-25-01877',
      'Read from its CII data',
      'Kontorhaus Weber GmbH & Co. KG',
      'Georgstraße 21',
      '30159 Hannover',
      'VAT DE281234567',
      'Issued\n 2025-05-16',
      'Due\n 2025-06-15',
      'Buyer reference\n 04011000-1234512345-06',
      'Druckerpapier A4, Karton zu 2500 Blatt\n 5 cartons\n €24.00\n €120.00\n 19 %',
      'Solarmodul 400 W\n 1 pcs\n €210.00\n €210.00\n 0 %',
      'standard rate, 19 %\n €115.90\n €22.02',
      'standard rate, 7 %\n €79.80\n €5.59',
      'zero rate, 0 %\n €210.00\n €0.00',
      'Lines\n €409.80',
      'Allowances\n -€10.00',
      'Charges\n €5.90',
      'Total without VAT\n €405.70',
      'Amount due\n €433.31',
      'IBAN\n DE12500105170648489890',
      'Reference\n KW-25-01877',
    ])
      expect(text).toContain(expected);
  });

  it('shows a credit note with the invoice it corrects, a deposit, the VAT in the accounting currency', async () => {
    const credit = render(await read('de-credit-note-ubl.xml'));
    expect(credit).toContain('Credit note GS-2025-0042');
    expect(credit).toContain('Corrects invoice\n DH-2025-311');
    expect(credit).toContain('Amount credited\n €211.82');
    const chorus = render(await read('fr-chorus-pro-cii.xml'));
    expect(chorus).toContain('Registration 85234567800019');
    expect(chorus).toContain('Electronic address 0009:85234567800019');
    expect(chorus).toContain('VAT exempt, 0 %');
    expect(chorus).toContain('TVA non applicable, art. 293 B du CGI');
    expect(chorus).toContain('Total with VAT\n €1,002.00');
    expect(chorus).toContain('Paid already\n -€200.00');
    expect(chorus).toContain('Amount due\n €802.00');
    const usd = render(await read('de-usd-peppol-ubl.xml'));
    expect(usd).toContain('Amount due\n US$5,712.00');
    expect(usd).toContain('VAT in EUR\n €840.55');
  });

  it('says it in German', async () => {
    await i18n.changeLanguage('de');
    setFormatPreferences({ locale: 'de-DE', dateFormat: 'dd.MM.yyyy' });
    try {
      const text = render(await read('nl-reverse-charge-peppol-ubl.xml'));
      expect(text).toContain('Rechnung NL-2026-0310');
      expect(text).toContain('Steuerschuldnerschaft des Leistungsempfängers, 0 %');
      expect(text).toContain('Btw verlegd');
      expect(text).toContain('16 Std.');
      expect(text).toContain('Fälliger Betrag\n 3.920,00 €');
      expect(text).toContain('Fällig\n 01.04.2026');
      expect(text).toContain('Ausgestellt\n 02.03.2026');
    } finally {
      setFormatPreferences({ locale: 'en-GB', dateFormat: 'yyyy-MM-dd' });
      await i18n.changeLanguage('en');
    }
  });

  it('shows an extraction stored before lines were kept, and says how to see them', () => {
    const text = render({
      currency: 'EUR',
      eInvoice: {
        syntax: 'UBL',
        typeCode: '380',
        number: 'OLD-1',
        issueDate: '2025-01-02',
        dueDate: null,
        supplier: 'Old Supplier GmbH',
        supplierVatId: null,
        buyer: 'Us',
        totalWithoutVat: '100.00',
        vat: '19.00',
        amountDue: '119.00',
        vatBreakdown: [{ category: 'S', rate: 19, taxable: '100.00', vat: '19.00' }],
        iban: null,
        paymentReference: null,
      },
    });
    expect(text).toContain('Invoice OLD-1');
    expect(text).toContain('Amount due\n €119.00');
    expect(text).toContain('read it again to see them');
    expect(text).toContain('names no account to pay to');
  });
});
