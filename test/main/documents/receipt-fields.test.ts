/**
 * The receipt field parser on text as PDFs and OCR give it: separators, date orders, labels in several languages,
 * OCR damage it repairs (a lost capital, a 0 read as 6 in a date, a garbled VAT amount) and what it must not take
 * (subtotals, VAT numbers, percentages, "hst" inside "Frühstück").
 */
import { describe, expect, it } from 'vitest';
import { normalizeAmount, parseReceipt } from '../../../src-main/documents/receipt-fields';

describe('amounts', () => {
  it.each([
    ['1,234.56', '1234.56'],
    ['1.234,56', '1234.56'],
    ['89,90', '89.90'],
    ['1 234,50', '1234.50'],
    ["1'234.50", '1234.50'],
    ['-12.5', '-12.50'],
    ['7', '7'],
  ])('%s → %s', (token, expected) => expect(normalizeAmount(token)).toBe(expected));
});

describe('parseReceipt', () => {
  it('takes the total, not the subtotal or a larger line above it, and the total line’s currency', () => {
    const f = parseReceipt('Office Depot\nDate 04/18/2025\nPrinter paper $42.99\nSubtotal $54.48\nTax $4.49\nAmount due $58.97');
    expect(f).toMatchObject({
      merchant: 'Office Depot',
      date: '2025-04-18',
      amount: '58.97',
      currency: 'USD',
      vatAmount: '4.49',
    });
  });

  it('reads slashed dates day-first outside the US and month-first in US dollars, unless a part rules it out', () => {
    expect(parseReceipt('Pret\n12/02/2025\nTotal £7.85').date).toBe('2025-02-12');
    expect(parseReceipt('Bolt\n12/02/2025\nTOTAL $7.85').date).toBe('2025-12-02');
    expect(parseReceipt('Bolt\n13/02/2025\nTOTAL $7.85').date).toBe('2025-02-13');
    expect(parseReceipt('Shop\nMarch 1, 2025\nTotal EUR 1.00').date).toBe('2025-03-01');
    expect(parseReceipt('Laden\n3. März 2025\nSumme 1,00 EUR').date).toBe('2025-03-03');
    expect(parseReceipt('Laden\nBeleg 2025-13-40\nSumme 1,00').date).toBeNull();
  });

  it('prefers a labelled date over an earlier one (a printed-at time, a delivery date)', () => {
    expect(parseReceipt('Hotel\n01.03.2025 printed\nRechnungsdatum: 28.02.2025\nGesamt 430,00 EUR').date).toBe('2025-02-28');
  });

  it('sums VAT over several rates and reports a rate only when there is one; ignores VAT numbers', () => {
    const f = parseReceipt(
      'Hotel\nUSt-IdNr DE123456789\nGesamt EUR 430,00\nMwSt 7% auf 378,00 24,73\nMwSt 19% auf 52,00 8,30\nFrühstück 52,00',
    );
    expect(f).toMatchObject({ amount: '430.00', currency: 'EUR', vatAmount: '33.03', vatRate: null });
    expect(parseReceipt('Cafe\nVAT No. GB 123 4567 89\nTotal £7.85\nVAT 20% £1.31')).toMatchObject({
      vatAmount: '1.31',
      vatRate: 20,
    });
  });

  it('repairs common OCR damage', () => {
    const f = parseReceipt('café Central\nDatum: 14.63.2025 12:41\nSumme EUR 23,40\ninkl. 10% MwSt 25713');
    expect(f).toMatchObject({ merchant: 'Café Central', date: '2025-03-14', amount: '23.40', vatAmount: '2.13', vatRate: 10 });
  });

  it('skips receipt headers and noise when naming the merchant; finds the website, not an email', () => {
    const f = parseReceipt('|||\nRECEIPT\nBolt Hardware Store\nsupport@bolt.test\nwww.bolthardware.com\nTOTAL $86.53');
    expect(f).toMatchObject({ merchant: 'Bolt Hardware Store', website: 'www.bolthardware.com' });
  });

  it('finds nothing in nothing', () => {
    expect(parseReceipt('')).toEqual({
      merchant: null,
      date: null,
      amount: null,
      currency: null,
      vatAmount: null,
      vatRate: null,
      website: null,
    });
  });

  it('reads dd-MM-yyyy dates, day first (the product’s own invoice template offers them), month first in dollars', () => {
    expect(parseReceipt('Screwfix Direct Ltd\nDate: 09-01-2025 10:41\nTotal £49.80').date).toBe('2025-01-09');
    expect(parseReceipt('TCA Taxi\n21-03-2025 23:10\nTotaal € 34,50').date).toBe('2025-03-21');
    expect(parseReceipt('Shop\n01-07-2025\nTOTAL $12.00').date).toBe('2025-01-07');
    // Not a date: an invoice number with dashes, an ISO date stays ISO.
    expect(parseReceipt('Shop\nInvoice 2025-0042\nDate 2025-06-11\nTotal 5,00 EUR').date).toBe('2025-06-11');
  });

  it('keeps a document title out of the merchant, on its line or above it', () => {
    expect(parseReceipt('Acme Trading B.V. INVOICE\nTotal € 1,210.00').merchant).toBe('Acme Trading B.V.');
    expect(parseReceipt('Schreinerei Holzwerk GmbH RECHNUNG\nSumme 10,00').merchant).toBe('Schreinerei Holzwerk GmbH');
    expect(parseReceipt('TAX INVOICE\nScrewfix Direct Ltd\nTotal £49.80').merchant).toBe('Screwfix Direct Ltd');
    expect(parseReceipt('TICKET DE CAISSE\nBoulangerie Paul\nTOTAL TTC 12,40 €').merchant).toBe('Boulangerie Paul');
    expect(parseReceipt('Bewirtungsbeleg\nGasthaus Zum Löwen\nGesamtsumme EUR 48,00').merchant).toBe('Gasthaus Zum Löwen');
    // OCR's "B. V." is the legal form; a name that merely contains a title word keeps it.
    expect(parseReceipt('TCA Taxi B. V. RECEIPT\nTotaal € 34,50').merchant).toBe('TCA Taxi B.V.');
    expect(parseReceipt('Smart Invoice Services GmbH\nSumme 5,00').merchant).toBe('Smart Invoice Services GmbH');
  });

  it('sums a VAT table by tax class whose rows carry no VAT word, and only rows whose figures agree', () => {
    const f = parseReceipt(
      'REWE Markt GmbH\nWEIN ROT 6,99 B\nSUMME EUR 9,92\nSteuer % Netto Steuer Brutto\nA= 7,0% 2,74 0,19 2,93\nB= 19,0% 5,87 1,12 6,99',
    );
    expect([f.amount, f.vatAmount, f.vatRate]).toEqual(['9.92', '1.31', null]);
    // A tip or a discount with a percentage is no VAT.
    expect(parseReceipt('Diner\nTip 18% 30.00 5.40 35.40\nTotal $35.40').vatAmount).toBeNull();
  });
});
