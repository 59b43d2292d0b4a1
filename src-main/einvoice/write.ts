import type { Invoice as LibInvoice } from '@e-invoice-eu/core';
import type { EInvoice, EInvoiceFormat, Party, VatCategory } from '../../src-shared/domain/einvoice/model';
import { FORMAT_INFO } from '../../src-shared/domain/einvoice/model';
import { roundDiv } from '../../src-shared/domain/exact';
import { unitPriceText } from '../../src-shared/domain/unit-price';
import { currencyExponent, toMajor } from '../../src-shared/money';

/**
 * The EN 16931 model → the formats' XML and hybrid PDF, written by @e-invoice-eu/core (docs/decisions/0160). Its
 * input is UBL-shaped JSON (`ubl:Invoice` with `cbc:`/`cac:` keys, attributes as `key@attr`); it writes UBL or CII
 * from it, turns a type code 381 into a UBL CreditNote, and for Factur-X/ZUGFeRD attaches the CII XML to the PDF
 * we render and makes it PDF/A-3 (XMP metadata, sRGB output intent).
 */

const LIBRARY_FORMAT: Record<EInvoiceFormat, string> = {
  'factur-x-en16931': 'Factur-X-EN16931',
  'factur-x-xrechnung': 'Factur-X-XRechnung',
  'xrechnung-ubl': 'XRechnung-UBL',
  'xrechnung-cii': 'XRechnung-CII',
  'peppol-bis-3': 'UBL',
};

/** The pure CII format behind a hybrid one (what its PDF carries), for the schema check. */
export const CII_OF_HYBRID: Partial<Record<EInvoiceFormat, string>> = {
  'factur-x-en16931': 'CII',
  'factur-x-xrechnung': 'XRechnung-CII',
};

const PEPPOL_CUSTOMIZATION = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
const PEPPOL_PROFILE = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

/** Minor units → the decimal text XML carries, with the currency's decimals (1234 EUR → "12.34"). */
export function decimalText(minor: number, currency: string): string {
  return toMajor(minor, currency).toFixed(currencyExponent(currency));
}

type Json = Record<string, unknown>;

function compact<T extends Json>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined && v !== '')) as T;
}

function taxCategory(category: VatCategory, rate: number, extra: Json = {}): Json {
  return compact({
    'cbc:ID': category,
    'cbc:Percent': category === 'O' ? undefined : String(rate),
    ...extra,
    'cac:TaxScheme': { 'cbc:ID': 'VAT' },
  });
}

function party(p: Party, seller: boolean): Json {
  const a = p.address;
  return compact({
    'cbc:EndpointID': p.electronicAddress?.value,
    'cbc:EndpointID@schemeID': p.electronicAddress?.scheme,
    'cac:PostalAddress': compact({
      'cbc:StreetName': a.line1,
      'cbc:AdditionalStreetName': a.line2,
      'cbc:CityName': a.city,
      'cbc:PostalZone': a.postCode,
      'cbc:CountrySubentity': a.subdivision,
      'cac:Country': { 'cbc:IdentificationCode': a.countryCode ?? '' },
    }),
    'cac:PartyTaxScheme': seller
      ? sellerTaxSchemes(p)
      : p.vatId
        ? { 'cbc:CompanyID': p.vatId, 'cac:TaxScheme': { 'cbc:ID': 'VAT' } }
        : undefined,
    'cac:PartyLegalEntity': compact({ 'cbc:RegistrationName': p.name, 'cbc:CompanyID': p.legalId }),
    'cac:Contact': p.contact
      ? compact({ 'cbc:Name': p.contact.name, 'cbc:Telephone': p.contact.phone, 'cbc:ElectronicMail': p.contact.email })
      : undefined,
  });
}

/**
 * The seller's BT-31 (VAT id, tax scheme VAT) and BT-32 (another tax registration, tax scheme FC: "fiscal code").
 * The library turns the first scheme into CII's schemeID (VAT → VA, any other → FC) and copies the others as given,
 * so BT-32 is written as FC in both syntaxes.
 */
function sellerTaxSchemes(p: Party): Json[] | undefined {
  const schemes: Json[] = [];
  if (p.vatId) schemes.push({ 'cbc:CompanyID': p.vatId, 'cac:TaxScheme': { 'cbc:ID': 'VAT' } });
  if (p.taxRegistrationId) schemes.push({ 'cbc:CompanyID': p.taxRegistrationId, 'cac:TaxScheme': { 'cbc:ID': 'FC' } });
  return schemes.length ? schemes : undefined;
}

/** BG-15 as UBL's delivery location address (the library maps it to CII's ShipToTradeParty). */
function deliveryAddress(a: EInvoice['seller']['address']): Json {
  return compact({
    'cbc:StreetName': a.line1,
    'cbc:AdditionalStreetName': a.line2,
    'cbc:CityName': a.city,
    'cbc:PostalZone': a.postCode,
    'cbc:CountrySubentity': a.subdivision,
    'cac:Country': { 'cbc:IdentificationCode': a.countryCode ?? '' },
  });
}

/** BG-3 (for CII see withPrecedingInvoice). */
function billingReference(p: NonNullable<EInvoice['precedingInvoice']>): Json {
  return { 'cac:InvoiceDocumentReference': compact({ 'cbc:ID': p.number, 'cbc:IssueDate': p.issueDate }) };
}

/** The model as @e-invoice-eu/core's input. */
export function toLibraryInvoice(inv: EInvoice, format: EInvoiceFormat): LibInvoice {
  const cur = inv.currency;
  const money = (minor: number) => decimalText(minor, cur);
  const amount = (key: string, minor: number) => ({ [key]: money(minor), [`${key}@currencyID`]: cur });
  const taxTotals: Json[] = [
    {
      ...amount('cbc:TaxAmount', inv.totals.vatMinor),
      'cac:TaxSubtotal': inv.vatBreakdown.map((b) => ({
        ...amount('cbc:TaxableAmount', b.taxableMinor),
        ...amount('cbc:TaxAmount', b.taxMinor),
        'cac:TaxCategory': taxCategory(b.category, b.rate, {
          'cbc:TaxExemptionReasonCode': b.exemptionReasonCode,
          'cbc:TaxExemptionReason': b.exemptionReason,
        }),
      })),
    },
  ];
  const acc = inv.vatAccounting;
  if (acc && acc.vatMinor !== null) {
    taxTotals.push({ 'cbc:TaxAmount': decimalText(acc.vatMinor, acc.currency), 'cbc:TaxAmount@currencyID': acc.currency });
  }
  const t = inv.totals;
  const peppol = format === 'peppol-bis-3';
  const root = compact({
    'cbc:CustomizationID': peppol ? PEPPOL_CUSTOMIZATION : undefined,
    'cbc:ProfileID': peppol ? PEPPOL_PROFILE : undefined,
    'cbc:ID': inv.number,
    'cbc:IssueDate': inv.issueDate,
    'cbc:DueDate': inv.dueDate,
    'cbc:InvoiceTypeCode': inv.typeCode,
    'cbc:Note': inv.notes.length ? inv.notes : undefined,
    'cbc:DocumentCurrencyCode': cur,
    'cbc:TaxCurrencyCode': acc?.currency,
    'cbc:BuyerReference': inv.buyerReference,
    'cac:InvoicePeriod': inv.supply.periodStart
      ? compact({ 'cbc:StartDate': inv.supply.periodStart, 'cbc:EndDate': inv.supply.periodEnd })
      : undefined,
    'cac:BillingReference': inv.precedingInvoice ? [billingReference(inv.precedingInvoice)] : undefined,
    'cac:AccountingSupplierParty': { 'cac:Party': party(inv.seller, true) },
    'cac:AccountingCustomerParty': { 'cac:Party': party(inv.buyer, false) },
    // CII requires the delivery group: a service period's last day stands in as the delivery date there. The
    // deliver-to address (BG-15) is the model's, which names one for an intra-community supply (from-invoice.ts).
    'cac:Delivery': compact({
      'cbc:ActualDeliveryDate': inv.supply.date ?? inv.supply.periodEnd ?? inv.issueDate,
      'cac:DeliveryLocation': inv.delivery ? { 'cac:Address': deliveryAddress(inv.delivery.address) } : undefined,
    }),
    'cac:PaymentMeans': inv.payment
      ? [
          compact({
            'cbc:PaymentMeansCode': inv.payment.meansCode,
            'cbc:PaymentID': inv.payment.remittance,
            'cac:PayeeFinancialAccount': inv.payment.iban
              ? compact({
                  'cbc:ID': inv.payment.iban,
                  'cbc:Name': inv.payment.accountName,
                  'cac:FinancialInstitutionBranch': inv.payment.bic ? { 'cbc:ID': inv.payment.bic } : undefined,
                })
              : undefined,
          }),
        ]
      : undefined,
    'cac:PaymentTerms': inv.paymentTerms ? { 'cbc:Note': inv.paymentTerms } : undefined,
    'cac:AllowanceCharge': inv.allowancesCharges.length
      ? inv.allowancesCharges.map((a) => ({
          'cbc:ChargeIndicator': a.charge ? 'true' : 'false',
          'cbc:AllowanceChargeReason': a.reason,
          ...amount('cbc:Amount', a.amountMinor),
          'cac:TaxCategory': taxCategory(a.category, a.rate),
        }))
      : undefined,
    'cac:TaxTotal': taxTotals,
    'cac:LegalMonetaryTotal': compact({
      ...amount('cbc:LineExtensionAmount', t.lineNetMinor),
      ...amount('cbc:TaxExclusiveAmount', t.taxExclusiveMinor),
      ...amount('cbc:TaxInclusiveAmount', t.taxInclusiveMinor),
      ...(t.allowancesMinor ? amount('cbc:AllowanceTotalAmount', t.allowancesMinor) : {}),
      ...(t.chargesMinor ? amount('cbc:ChargeTotalAmount', t.chargesMinor) : {}),
      ...(t.prepaidMinor ? amount('cbc:PrepaidAmount', t.prepaidMinor) : {}),
      ...(t.roundingMinor ? amount('cbc:PayableRoundingAmount', t.roundingMinor) : {}),
      ...amount('cbc:PayableAmount', t.payableMinor),
    }),
    'cac:InvoiceLine': inv.lines.map((l) => ({
      'cbc:ID': l.id,
      'cbc:InvoicedQuantity': String(l.quantity),
      'cbc:InvoicedQuantity@unitCode': l.unitCode,
      ...amount('cbc:LineExtensionAmount', l.netMinor),
      'cac:Item': { 'cbc:Name': l.name, 'cac:ClassifiedTaxCategory': taxCategory(l.category, l.rate) },
      // The library takes amounts with two decimals only; a finer price is put in by withExactPrices.
      'cac:Price': amount('cbc:PriceAmount', roundedPriceMinor(l)),
    })),
  });
  return { 'ubl:Invoice': root } as unknown as LibInvoice;
}

/** The library logs its input check's findings (its JSON schema); they are kept for the error it throws. */
interface LibraryLogger {
  log(m: string): void;
  warn(m: string): void;
  error(m: string): void;
}

export class EInvoiceWriteError extends Error {
  override name = 'EInvoiceWriteError';
}

/**
 * The library drops BG-3 (the invoice a credit note corrects) from CII: its CII mapping reads the id where its own
 * input schema forbids it. We add `ram:InvoiceReferencedDocument` where CII D16B places it, after the monetary
 * summation; the schema check and the round-trip tests hold the result.
 */
export function withPrecedingInvoice(xml: string, inv: EInvoice): string {
  const p = inv.precedingInvoice;
  if (!p || xml.includes('InvoiceReferencedDocument>')) return xml;
  const date = p.issueDate
    ? `<ram:FormattedIssueDateTime><qdt:DateTimeString format="102">${p.issueDate.replaceAll('-', '')}</qdt:DateTimeString></ram:FormattedIssueDateTime>`
    : '';
  const escaped = p.number.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const ref = `<ram:InvoiceReferencedDocument><ram:IssuerAssignedID>${escaped}</ram:IssuerAssignedID>${date}</ram:InvoiceReferencedDocument>`;
  return xml.replace(/(<\/ram:SpecifiedTradeSettlementHeaderMonetarySummation>)/, `$1${ref}`);
}

/** A unit price rounded to the minor unit, half away from zero (what the library is given; see withExactPrices). */
function roundedPriceMinor(l: EInvoice['lines'][number]): number {
  const scale = l.priceScale ?? 0;
  return scale === 0 ? l.priceMinor : Number(roundDiv(BigInt(l.priceMinor), 10n ** BigInt(scale)));
}

/**
 * The item net price (BT-146) of each line whose price has decimals beyond the currency's (unit-price.ts), written
 * exactly: @e-invoice-eu/core's input schema takes every amount with at most two decimals, though EN 16931 gives
 * BT-146 none, so the library writes the rounded price and it is replaced here, line by line (UBL cac:Price, CII
 * NetPriceProductTradePrice). The round trip reads each back exactly and the official rules check the documents.
 */
export function withExactPrices(xml: string, inv: EInvoice): string {
  const exact = new Map(inv.lines.filter((l) => (l.priceScale ?? 0) > 0).map((l) => [l.id, unitPriceText(l, inv.currency)]));
  if (exact.size === 0) return xml;
  const ublLine = /<cac:(InvoiceLine|CreditNoteLine)>[\s\S]*?<\/cac:\1>/g;
  const ciiLine = /<ram:IncludedSupplyChainTradeLineItem>[\s\S]*?<\/ram:IncludedSupplyChainTradeLineItem>/g;
  return xml
    .replace(ublLine, (block) => {
      const price = exact.get(/<cbc:ID>([^<]*)<\/cbc:ID>/.exec(block)?.[1] ?? '');
      return price === undefined
        ? block
        : block.replace(/(<cac:Price>\s*<cbc:PriceAmount\b[^>]*>)[^<]*(<\/cbc:PriceAmount>)/, `$1${price}$2`);
    })
    .replace(ciiLine, (block) => {
      const price = exact.get(/<ram:LineID>([^<]*)<\/ram:LineID>/.exec(block)?.[1] ?? '');
      return price === undefined
        ? block
        : block.replace(
            /(<ram:NetPriceProductTradePrice>\s*<ram:ChargeAmount\b[^>]*>)[^<]*(<\/ram:ChargeAmount>)/,
            `$1${price}$2`,
          );
    });
}

type Formatter = { attachFacturX?: (pdfDoc: unknown, options: unknown, xml: string) => Promise<void> };

/**
 * A library service for one document. Its format services are created per call; a Factur-X one gets the CII it
 * attaches passed through `patchXml` first (the library offers no other way to amend what it embeds).
 */
function invoiceService(collected: string[], patchXml: (xml: string) => string) {
  const { InvoiceService } = require('@e-invoice-eu/core') as typeof import('@e-invoice-eu/core');
  const logger: LibraryLogger = { log: () => {}, warn: () => {}, error: (m) => collected.push(String(m)) };
  const service = new InvoiceService(logger);
  const factory = (service as unknown as { formatFactoryService: { createFormatService(f: string, l: unknown): Formatter } })
    .formatFactoryService;
  const create = factory.createFormatService.bind(factory);
  factory.createFormatService = (format, l) => {
    const formatter = create(format, l);
    const attach = formatter.attachFacturX?.bind(formatter);
    if (attach) formatter.attachFacturX = (pdfDoc, options, xml) => attach(pdfDoc, options, patchXml(xml));
    return formatter;
  };
  return service;
}

async function generate(
  inv: EInvoice,
  data: LibInvoice,
  libraryFormat: string,
  lang: string,
  pdf?: Buffer,
): Promise<string | Uint8Array> {
  const collected: string[] = [];
  const patch = (xml: string) => withExactPrices(withPrecedingInvoice(xml, inv), inv);
  try {
    const out = await invoiceService(collected, patch).generate(data, {
      format: libraryFormat,
      lang,
      noWarnings: true,
      ...(pdf ? { pdf: { buffer: new Uint8Array(pdf), filename: 'invoice.pdf', mimetype: 'application/pdf' } } : {}),
    });
    if (typeof out !== 'string') return out;
    return out.includes('CrossIndustryInvoice') ? patch(out) : withExactPrices(out, inv);
  } catch (err) {
    const detail = collected.join('\n').slice(0, 2000);
    throw new EInvoiceWriteError(`${(err as Error).message}${detail ? `: ${detail}` : ''}`);
  }
}

export interface WrittenEInvoice {
  bytes: Buffer;
  mimeType: 'application/xml' | 'application/pdf';
  /** The XML: the document itself, or what the hybrid PDF carries. */
  xml: string;
}

/** The XML of the e-invoice in `format`: the document itself, or the XML a hybrid format's PDF carries. */
export async function writeEInvoiceXml(inv: EInvoice, format: EInvoiceFormat, options: { lang: string }): Promise<string> {
  const data = toLibraryInvoice(inv, format);
  const libraryFormat = FORMAT_INFO[format].container === 'xml' ? LIBRARY_FORMAT[format] : (CII_OF_HYBRID[format] ?? 'CII');
  return String(await generate(inv, data, libraryFormat, options.lang));
}

/** The e-invoice in `format`; a hybrid format needs the invoice's PDF, which it turns into PDF/A-3 with the XML. */
export async function writeEInvoice(
  inv: EInvoice,
  format: EInvoiceFormat,
  options: { lang: string; pdf?: Buffer },
): Promise<WrittenEInvoice> {
  const info = FORMAT_INFO[format];
  if (info.container === 'xml') {
    const xml = await writeEInvoiceXml(inv, format, options);
    return { bytes: Buffer.from(xml, 'utf8'), mimeType: 'application/xml', xml };
  }
  if (!options.pdf) throw new EInvoiceWriteError(`${format} needs the invoice PDF`);
  const xml = await writeEInvoiceXml(inv, format, options);
  const pdf = await generate(inv, toLibraryInvoice(inv, format), LIBRARY_FORMAT[format], options.lang, options.pdf);
  return { bytes: Buffer.from(pdf as Uint8Array), mimeType: 'application/pdf', xml };
}
