import PDFDocument from 'pdfkit';
import { type MapOptions, mapInvoice } from '../../../../src-shared/domain/einvoice/from-invoice';
import type { EInvoice, EInvoiceFormat } from '../../../../src-shared/domain/einvoice/model';
import { BUYERS, invoiceOf, line, SELLER, SMALL_BUSINESS_SELLER } from './sources';

/**
 * The invoices of the e-invoice tests, each as the product maps it into EN 16931: every VAT category, several
 * rates, a discount, foreign currencies with their VAT in the base currency, a service period, a credit note. The
 * round trip (test/main/einvoice/round-trip.test.ts) and the official rules (official-rules.test.ts) run over all
 * of them in every format they apply to.
 */

export interface EInvoiceCase {
  name: string;
  build: () => { invoice: EInvoice };
  /** A format the case cannot be issued in (the rules say why). */
  notIn?: EInvoiceFormat;
}

export const CASES: EInvoiceCase[] = [
  {
    name: 'standard rate, one line',
    build: () => mapInvoice(invoiceOf([line('Consulting', 3, 15000)]), SELLER, BUYERS.de),
  },
  {
    name: 'several rates (19 % and 7 %) and a fractional quantity',
    build: () =>
      mapInvoice(
        invoiceOf([line('Development', 12.5, 9550), line('Handbook', 2, 2490, 'pcs', 7), line('Travel', 1, 4200, 'day')]),
        SELLER,
        BUYERS.de,
      ),
  },
  {
    name: 'zero rated (Z)',
    build: () => mapInvoice(invoiceOf([line('Printed books', 10, 1200, 'pcs', 0)], { vatCategory: 'Z' }), SELLER, BUYERS.de),
  },
  {
    name: 'exempt with a reason (E), small business',
    build: () =>
      mapInvoice(
        invoiceOf([line('Tutoring', 4, 4000)], { includeVat: false, vatExemptionReason: 'Kleinunternehmer gemäß § 19 UStG' }),
        SELLER,
        BUYERS.de,
      ),
  },
  {
    name: 'reverse charge (AE) to Belgium',
    build: () =>
      mapInvoice(
        invoiceOf([line('Software licence', 1, 250000, 'unit')], { includeVat: false, vatCategory: 'AE' }),
        SELLER,
        BUYERS.be,
      ),
  },
  {
    name: 'intra-community supply (K) to France with a supply date',
    build: () =>
      mapInvoice(
        invoiceOf([line('Server hardware', 2, 189900, 'pcs')], { includeVat: false, vatCategory: 'K', supplyDate: '2025-03-10' }),
        SELLER,
        BUYERS.fr,
      ),
  },
  {
    name: 'export (G) to the US in USD, VAT in EUR, a service period',
    build: () =>
      mapInvoice(
        invoiceOf([line('Support retainer', 1, 500000, 'month')], {
          currency: 'USD',
          includeVat: false,
          vatCategory: 'G',
          supplyDate: '2025-02-01',
          supplyEndDate: '2025-02-28',
        }),
        SELLER,
        BUYERS.us,
        { vatAccounting: { currency: 'EUR', vatMinor: 0 } },
      ),
    // A buyer outside Peppol (an email address only) cannot get a Peppol invoice: the rules say so (below).
    notIn: 'peppol-bis-3',
  },
  {
    name: 'foreign currency with VAT (CHF invoice, VAT in EUR)',
    build: () =>
      mapInvoice(invoiceOf([line('Workshop', 2, 120000, 'day')], { currency: 'CHF' }), SELLER, BUYERS.de, {
        vatAccounting: { currency: 'EUR', vatMinor: 48642 },
      }),
  },
  {
    name: 'discount on a VAT-free invoice (document allowance)',
    build: () =>
      mapInvoice(
        invoiceOf([line('Licence A', 1, 100000, 'unit'), line('Licence B', 3, 33333, 'unit')], {
          includeVat: false,
          vatCategory: 'AE',
          discountMinor: 5000,
        }),
        SELLER,
        BUYERS.be,
      ),
  },
  {
    name: 'discount as a negative line with VAT',
    build: () =>
      mapInvoice(invoiceOf([line('Consulting', 10, 12000), line('Loyalty discount', 1, -6000, 'unit')]), SELLER, BUYERS.de),
  },
  {
    name: 'credit note of a refunded invoice',
    build: () =>
      mapInvoice(invoiceOf([line('Consulting', 3, 15000), line('Handbook', 1, 2490, 'pcs', 7)]), SELLER, BUYERS.fr, {
        creditNote: { issueDate: '2025-04-02' },
      } satisfies MapOptions),
  },
  {
    name: 'unit prices with 3 and 4 decimals (BT-146), amounts in cents',
    build: () =>
      mapInvoice(
        invoiceOf([
          { ...line('Diesel', 120.5, 16_349, 'l'), priceScale: 2 },
          { ...line('Fasteners', 1000, 8_25, 'pcs'), priceScale: 2 },
          { ...line('Cable', 12.5, 1_635, 'm', 7), priceScale: 1 },
        ]),
        SELLER,
        BUYERS.de,
      ),
  },
  {
    name: 'a small business without a VAT id (§ 19 UStG): tax number and register entry',
    build: () =>
      mapInvoice(
        invoiceOf([line('Möbelreparatur', 6, 4500), line('Material', 1, 3890, 'unit')], {
          includeVat: false,
          vatCategory: 'E',
          vatExemptionReason: 'Gemäß § 19 UStG wird keine Umsatzsteuer berechnet',
        }),
        SMALL_BUSINESS_SELLER,
        BUYERS.de,
      ),
    // Its only electronic address is an email, which Peppol does not route (PEPPOL-EN16931-CL008, FD-PEPPOL-ID).
    notIn: 'peppol-bis-3',
  },
  {
    name: 'the credit note of a small business without a VAT id, addressed by its GLN',
    build: () =>
      mapInvoice(
        invoiceOf([line('Möbelreparatur', 2, 4500)], {
          includeVat: false,
          vatCategory: 'E',
          vatExemptionReason: 'Gemäß § 19 UStG wird keine Umsatzsteuer berechnet',
        }),
        { ...SMALL_BUSINESS_SELLER, peppolId: '0088:4000001000005' },
        BUYERS.de,
        { creditNote: { issueDate: '2025-04-20' } },
      ),
  },
  {
    name: 'a seller stating its tax number and register entry beside its VAT id',
    build: () =>
      mapInvoice(
        invoiceOf([line('Consulting', 2, 15000)]),
        { ...SELLER, taxNumber: '37/123/45678', legalRegistrationId: 'HRB 98765' },
        BUYERS.de,
      ),
  },
  {
    name: 'reverse charge (AE) to a Dutch buyer addressed by its GLN (0088)',
    build: () =>
      mapInvoice(
        invoiceOf([line('Design sprint', 5, 90000, 'day')], { includeVat: false, vatCategory: 'AE' }),
        SELLER,
        BUYERS.nlGln,
      ),
  },
  {
    name: 'intra-community supply (K) to Sweden (0007) for a service period',
    build: () =>
      mapInvoice(
        invoiceOf([line('Rack servers', 3, 245000, 'pcs')], {
          includeVat: false,
          vatCategory: 'K',
          supplyDate: '2025-03-01',
          supplyEndDate: '2025-03-07',
        }),
        SELLER,
        BUYERS.se,
      ),
  },
  {
    name: 'export (G) to Norway (0192)',
    build: () =>
      mapInvoice(invoiceOf([line('Data analysis', 16, 11000)], { includeVat: false, vatCategory: 'G' }), SELLER, BUYERS.no),
  },
];

/** A one-page PDF for the hybrid formats to carry their XML in. */
export function plainPdf(): Promise<Buffer> {
  return new Promise((resolve) => {
    const doc = new PDFDocument({ size: 'A4', pdfVersion: '1.7' });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.text('Invoice');
    doc.end();
  });
}
