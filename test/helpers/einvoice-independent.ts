/**
 * What a reader that shares nothing with our code must find in an e-invoice we issued (issue 25; decision 0160,
 * "Tests"): the same document, totals, VAT breakdown per category and rate, parties and lines, every amount in exact
 * minor units. `issued` states it from the invoice we wrote; each `read…` states it from another library's reading
 * of the bytes, so a test compares the two with one `toEqual`.
 */
import type { ComfortProfile } from 'factur-x-kit';
import type { EInvoice, Party } from '../../src-shared/domain/einvoice/model';
import { toUnitPrice, unitPriceText } from '../../src-shared/domain/unit-price';
import { toMinor } from '../../src-shared/money';

interface PartyView {
  name: string;
  vatId: string | null;
  countryCode: string | null;
  postCode: string | null;
  city: string | null;
  line1: string | null;
  endpoint: { scheme: string; value: string } | null;
}

export interface ReadBack {
  document: {
    typeCode: string;
    number: string;
    issueDate: string;
    currency: string;
    buyerReference: string | null;
    preceding: string | null;
    period: [string | null, string | null];
  };
  seller: PartyView;
  buyer: PartyView;
  /** id, quantity, unit, price, net amount, VAT category, rate. */
  lines: [string, number, string, string, number, string, number | null][];
  /** charge, amount, VAT category, rate. */
  allowances: [boolean, number, string, number | null][];
  /** category, rate, taxable amount, tax, exemption reason code. */
  vat: [string, number | null, number, number, string | null][];
  totals: {
    lineNet: number;
    allowances: number;
    charges: number;
    taxExclusive: number;
    vat: number;
    taxInclusive: number;
    prepaid: number;
    rounding: number;
    payable: number;
    /** BT-6 and BT-111. */
    vatAccounting: { currency: string; vat: number | null } | null;
  };
}

function partyView(p: Party): PartyView {
  return {
    name: p.name,
    vatId: p.vatId,
    countryCode: p.address.countryCode,
    postCode: p.address.postCode,
    city: p.address.city,
    line1: p.address.line1,
    endpoint: p.electronicAddress,
  };
}

/** What we issued, in the reader's terms. */
export function issued(inv: EInvoice): ReadBack {
  const t = inv.totals;
  return {
    document: {
      typeCode: inv.typeCode,
      number: inv.number,
      issueDate: inv.issueDate,
      currency: inv.currency,
      buyerReference: inv.buyerReference,
      preceding: inv.precedingInvoice?.number ?? null,
      period: [inv.supply.periodStart, inv.supply.periodEnd],
    },
    seller: partyView(inv.seller),
    buyer: partyView(inv.buyer),
    // The unit price as exact decimal text: it may carry two decimals more than the currency (unit-price.ts).
    lines: inv.lines.map((l) => [l.id, l.quantity, l.unitCode, unitPriceText(l, inv.currency), l.netMinor, l.category, l.rate]),
    allowances: inv.allowancesCharges.map((a) => [a.charge, a.amountMinor, a.category, a.rate]),
    vat: inv.vatBreakdown.map((b) => [b.category, b.rate, b.taxableMinor, b.taxMinor, b.exemptionReasonCode]),
    totals: {
      lineNet: t.lineNetMinor,
      allowances: t.allowancesMinor,
      charges: t.chargesMinor,
      taxExclusive: t.taxExclusiveMinor,
      vat: t.vatMinor,
      taxInclusive: t.taxInclusiveMinor,
      prepaid: t.prepaidMinor,
      rounding: t.roundingMinor,
      payable: t.payableMinor,
      vatAccounting: inv.vatAccounting && { currency: inv.vatAccounting.currency, vat: inv.vatAccounting.vatMinor },
    },
  };
}

const EN16931_CII = 'urn:cen.eu:en16931:2017';
const XRECHNUNG_CII = 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0';

/**
 * factur-x-kit 0.3.1 refuses XRechnung's specification identifier (BT-24) as "not yet implemented"
 * (dist/index.js:24706), though XRechnung is a CIUS: an XRechnung CII is an EN 16931 CII under stricter rules, which
 * its EN 16931 (Comfort) reader reads in full. So that one identifier is swapped before the library reads, and
 * nothing else of the document is touched.
 */
function asEn16931(xml: string): string {
  for (const id of [XRECHNUNG_CII, EN16931_CII]) {
    const found = `<ram:ID>${id}</ram:ID>`;
    if (xml.includes(found)) return xml.replace(found, `<ram:ID>${EN16931_CII}</ram:ID>`);
  }
  throw new Error('neither an EN 16931 nor an XRechnung CII document');
}

type FxDate = { year: number; month: number; day: number } | undefined;
const isoDay = (d: FxDate) => (d ? `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}` : null);

function fxParty(p: ComfortProfile['seller'] | ComfortProfile['buyer']): PartyView {
  const uri = p.universalCommunicationAddressURI;
  const tax = p.taxIdentification;
  return {
    name: p.name,
    vatId: (tax && 'vatId' in tax && tax.vatId) || null,
    countryCode: p.postalAddress?.country ?? null,
    postCode: p.postalAddress?.postcode ?? null,
    city: p.postalAddress?.city ?? null,
    line1: p.postalAddress?.addressLineOne ?? null,
    endpoint: uri ? { scheme: uri.scheme, value: uri.id } : null,
  };
}

/** factur-x-kit's object of an EN 16931 CII, in the reader's terms: amounts to minor units, refusing any rounding. */
export function fromFacturXKit(o: ComfortProfile): ReadBack {
  const currency = o.document.currency;
  const m = (amount: number | undefined) => (amount === undefined ? 0 : toMinor(amount, currency));
  const t = o.totals;
  const inAccounting = t.taxCurrency && t.taxCurrency !== currency ? t.taxCurrency : null;
  const vatIn = (c: string) => t.taxTotal?.find((x) => x.currency === c)?.amount;
  const allowances = t.documentLevelAllowancesAndCharges;
  const accountingVat = inAccounting ? vatIn(inAccounting) : undefined;
  return {
    document: {
      typeCode: o.document.type,
      number: o.document.id,
      issueDate: isoDay(o.document.dateOfIssue) ?? '',
      currency,
      buyerReference: o.buyer.reference ?? null,
      preceding: o.referencedDocuments?.referencedInvoice?.[0]?.documentId ?? null,
      period: [isoDay(o.delivery?.billingPeriod?.startDate), isoDay(o.delivery?.billingPeriod?.endDate)],
    },
    seller: fxParty(o.seller),
    buyer: fxParty(o.buyer),
    lines: (o.invoiceLines ?? []).map((l) => [
      l.generalLineData.lineId,
      l.delivery.itemQuantity.quantity,
      l.delivery.itemQuantity.unit,
      unitPriceText(toUnitPrice(l.productPriceAgreement.productNetPricing.netPricePerItem ?? 0, currency), currency),
      m(l.settlement.lineTotals.netTotal),
      l.settlement.tax.categoryCode,
      l.settlement.tax.rateApplicablePercent ?? null,
    ]),
    allowances: [
      ...(allowances?.allowances ?? []).map((a) => [false, a.actualAmount, a.categoryTradeTax] as const),
      ...(allowances?.charges ?? []).map((c) => [true, c.actualAmount, c.categoryTradeTax] as const),
    ].map(([charge, amount, tax]) => [charge, m(amount), tax.categoryCode, tax.rateApplicablePercent ?? null]),
    vat: t.taxBreakdown.map((b) => [
      b.categoryCode,
      b.rateApplicablePercent ?? null,
      m(b.basisAmount),
      m(b.calculatedAmount),
      b.exemptionReasonCode ?? null,
    ]),
    totals: {
      lineNet: m(t.sumWithoutAllowancesAndCharges),
      allowances: m(t.allowanceTotalAmount),
      charges: m(t.chargeTotalAmount),
      taxExclusive: m(t.netTotal),
      vat: m(vatIn(currency)),
      taxInclusive: m(t.grossTotal),
      prepaid: m(t.prepaidAmount),
      rounding: m(t.roundingAmount),
      payable: m(t.openAmount),
      vatAccounting: inAccounting && {
        currency: inAccounting,
        vat: accountingVat === undefined ? null : toMinor(accountingVat, inAccounting),
      },
    },
  };
}

/**
 * factur-x-kit reads a CII document (XML) or a Factur-X PDF (its own PDF parsing, which finds only an attachment
 * named factur-x.xml): what it found, its profile, and what its own EN 16931 checks say.
 */
export async function readWithFacturXKit(source: { xml: string } | { pdf: Uint8Array }) {
  const { FacturX } = await import('factur-x-kit');
  const fx = 'xml' in source ? await FacturX.fromXML(asEn16931(source.xml)) : await FacturX.fromPDF(source.pdf);
  const object = fx.object as ComfortProfile;
  return { profile: object.profile, view: fromFacturXKit(object), validation: fx.validate() };
}
