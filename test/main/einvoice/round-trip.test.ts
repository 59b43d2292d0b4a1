import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { embeddedInvoiceXml } from '../../../src-main/einvoice/hybrid';
import { readEInvoiceXml } from '../../../src-main/einvoice/read';
import { validateCii } from '../../../src-main/einvoice/schema';
import { writeEInvoice } from '../../../src-main/einvoice/write';
import { type MapOptions, mapInvoice } from '../../../src-shared/domain/einvoice/from-invoice';
import { E_INVOICE_FORMATS, type EInvoice, type EInvoiceFormat, FORMAT_INFO } from '../../../src-shared/domain/einvoice/model';
import { checkEInvoice } from '../../../src-shared/domain/einvoice/rules';
import { issued, readWithFacturXKit } from '../../helpers/einvoice-independent';
import { BUYERS, invoiceOf, line, SELLER } from '../../shared/domain/einvoice/sources';

/**
 * Every format we issue, read back by a reader that shares no code with the writer (src-main/einvoice/read.ts over
 * fast-xml-parser; the writer is @e-invoice-eu/core), over a table of invoices: each VAT category, several rates, a
 * discount, a foreign currency with its VAT in the base currency, a service period, a credit note. Every CII document
 * is also read by another library, factur-x-kit, and so is every Factur-X PDF, which it opens itself: they must find
 * what we issued (test/helpers/einvoice-independent.ts). UBL has no such second reader (decision 0160, "Tests").
 */

function plainPdf(): Promise<Buffer> {
  return new Promise((resolve) => {
    const doc = new PDFDocument({ size: 'A4', pdfVersion: '1.7' });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.text('Invoice');
    doc.end();
  });
}

const CASES: { name: string; build: () => { invoice: EInvoice }; notIn?: EInvoiceFormat }[] = [
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
];

/** What must survive the trip: everything the model holds that the formats carry. */
function essentials(inv: EInvoice) {
  return {
    typeCode: inv.typeCode,
    number: inv.number,
    issueDate: inv.issueDate,
    dueDate: inv.typeCode === '381' ? null : inv.dueDate,
    currency: inv.currency,
    vatAccounting: inv.vatAccounting,
    buyerReference: inv.buyerReference,
    preceding: inv.precedingInvoice?.number ?? null,
    period: [inv.supply.periodStart, inv.supply.periodEnd],
    seller: {
      name: inv.seller.name,
      vatId: inv.seller.vatId,
      address: inv.seller.address,
      endpoint: inv.seller.electronicAddress,
    },
    buyer: { name: inv.buyer.name, vatId: inv.buyer.vatId, address: inv.buyer.address, endpoint: inv.buyer.electronicAddress },
    iban: inv.payment?.iban ?? null,
    lines: inv.lines.map((l) => [l.id, l.name, l.quantity, l.unitCode, l.priceMinor, l.netMinor, l.category, l.rate]),
    allowances: inv.allowancesCharges.map((a) => [a.charge, a.amountMinor, a.category, a.rate]),
    vat: inv.vatBreakdown.map((b) => [b.category, b.rate, b.taxableMinor, b.taxMinor, b.exemptionReasonCode]),
    totals: inv.totals,
  };
}

/** Trips each independent reader made (and passed: a failed expectation throws before the count). */
const independent = { facturXKitXml: 0, facturXKitPdf: 0 };

/**
 * factur-x-kit (its own XML and PDF parsing and its own model) reads a CII document we wrote: it must find what we
 * issued, amount for amount in minor units, and its own EN 16931 checks must pass.
 */
async function expectFacturXKitReads(source: { xml: string } | { pdf: Uint8Array }, invoice: EInvoice) {
  const read = await readWithFacturXKit(source);
  expect(read.validation.errors ?? []).toEqual([]);
  expect(read.view).toEqual(issued(invoice));
  if ('xml' in source) independent.facturXKitXml++;
  else independent.facturXKitPdf++;
}

describe('e-invoice round trip', () => {
  let pdf: Buffer;
  let trips = 0;

  for (const c of CASES) {
    describe(c.name, () => {
      for (const format of E_INVOICE_FORMATS.filter((f) => f !== c.notIn)) {
        it(format, async () => {
          pdf ??= await plainPdf();
          const { invoice } = c.build();
          expect(checkEInvoice(invoice, FORMAT_INFO[format].cius)).toEqual([]);
          const written = await writeEInvoice(invoice, format, { lang: 'en', pdf });
          if (FORMAT_INFO[format].syntax === 'CII') expect(await validateCii(written.xml)).toEqual([]);
          let xml = written.xml;
          if (FORMAT_INFO[format].container === 'pdf') {
            expect(written.mimeType).toBe('application/pdf');
            const embedded = await embeddedInvoiceXml(written.bytes);
            expect(embedded?.fileName).toBe(format === 'factur-x-xrechnung' ? 'xrechnung.xml' : 'factur-x.xml');
            xml = embedded?.xml ?? '';
            // factur-x-kit opens only an attachment named factur-x.xml: the XRECHNUNG profile's xrechnung.xml is not one.
            if (format === 'factur-x-en16931') await expectFacturXKitReads({ pdf: written.bytes }, invoice);
          } else {
            expect(written.bytes.toString('utf8')).toBe(written.xml);
          }
          if (FORMAT_INFO[format].syntax === 'CII') await expectFacturXKitReads({ xml }, invoice);
          const read = readEInvoiceXml(xml);
          expect(read.syntax).toBe(FORMAT_INFO[format].syntax);
          expect(essentials(read.invoice)).toEqual(essentials(invoice));
          // What we read back passes the same rules: the reader loses nothing they look at.
          expect(checkEInvoice(read.invoice, FORMAT_INFO[format].cius)).toEqual([]);
          trips++;
        });
      }
    });
  }

  it('ran every case in every format it applies to', () => {
    expect(trips).toBe(CASES.length * E_INVOICE_FORMATS.length - CASES.filter((c) => c.notIn).length);
  });

  it('had every CII document read by factur-x-kit too, and every Factur-X PDF opened by it', () => {
    const cii = E_INVOICE_FORMATS.filter((f) => FORMAT_INFO[f].syntax === 'CII');
    expect(independent).toEqual({
      facturXKitXml: CASES.length * cii.length - CASES.filter((c) => c.notIn && cii.includes(c.notIn)).length,
      facturXKitPdf: CASES.length,
    });
  });

  it('refuses Peppol for a buyer without a Peppol participant id', () => {
    const { invoice } = CASES.find((c) => c.notIn)?.build() ?? { invoice: undefined };
    expect(invoice && checkEInvoice(invoice, 'peppol').map((f) => f.rule)).toEqual(['FD-PEPPOL-ID']);
  });
});
