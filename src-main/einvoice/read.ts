import { XMLParser } from 'fast-xml-parser';
import type {
  Address,
  EInvoice,
  Line,
  Party,
  PaymentInstructions,
  VatBreakdown,
  VatCategory,
} from '../../src-shared/domain/einvoice/model';
import { EMPTY_ADDRESS, isVatCategory } from '../../src-shared/domain/einvoice/model';
import { parseDecimal, pow10, roundDiv } from '../../src-shared/domain/exact';
import { UNIT_PRICE_EXTRA_DECIMALS, type UnitPrice } from '../../src-shared/domain/unit-price';
import { currencyExponent, isCurrencyCode } from '../../src-shared/money';

/**
 * A received e-invoice's XML → the EN 16931 model, for UBL 2.1 (Invoice, CreditNote) and UN/CEFACT CII D16B: our own
 * mapping over fast-xml-parser, written from the syntax bindings of EN 16931-3-2 and -3-3, and independent of the
 * library that writes ours (so the round-trip tests read our output with other code than wrote it). Namespace
 * prefixes are dropped (documents use any prefix). What the model cannot hold is ignored; what a receiver needs and
 * cannot find is a clear EInvoiceReadError, never a guess.
 */

export class EInvoiceReadError extends Error {
  override name = 'EInvoiceReadError';
}

type Node = Record<string, unknown>;

const ARRAYS = new Set([
  'InvoiceLine',
  'CreditNoteLine',
  'TaxTotal',
  'TaxSubtotal',
  'AllowanceCharge',
  'PaymentMeans',
  'PartyTaxScheme',
  'Note',
  'BillingReference',
  'IncludedSupplyChainTradeLineItem',
  'ApplicableTradeTax',
  'SpecifiedTradeAllowanceCharge',
  'SpecifiedTradeSettlementPaymentMeans',
  'SpecifiedTaxRegistration',
  'IncludedNote',
  'TaxTotalAmount',
  'SpecifiedTradePaymentTerms',
  'InvoiceReferencedDocument',
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  isArray: (name) => ARRAYS.has(name),
});

function child(node: unknown, ...path: string[]): unknown {
  let cur = node;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    const next: unknown = (cur as Node)[key];
    cur = Array.isArray(next) ? next[0] : next;
  }
  return cur;
}

function list(node: unknown, key: string): Node[] {
  if (node === null || typeof node !== 'object') return [];
  const v = (node as Node)[key];
  return (Array.isArray(v) ? v : v === undefined ? [] : [v]) as Node[];
}

function text(node: unknown, ...path: string[]): string | null {
  const v = child(node, ...path);
  if (v === null || v === undefined) return null;
  if (typeof v === 'object') {
    const t = (v as Node)['#text'];
    return t === undefined || t === null ? null : String(t).trim() || null;
  }
  return String(v).trim() || null;
}

function attr(node: unknown, name: string, ...path: string[]): string | null {
  const v = child(node, ...path);
  return v && typeof v === 'object' ? (((v as Node)[`@${name}`] as string | undefined) ?? null) : null;
}

/** "1234.5" in a currency → minor units, rounded half away from zero past the currency's decimals. */
export function minorOf(value: string | null, currency: string): number | null {
  if (value === null) return null;
  let d: ReturnType<typeof parseDecimal>;
  try {
    d = parseDecimal(value);
  } catch {
    throw new EInvoiceReadError(`"${value}" is not an amount`);
  }
  const exp = currencyExponent(currency);
  const n = d.scale <= exp ? d.num * pow10(exp - d.scale) : roundDiv(d.num, pow10(d.scale - exp));
  return Number(n);
}

/**
 * An item net price (BT-146) as a unit price (src-shared/domain/unit-price.ts): exact up to two decimals beyond the
 * currency's, rounded half away from zero past that (a sender may state more).
 */
export function unitPriceOf(value: string | null, currency: string): UnitPrice {
  if (value === null) return { priceMinor: 0 };
  let d: ReturnType<typeof parseDecimal>;
  try {
    d = parseDecimal(value);
  } catch {
    throw new EInvoiceReadError(`"${value}" is not a price`);
  }
  const exp = currencyExponent(currency);
  const scale = Math.min(Math.max(d.scale - exp, 0), UNIT_PRICE_EXTRA_DECIMALS);
  const places = exp + scale;
  const n = d.scale <= places ? d.num * pow10(places - d.scale) : roundDiv(d.num, pow10(d.scale - places));
  // The smallest scale that holds it: 12.5000 is 1250 minor units.
  let units = n;
  let s = scale;
  while (s > 0 && units % 10n === 0n) {
    units /= 10n;
    s--;
  }
  return s === 0 ? { priceMinor: Number(units) } : { priceMinor: Number(units), priceScale: s };
}

const num = (value: string | null): number | null => (value === null || Number.isNaN(Number(value)) ? null : Number(value));

/** CII dates are "20250115" (format 102); UBL's are already ISO. */
function isoDay(value: string | null): string | null {
  if (!value) return null;
  if (/^\d{8}$/.test(value)) return `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`;
  return /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : null;
}

function category(value: string | null): VatCategory {
  if (!isVatCategory(value)) throw new EInvoiceReadError(`unknown VAT category ${value ?? '(none)'}`);
  return value;
}

function need<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined || value === '') throw new EInvoiceReadError(`the e-invoice has no ${what}`);
  return value;
}

// UBL 2.1 (EN 16931-3-2).

function ublAddress(a: unknown): Address {
  return {
    line1: text(a, 'StreetName'),
    line2: text(a, 'AdditionalStreetName'),
    city: text(a, 'CityName'),
    postCode: text(a, 'PostalZone'),
    subdivision: text(a, 'CountrySubentity'),
    countryCode: text(a, 'Country', 'IdentificationCode'),
  };
}

function ublParty(p: unknown): Party {
  const schemes = list(p, 'PartyTaxScheme');
  const isVat = (s: unknown) => (text(s, 'TaxScheme', 'ID') ?? 'VAT').toUpperCase() === 'VAT';
  const vat = schemes.find(isVat);
  const tax = schemes.find((s) => !isVat(s));
  const endpoint = text(p, 'EndpointID');
  const contact = child(p, 'Contact');
  return {
    name: need(text(p, 'PartyLegalEntity', 'RegistrationName') ?? text(p, 'PartyName', 'Name'), 'party name'),
    vatId: vat ? text(vat, 'CompanyID') : null,
    legalId: text(p, 'PartyLegalEntity', 'CompanyID'),
    taxRegistrationId: tax ? text(tax, 'CompanyID') : null,
    electronicAddress: endpoint ? { scheme: attr(p, 'schemeID', 'EndpointID') ?? '', value: endpoint } : null,
    address: ublAddress(child(p, 'PostalAddress')),
    contact: contact
      ? { name: text(contact, 'Name'), phone: text(contact, 'Telephone'), email: text(contact, 'ElectronicMail') }
      : null,
  };
}

function readUbl(doc: Node, credit: boolean): EInvoice {
  const currency = need(text(doc, 'DocumentCurrencyCode'), 'currency (BT-5)');
  if (!isCurrencyCode(currency)) throw new EInvoiceReadError(`unknown currency ${currency}`);
  const m = (v: string | null) => minorOf(v, currency) ?? 0;
  const taxCurrency = text(doc, 'TaxCurrencyCode');
  const taxTotals = list(doc, 'TaxTotal');
  const main = taxTotals.find((t) => (attr(t, 'currencyID', 'TaxAmount') ?? currency) === currency) ?? taxTotals[0];
  const accounting =
    taxCurrency && taxCurrency !== currency
      ? taxTotals.find((t) => attr(t, 'currencyID', 'TaxAmount') === taxCurrency)
      : undefined;
  const vatBreakdown: VatBreakdown[] = list(main, 'TaxSubtotal').map((s) => ({
    category: category(text(s, 'TaxCategory', 'ID')),
    rate: num(text(s, 'TaxCategory', 'Percent')) ?? 0,
    taxableMinor: m(text(s, 'TaxableAmount')),
    taxMinor: m(text(s, 'TaxAmount')),
    exemptionReason: text(s, 'TaxCategory', 'TaxExemptionReason'),
    exemptionReasonCode: text(s, 'TaxCategory', 'TaxExemptionReasonCode'),
  }));
  const lines: Line[] = list(doc, credit ? 'CreditNoteLine' : 'InvoiceLine').map((l) => {
    const qtyKey = credit ? 'CreditedQuantity' : 'InvoicedQuantity';
    return {
      id: text(l, 'ID') ?? '',
      name: text(l, 'Item', 'Name') ?? '',
      quantity: num(text(l, qtyKey)) ?? 0,
      unitCode: attr(l, 'unitCode', qtyKey) ?? '',
      ...unitPriceOf(text(l, 'Price', 'PriceAmount'), currency),
      netMinor: m(text(l, 'LineExtensionAmount')),
      category: category(text(l, 'Item', 'ClassifiedTaxCategory', 'ID')),
      rate: num(text(l, 'Item', 'ClassifiedTaxCategory', 'Percent')) ?? 0,
    };
  });
  const means = list(doc, 'PaymentMeans')[0];
  const payment: PaymentInstructions | null = means
    ? {
        meansCode: text(means, 'PaymentMeansCode') ?? '',
        iban: text(means, 'PayeeFinancialAccount', 'ID'),
        bic: text(means, 'PayeeFinancialAccount', 'FinancialInstitutionBranch', 'ID'),
        accountName: text(means, 'PayeeFinancialAccount', 'Name'),
        remittance: text(means, 'PaymentID'),
      }
    : null;
  const t = child(doc, 'LegalMonetaryTotal');
  const preceding = child(doc, 'BillingReference', 'InvoiceDocumentReference');
  const typeCode = text(doc, credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode');
  return {
    typeCode: credit || typeCode === '381' ? '381' : '380',
    number: need(text(doc, 'ID'), 'invoice number (BT-1)'),
    issueDate: need(isoDay(text(doc, 'IssueDate')), 'issue date (BT-2)'),
    dueDate: isoDay(text(doc, 'DueDate') ?? (means ? text(means, 'PaymentDueDate') : null)),
    currency,
    vatAccounting:
      taxCurrency && taxCurrency !== currency
        ? { currency: taxCurrency, vatMinor: accounting ? minorOf(text(accounting, 'TaxAmount'), taxCurrency) : null }
        : null,
    buyerReference: text(doc, 'BuyerReference'),
    precedingInvoice: preceding ? { number: text(preceding, 'ID') ?? '', issueDate: isoDay(text(preceding, 'IssueDate')) } : null,
    delivery: child(doc, 'Delivery', 'DeliveryLocation', 'Address')
      ? { address: ublAddress(child(doc, 'Delivery', 'DeliveryLocation', 'Address')) }
      : null,
    supply: {
      date: isoDay(text(doc, 'Delivery', 'ActualDeliveryDate')),
      periodStart: isoDay(text(doc, 'InvoicePeriod', 'StartDate')),
      periodEnd: isoDay(text(doc, 'InvoicePeriod', 'EndDate')),
    },
    notes: list(doc, 'Note')
      .map((n) => text({ n }, 'n') ?? '')
      .filter(Boolean),
    seller: ublParty(need(child(doc, 'AccountingSupplierParty', 'Party'), 'seller (BG-4)')),
    buyer: ublParty(need(child(doc, 'AccountingCustomerParty', 'Party'), 'buyer (BG-7)')),
    payment,
    paymentTerms: text(doc, 'PaymentTerms', 'Note'),
    lines,
    allowancesCharges: list(doc, 'AllowanceCharge').map((a) => ({
      charge: text(a, 'ChargeIndicator') === 'true',
      amountMinor: m(text(a, 'Amount')),
      reason: text(a, 'AllowanceChargeReason') ?? '',
      category: category(text(a, 'TaxCategory', 'ID')),
      rate: num(text(a, 'TaxCategory', 'Percent')) ?? 0,
    })),
    vatBreakdown,
    totals: {
      lineNetMinor: m(text(t, 'LineExtensionAmount')),
      allowancesMinor: m(text(t, 'AllowanceTotalAmount')),
      chargesMinor: m(text(t, 'ChargeTotalAmount')),
      taxExclusiveMinor: m(text(t, 'TaxExclusiveAmount')),
      vatMinor: m(text(main, 'TaxAmount')),
      taxInclusiveMinor: m(text(t, 'TaxInclusiveAmount')),
      prepaidMinor: m(text(t, 'PrepaidAmount')),
      roundingMinor: m(text(t, 'PayableRoundingAmount')),
      payableMinor: need(minorOf(text(t, 'PayableAmount'), currency), 'amount due (BT-115)'),
    },
  };
}

// UN/CEFACT CII D16B (EN 16931-3-3).

function ciiAddress(a: unknown): Address {
  return a
    ? {
        line1: text(a, 'LineOne'),
        line2: text(a, 'LineTwo'),
        city: text(a, 'CityName'),
        postCode: text(a, 'PostcodeCode'),
        subdivision: text(a, 'CountrySubDivisionName'),
        countryCode: text(a, 'CountryID'),
      }
    : EMPTY_ADDRESS;
}

function ciiParty(p: unknown): Party {
  const regs = list(p, 'SpecifiedTaxRegistration');
  const vat = regs.find((r) => attr(r, 'schemeID', 'ID') === 'VA');
  const tax = regs.find((r) => attr(r, 'schemeID', 'ID') === 'FC');
  const uri = child(p, 'URIUniversalCommunication');
  const contact = child(p, 'DefinedTradeContact');
  return {
    name: need(text(p, 'Name'), 'party name'),
    vatId: vat ? text(vat, 'ID') : null,
    legalId: text(p, 'SpecifiedLegalOrganization', 'ID'),
    taxRegistrationId: tax ? text(tax, 'ID') : null,
    electronicAddress: text(uri, 'URIID')
      ? { scheme: attr(uri, 'schemeID', 'URIID') ?? '', value: text(uri, 'URIID') ?? '' }
      : null,
    address: ciiAddress(child(p, 'PostalTradeAddress')),
    contact: contact
      ? {
          name: text(contact, 'PersonName'),
          phone: text(contact, 'TelephoneUniversalCommunication', 'CompleteNumber'),
          email: text(contact, 'EmailURIUniversalCommunication', 'URIID'),
        }
      : null,
  };
}

function readCii(root: Node): EInvoice {
  const docNode = child(root, 'ExchangedDocument');
  const tx = need(child(root, 'SupplyChainTradeTransaction'), 'trade transaction');
  const agreement = child(tx, 'ApplicableHeaderTradeAgreement');
  const settlement = child(tx, 'ApplicableHeaderTradeSettlement');
  const currency = need(text(settlement, 'InvoiceCurrencyCode'), 'currency (BT-5)');
  if (!isCurrencyCode(currency)) throw new EInvoiceReadError(`unknown currency ${currency}`);
  const m = (v: string | null) => minorOf(v, currency) ?? 0;
  const sums = child(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation');
  const taxCurrency = text(settlement, 'TaxCurrencyCode');
  const taxTotals = list(sums, 'TaxTotalAmount');
  const main = taxTotals.find((t) => (attr({ t }, 'currencyID', 't') ?? currency) === currency);
  const accounting =
    taxCurrency && taxCurrency !== currency ? taxTotals.find((t) => attr({ t }, 'currencyID', 't') === taxCurrency) : undefined;
  const means = list(settlement, 'SpecifiedTradeSettlementPaymentMeans')[0];
  const terms = list(settlement, 'SpecifiedTradePaymentTerms')[0];
  const preceding = list(settlement, 'InvoiceReferencedDocument')[0];
  const period = child(settlement, 'BillingSpecifiedPeriod');
  const typeCode = text(docNode, 'TypeCode');
  return {
    typeCode: typeCode === '381' ? '381' : '380',
    number: need(text(docNode, 'ID'), 'invoice number (BT-1)'),
    issueDate: need(isoDay(text(docNode, 'IssueDateTime', 'DateTimeString')), 'issue date (BT-2)'),
    dueDate: isoDay(text(terms, 'DueDateDateTime', 'DateTimeString')),
    currency,
    vatAccounting:
      taxCurrency && taxCurrency !== currency
        ? { currency: taxCurrency, vatMinor: accounting ? minorOf(text({ accounting }, 'accounting'), taxCurrency) : null }
        : null,
    buyerReference: text(agreement, 'BuyerReference'),
    precedingInvoice: preceding
      ? {
          number: text(preceding, 'IssuerAssignedID') ?? '',
          issueDate: isoDay(text(preceding, 'FormattedIssueDateTime', 'DateTimeString')),
        }
      : null,
    delivery: child(tx, 'ApplicableHeaderTradeDelivery', 'ShipToTradeParty', 'PostalTradeAddress')
      ? { address: ciiAddress(child(tx, 'ApplicableHeaderTradeDelivery', 'ShipToTradeParty', 'PostalTradeAddress')) }
      : null,
    supply: {
      date: isoDay(
        text(tx, 'ApplicableHeaderTradeDelivery', 'ActualDeliverySupplyChainEvent', 'OccurrenceDateTime', 'DateTimeString'),
      ),
      periodStart: isoDay(text(period, 'StartDateTime', 'DateTimeString')),
      periodEnd: isoDay(text(period, 'EndDateTime', 'DateTimeString')),
    },
    notes: list(docNode, 'IncludedNote')
      .map((n) => text(n, 'Content') ?? '')
      .filter(Boolean),
    seller: ciiParty(need(child(agreement, 'SellerTradeParty'), 'seller (BG-4)')),
    buyer: ciiParty(need(child(agreement, 'BuyerTradeParty'), 'buyer (BG-7)')),
    payment: means
      ? {
          meansCode: text(means, 'TypeCode') ?? '',
          iban:
            text(means, 'PayeePartyCreditorFinancialAccount', 'IBANID') ??
            text(means, 'PayeePartyCreditorFinancialAccount', 'ProprietaryID'),
          bic: text(means, 'PayeeSpecifiedCreditorFinancialInstitution', 'BICID'),
          accountName: text(means, 'PayeePartyCreditorFinancialAccount', 'AccountName'),
          remittance: text(settlement, 'PaymentReference'),
        }
      : null,
    paymentTerms: text(terms, 'Description'),
    lines: list(tx, 'IncludedSupplyChainTradeLineItem').map((l) => {
      const tax = list(child(l, 'SpecifiedLineTradeSettlement'), 'ApplicableTradeTax')[0];
      return {
        id: text(l, 'AssociatedDocumentLineDocument', 'LineID') ?? '',
        name: text(l, 'SpecifiedTradeProduct', 'Name') ?? '',
        quantity: num(text(l, 'SpecifiedLineTradeDelivery', 'BilledQuantity')) ?? 0,
        unitCode: attr(l, 'unitCode', 'SpecifiedLineTradeDelivery', 'BilledQuantity') ?? '',
        ...unitPriceOf(text(l, 'SpecifiedLineTradeAgreement', 'NetPriceProductTradePrice', 'ChargeAmount'), currency),
        netMinor: m(text(l, 'SpecifiedLineTradeSettlement', 'SpecifiedTradeSettlementLineMonetarySummation', 'LineTotalAmount')),
        category: category(text(tax, 'CategoryCode')),
        rate: num(text(tax, 'RateApplicablePercent')) ?? 0,
      };
    }),
    allowancesCharges: list(settlement, 'SpecifiedTradeAllowanceCharge').map((a) => ({
      charge: text(a, 'ChargeIndicator', 'Indicator') === 'true',
      amountMinor: m(text(a, 'ActualAmount')),
      reason: text(a, 'Reason') ?? '',
      category: category(text(a, 'CategoryTradeTax', 'CategoryCode')),
      rate: num(text(a, 'CategoryTradeTax', 'RateApplicablePercent')) ?? 0,
    })),
    vatBreakdown: list(settlement, 'ApplicableTradeTax').map((s) => ({
      category: category(text(s, 'CategoryCode')),
      rate: num(text(s, 'RateApplicablePercent')) ?? 0,
      taxableMinor: m(text(s, 'BasisAmount')),
      taxMinor: m(text(s, 'CalculatedAmount')),
      exemptionReason: text(s, 'ExemptionReason'),
      exemptionReasonCode: text(s, 'ExemptionReasonCode'),
    })),
    totals: {
      lineNetMinor: m(text(sums, 'LineTotalAmount')),
      allowancesMinor: m(text(sums, 'AllowanceTotalAmount')),
      chargesMinor: m(text(sums, 'ChargeTotalAmount')),
      taxExclusiveMinor: m(text(sums, 'TaxBasisTotalAmount')),
      vatMinor: m(main === undefined ? null : text({ main }, 'main')),
      taxInclusiveMinor: m(text(sums, 'GrandTotalAmount')),
      prepaidMinor: m(text(sums, 'TotalPrepaidAmount')),
      roundingMinor: m(text(sums, 'RoundingAmount')),
      payableMinor: need(minorOf(text(sums, 'DuePayableAmount'), currency), 'amount due (BT-115)'),
    },
  };
}

export type EInvoiceSyntax = 'UBL' | 'CII';

/** Reads an e-invoice's XML; EInvoiceReadError says what is wrong with a file that is not one. */
export function readEInvoiceXml(xml: string): { syntax: EInvoiceSyntax; invoice: EInvoice } {
  let doc: Node;
  try {
    if (
      !xml
        .replace(/^\uFEFF/, '')
        .trimStart()
        .startsWith('<')
    )
      throw new Error('it does not begin with an XML element');
    doc = parser.parse(xml, true) as Node;
  } catch (err) {
    throw new EInvoiceReadError(`The file is not well-formed XML: ${(err as Error).message.split('\n')[0]}`);
  }
  const roots = Object.keys(doc).filter((k) => !k.startsWith('?') && !k.startsWith('#'));
  const name = roots[0];
  const root = name ? (doc[name] as Node) : undefined;
  if (!root || typeof root !== 'object') throw new EInvoiceReadError('The XML has no root element');
  if (name === 'Invoice' || name === 'CreditNote') return { syntax: 'UBL', invoice: readUbl(root, name === 'CreditNote') };
  if (name === 'CrossIndustryInvoice') return { syntax: 'CII', invoice: readCii(root) };
  throw new EInvoiceReadError(
    `The XML is a ${name} document, not an e-invoice (UBL Invoice or CreditNote, or CII CrossIndustryInvoice)`,
  );
}
