import { describe, expect, it } from 'vitest';
import { writeEInvoiceXml } from '../../../src-main/einvoice/write';
import { mapInvoice } from '../../../src-shared/domain/einvoice/from-invoice';
import { E_INVOICE_FORMATS, type EInvoice, type EInvoiceFormat, FORMAT_INFO } from '../../../src-shared/domain/einvoice/model';
import { checkEInvoice } from '../../../src-shared/domain/einvoice/rules';
import { checkOfficially, type OfficialResult, RULES_OF_FORMAT } from '../../helpers/official-einvoice-rules';
import { CASES } from '../../shared/domain/einvoice/cases';
import { BUYERS, invoiceOf, line, SELLER } from '../../shared/domain/einvoice/sources';

/**
 * The official rules a receiver applies (CEN's EN 16931 artefacts, Peppol BIS 3.0, KoSIT's XRechnung;
 * test/helpers/official-einvoice-rules.ts) against the product's own check (src-shared/domain/einvoice/rules.ts).
 * Every invoice fixture the product issues passes both in every format (round-trip.test.ts, where each is written
 * anyway); here the other side: the cases the product refuses in a format are refused by the official rules too, and
 * deliberately broken invoices are refused by both, by the official rules for the reason each case names.
 *
 * An invoice our check passes and the official rules refuse would go out and be rejected by its receiver; one our
 * check refuses and the official rules pass would be kept from a customer for nothing. Neither may exist here.
 */

/** Each written XML once per process: a broken case shared by two formats of the same XML is checked once. */
const verdicts = new Map<string, Promise<OfficialResult>>();

/**
 * The official verdict on the XML of `format`: the document, or the XML a hybrid's PDF carries, written exactly as it
 * would be embedded (the round trip takes it out of real PDFs) without making the PDF.
 */
function official(invoice: EInvoice, format: EInvoiceFormat): Promise<OfficialResult> {
  const key = `${format === 'factur-x-xrechnung' ? 'xrechnung-cii' : format}|${JSON.stringify(invoice)}`;
  let verdict = verdicts.get(key);
  if (!verdict) {
    verdict = writeEInvoiceXml(invoice, format, { lang: 'en' }).then((xml) => checkOfficially(xml, RULES_OF_FORMAT[format]));
    verdicts.set(key, verdict);
  }
  return verdict;
}

const ours = (invoice: EInvoice, format: EInvoiceFormat) => checkEInvoice(invoice, FORMAT_INFO[format].cius).map((f) => f.rule);

describe('the invoices the product refuses to issue in a format are refused by the official rules too', () => {
  for (const c of CASES.filter((x) => x.notIn)) {
    const format = c.notIn as EInvoiceFormat;
    it(`${c.name}: ${format}`, async () => {
      const { invoice } = c.build();
      expect(ours(invoice, format)).not.toEqual([]);
      expect((await official(invoice, format)).fatal.length).toBeGreaterThan(0);
    });
  }
});

interface Broken {
  name: string;
  build: () => EInvoice;
  /**
   * The rule each format must fail, at least, in the official rules and in ours (the formats not named are not
   * checked); a pair where the syntax binding has its own id for the same rule (CII-SR-470 is BR-61 in CII).
   */
  expect: Partial<Record<EInvoiceFormat, string | readonly [official: string, ours: string]>>;
}

const ALL = (id: string) => Object.fromEntries(E_INVOICE_FORMATS.map((f) => [f, id])) as Record<EInvoiceFormat, string>;
const BY_SYNTAX = (ubl: string, cii: readonly [string, string]) =>
  Object.fromEntries(E_INVOICE_FORMATS.map((f) => [f, FORMAT_INFO[f].syntax === 'UBL' ? ubl : cii])) as Broken['expect'];
const standard = () => mapInvoice(invoiceOf([line('Consulting', 3, 15000)]), SELLER, BUYERS.de).invoice;
const caseNamed = (name: string) => {
  const c = CASES.find((x) => x.name.startsWith(name));
  if (!c) throw new Error(`no case ${name}`);
  return c.build().invoice;
};
const peppolBuyer = (scheme: string, value: string) => () => {
  const inv = standard();
  inv.buyer.electronicAddress = { scheme, value };
  return inv;
};

const BROKEN: Broken[] = [
  {
    name: 'a buyer GLN (0088) with a wrong check digit',
    build: peppolBuyer('0088', '5790000435969'),
    expect: { 'peppol-bis-3': 'PEPPOL-COMMON-R040' },
  },
  {
    name: 'a seller GLN (0088) with a wrong check digit',
    build: () => {
      const inv = standard();
      inv.seller.electronicAddress = { scheme: '0088', value: '1234567890123' };
      return inv;
    },
    expect: { 'peppol-bis-3': 'PEPPOL-COMMON-R040' },
  },
  {
    name: 'a Norwegian organisation number (0192) with a wrong check digit',
    build: peppolBuyer('0192', '745707328'),
    expect: { 'peppol-bis-3': 'PEPPOL-COMMON-R041' },
  },
  {
    name: 'a Danish CVR number (0184) of 7 digits',
    build: peppolBuyer('0184', 'DK1234567'),
    expect: { 'peppol-bis-3': 'PEPPOL-COMMON-R042' },
  },
  {
    name: 'a Belgian enterprise number (0208) with wrong check digits',
    build: peppolBuyer('0208', '0123456789'),
    expect: { 'peppol-bis-3': 'PEPPOL-COMMON-R043' },
  },
  {
    name: 'a Swedish organisation number (0007) with a wrong check digit',
    build: peppolBuyer('0007', '5566778898'),
    expect: { 'peppol-bis-3': 'PEPPOL-COMMON-R049' },
  },
  {
    name: 'an Australian Business Number (0151) with wrong check digits',
    build: peppolBuyer('0151', '51824753557'),
    expect: { 'peppol-bis-3': 'PEPPOL-COMMON-R050' },
  },
  {
    name: 'an intra-community supply whose deliver-to address has no city',
    build: () => {
      const inv = caseNamed('intra-community supply (K) to France');
      if (inv.delivery) inv.delivery.address.city = null;
      return inv;
    },
    expect: { 'xrechnung-ubl': 'BR-DE-10', 'xrechnung-cii': 'BR-DE-10', 'factur-x-xrechnung': 'BR-DE-10' },
  },
  {
    name: 'an intra-community supply whose deliver-to address has no post code',
    build: () => {
      const inv = caseNamed('intra-community supply (K) to France');
      if (inv.delivery) inv.delivery.address.postCode = null;
      return inv;
    },
    expect: { 'xrechnung-ubl': 'BR-DE-11', 'xrechnung-cii': 'BR-DE-11', 'factur-x-xrechnung': 'BR-DE-11' },
  },
  {
    name: 'an intra-community supply without a deliver-to country',
    build: () => {
      const inv = caseNamed('intra-community supply (K) to France');
      inv.delivery = null;
      return inv;
    },
    expect: ALL('BR-IC-12'),
  },
  {
    name: 'an intra-community supply from a seller with a tax number but no VAT id',
    build: () => {
      const inv = caseNamed('intra-community supply (K) to France');
      inv.seller.vatId = null;
      inv.seller.taxRegistrationId = '21/815/08150';
      inv.seller.legalId = 'HRB 234567 B';
      return inv;
    },
    expect: ALL('BR-IC-02'),
  },
  {
    name: 'a standard-rated invoice from a seller with neither VAT id nor tax number',
    build: () => {
      const inv = standard();
      inv.seller.vatId = null;
      inv.seller.legalId = 'HRB 234567 B';
      return inv;
    },
    expect: ALL('BR-S-02'),
  },
  {
    name: 'a small business with a tax number but neither VAT id nor legal registration id',
    build: () => {
      const inv = caseNamed('a small business without a VAT id');
      inv.seller.legalId = null;
      return inv;
    },
    expect: ALL('BR-CO-26'),
  },
  {
    name: 'a small business with a register entry but no tax number',
    build: () => {
      const inv = caseNamed('a small business without a VAT id');
      inv.seller.taxRegistrationId = null;
      return inv;
    },
    expect: ALL('BR-E-02'),
  },
  {
    name: 'an exempt invoice without an exemption reason',
    build: () => {
      const inv = caseNamed('exempt with a reason (E)');
      for (const b of inv.vatBreakdown) {
        b.exemptionReason = null;
        b.exemptionReasonCode = null;
      }
      return inv;
    },
    expect: ALL('BR-E-10'),
  },
  {
    name: 'a VAT total that is not the sum of its breakdown',
    build: () => {
      const inv = standard();
      inv.totals.vatMinor += 1;
      inv.totals.taxInclusiveMinor += 1;
      inv.totals.payableMinor += 1;
      return inv;
    },
    expect: ALL('BR-CO-14'),
  },
  {
    name: 'a line total that is not the sum of the lines',
    build: () => {
      const inv = standard();
      inv.totals.lineNetMinor += 100;
      return inv;
    },
    expect: ALL('BR-CO-10'),
  },
  {
    name: 'a standard-rated line at 0 %',
    build: () => {
      const inv = standard();
      for (const l of inv.lines) l.rate = 0;
      return inv;
    },
    expect: ALL('BR-S-05'),
  },
  {
    name: 'a credit transfer without the payee account',
    build: () => {
      const inv = standard();
      if (inv.payment) inv.payment.iban = null;
      return inv;
    },
    expect: BY_SYNTAX('BR-61', ['CII-SR-470', 'BR-61']),
  },
  {
    name: 'no buyer reference',
    build: () => {
      const inv = standard();
      inv.buyerReference = null;
      return inv;
    },
    expect: {
      'xrechnung-ubl': 'BR-DE-15',
      'xrechnung-cii': 'BR-DE-15',
      'factur-x-xrechnung': 'BR-DE-15',
      'peppol-bis-3': 'PEPPOL-EN16931-R003',
    },
  },
  {
    name: 'a seller contact without a telephone number',
    build: () => {
      const inv = standard();
      if (inv.seller.contact) inv.seller.contact.phone = null;
      return inv;
    },
    expect: { 'xrechnung-ubl': 'BR-DE-6', 'xrechnung-cii': 'BR-DE-6', 'factur-x-xrechnung': 'BR-DE-6' },
  },
];

describe('deliberately broken invoices: refused by our check and by the official rules alike', () => {
  for (const b of BROKEN) {
    describe(b.name, () => {
      for (const [format, ids] of Object.entries(b.expect) as [EInvoiceFormat, string | readonly [string, string]][]) {
        const [officialId, ourId] = typeof ids === 'string' ? [ids, ids] : ids;
        it(`${format}: ${officialId}`, async () => {
          const invoice = b.build();
          const result = await official(invoice, format);
          expect(result.fatal.map((f) => f.id)).toContain(officialId);
          expect(ours(invoice, format)).toContain(ourId);
        });
      }
    });
  }
});
