import type { BuyerSource, InvoiceSource, SellerSource } from '../../../../src-shared/domain/einvoice/from-invoice';
import { computeAmounts } from '../../../../src-shared/domain/invoice-amounts';

/** Invoices, sellers and buyers for the e-invoice tests: a German seller, buyers in DE, FR, BE and the US. */

export const SELLER: SellerSource = {
  name: 'Nordlicht Software GmbH',
  vatNumber: 'DE123456789',
  addressLine1: 'Friedrichstraße 12',
  addressLine2: null,
  city: 'Berlin',
  zip: '10117',
  state: null,
  countryCode: 'DE',
  peppolId: '9930:DE123456789',
  email: 'billing@nordlicht.example',
  phone: '+49 30 1234567',
  iban: 'DE89370400440532013000',
  bic: 'COBADEFFXXX',
  taxNumber: null,
  legalRegistrationId: null,
};

/**
 * A small business under § 19 UStG: no VAT id, so its e-invoices name its tax number (BT-32) and its commercial
 * register entry (BT-30) instead, and its electronic address is its email.
 */
export const SMALL_BUSINESS_SELLER: SellerSource = {
  ...SELLER,
  name: 'Kleine Werkstatt UG (haftungsbeschränkt)',
  vatNumber: null,
  taxNumber: '21/815/08150',
  legalRegistrationId: 'HRB 234567 B',
  peppolId: null,
  email: 'rechnung@werkstatt.example',
};

const buyer = (over: Partial<BuyerSource>): BuyerSource => ({
  name: 'Stadtwerke Musterstadt',
  vatNumber: 'DE987654321',
  addressLine1: 'Rathausplatz 1',
  addressLine2: null,
  city: 'Musterstadt',
  zip: '12345',
  state: null,
  countryCode: 'DE',
  peppolId: '9930:DE987654321',
  email: 'rechnung@stadtwerke.example',
  phone: null,
  buyerReference: '04011000-12345-03',
  ...over,
});

export const BUYERS = {
  de: buyer({}),
  fr: buyer({
    name: 'Atelier Lumière SARL',
    vatNumber: 'FR40303265045',
    addressLine1: '8 rue de la Paix',
    city: 'Paris',
    zip: '75002',
    countryCode: 'FR',
    peppolId: '0009:30326504500017',
    email: 'compta@lumiere.example',
    buyerReference: 'PO-7781',
  }),
  be: buyer({
    name: 'Brouwerij De Kroon BV',
    vatNumber: 'BE0477472701',
    addressLine1: 'Grote Markt 3',
    city: 'Leuven',
    zip: '3000',
    countryCode: 'BE',
    peppolId: '0208:0477472701',
    email: 'factuur@kroon.example',
    buyerReference: 'KROON-2025-01',
  }),
  /** A Dutch buyer addressed by its GLN (scheme 0088). */
  nlGln: buyer({
    name: 'Groothandel Van Dijk BV',
    vatNumber: 'NL859876589B01',
    addressLine1: 'Keizersgracht 100',
    city: 'Amsterdam',
    zip: '1015 CW',
    countryCode: 'NL',
    peppolId: '0088:5790000435968',
    email: 'factuur@vandijk.example',
    buyerReference: 'VD-PO-2025-77',
  }),
  /** A Swedish buyer by its organisation number (scheme 0007). */
  se: buyer({
    name: 'Nordisk Design AB',
    vatNumber: 'SE556677889901',
    addressLine1: 'Drottninggatan 5',
    city: 'Stockholm',
    zip: '111 51',
    countryCode: 'SE',
    peppolId: '0007:5566778899',
    email: 'faktura@nordisk.example',
    buyerReference: 'ND-4471',
  }),
  /** A Norwegian buyer by its organisation number (scheme 0192). */
  no: buyer({
    name: 'Fjord Analyse AS',
    vatNumber: null,
    addressLine1: 'Karl Johans gate 7',
    city: 'Oslo',
    zip: '0154',
    countryCode: 'NO',
    peppolId: '0192:745707327',
    email: 'faktura@fjord.example',
    buyerReference: 'FJ-2025-09',
  }),
  us: buyer({
    name: 'Acme Corp.',
    vatNumber: null,
    addressLine1: '1 Main Street',
    city: 'Springfield',
    zip: '62701',
    state: 'IL',
    countryCode: 'US',
    peppolId: null,
    email: 'ap@acme.example',
    buyerReference: 'ACME-PO-1',
  }),
};

type Line = InvoiceSource['lines'][number];

/** An invoice source whose stored totals are computed as the store computes them (decision 0071). */
export function invoiceOf(lines: Line[], over: Partial<InvoiceSource> = {}): InvoiceSource {
  const base: InvoiceSource = {
    invoiceNumber: 'INV-0042',
    issueDate: '2025-03-14',
    dueDate: '2025-04-13',
    supplyDate: null,
    supplyEndDate: null,
    currency: 'EUR',
    note: null,
    lines,
    vatRate: 19,
    taxRate: 0,
    includeVat: true,
    includeTax: false,
    discountMinor: 0,
    subtotalMinor: 0,
    vatMinor: 0,
    taxMinor: 0,
    amountMinor: 0,
    vatCategory: null,
    vatExemptionReason: null,
    vatExemptionReasonCode: null,
    buyerReference: null,
    ...over,
  };
  const a = computeAmounts(
    base.lines.map((l) => ({ quantity: l.quantity, priceMinor: l.priceMinor, priceScale: l.priceScale, vatRate: l.vatRate })),
    base,
  );
  return { ...base, subtotalMinor: a.subtotalMinor, vatMinor: a.vatMinor, taxMinor: a.taxMinor, amountMinor: a.amountMinor };
}

export const line = (
  name: string,
  quantity: number,
  priceMinor: number,
  unit: string | null = 'h',
  vatRate: number | null = null,
): Line => ({
  name,
  quantity,
  unit,
  priceMinor,
  vatRate,
});
