import { describe, expect, it } from 'vitest';
import { embeddedInvoiceXml } from '../../../src-main/documents/embedded-invoice';
import { readEInvoiceXml } from '../../../src-main/einvoice/read';
import { validateCii } from '../../../src-main/einvoice/schema';
import { writeEInvoice } from '../../../src-main/einvoice/write';
import { E_INVOICE_FORMATS, type EInvoice, FORMAT_INFO } from '../../../src-shared/domain/einvoice/model';
import { checkEInvoice } from '../../../src-shared/domain/einvoice/rules';
import { issued, readWithFacturXKit } from '../../helpers/einvoice-independent';
import { checkOfficially, describeAssert, RULES_OF_FORMAT } from '../../helpers/official-einvoice-rules';
import { CASES, plainPdf } from '../../shared/domain/einvoice/cases';

/**
 * Every format we issue, read back by a reader that shares no code with the writer (src-main/einvoice/read.ts over
 * fast-xml-parser; the writer is @e-invoice-eu/core), over a table of invoices: each VAT category, several rates, a
 * discount, a foreign currency with its VAT in the base currency, a service period, a credit note. Every CII document
 * is also read by another library, factur-x-kit, and so is every Factur-X PDF, which it opens itself: they must find
 * what we issued (test/helpers/einvoice-independent.ts). UBL has no such second reader (decision 0160, "Tests").
 *
 * Each document is also checked by the official rules its receiver applies (CEN's EN 16931 artefacts, Peppol BIS 3.0,
 * KoSIT's XRechnung: test/helpers/official-einvoice-rules.ts), a hybrid by the XML taken out of its PDF: not one
 * fatal assert may fire where our own check passed it. (Here, where every document is written anyway; the cases the
 * product refuses and deliberately broken invoices are in official-rules.test.ts.)
 */

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
    delivery: inv.delivery,
    seller: {
      name: inv.seller.name,
      vatId: inv.seller.vatId,
      legalId: inv.seller.legalId,
      taxId: inv.seller.taxRegistrationId,
      address: inv.seller.address,
      endpoint: inv.seller.electronicAddress,
    },
    buyer: { name: inv.buyer.name, vatId: inv.buyer.vatId, address: inv.buyer.address, endpoint: inv.buyer.electronicAddress },
    iban: inv.payment?.iban ?? null,
    lines: inv.lines.map((l) => [
      l.id,
      l.name,
      l.quantity,
      l.unitCode,
      l.priceMinor,
      l.priceScale ?? 0,
      l.netMinor,
      l.category,
      l.rate,
    ]),
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
          const official = checkOfficially(xml, RULES_OF_FORMAT[format]);
          expect(official.fatal.map(describeAssert)).toEqual([]);
          for (const set of RULES_OF_FORMAT[format]) expect(official.fired[set]).toBeGreaterThan(0);
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

  it('refuses Peppol for a party without a Peppol participant id (an email address only)', () => {
    for (const c of CASES.filter((x) => x.notIn === 'peppol-bis-3')) {
      expect(checkEInvoice(c.build().invoice, 'peppol').map((f) => f.rule)).toEqual(['FD-PEPPOL-ID']);
    }
  });
});
