/**
 * An e-invoice in the terms of EN 16931 (the semantic model every format binds: BT-n business terms, BG-n groups),
 * independent of its syntax (UBL 2.1 or UN/CEFACT CII D16B). Money is in integer minor units of the invoice
 * currency; rates are percentages. Our invoices map into it (from-invoice.ts), the business rules check it
 * (rules.ts), the writer in src-main/einvoice turns it into XML and the reader there turns received XML back into
 * it. Design: docs/decisions/0160-e-invoices.md. Pure.
 */

/** The formats we issue. */
export const E_INVOICE_FORMATS = [
  'factur-x-en16931',
  'factur-x-xrechnung',
  'xrechnung-ubl',
  'xrechnung-cii',
  'peppol-bis-3',
] as const;
export type EInvoiceFormat = (typeof E_INVOICE_FORMATS)[number];

/** The core invoice usage specification a format follows: it adds rules to EN 16931's. */
export type Cius = 'en16931' | 'xrechnung' | 'peppol';

export interface FormatInfo {
  syntax: 'UBL' | 'CII';
  /** A hybrid PDF (PDF/A-3 with the CII XML attached) or the XML alone. */
  container: 'pdf' | 'xml';
  cius: Cius;
  /** What a person reads in a menu. */
  label: string;
}

export const FORMAT_INFO: Readonly<Record<EInvoiceFormat, FormatInfo>> = {
  'factur-x-en16931': { syntax: 'CII', container: 'pdf', cius: 'en16931', label: 'ZUGFeRD / Factur-X (EN 16931)' },
  'factur-x-xrechnung': { syntax: 'CII', container: 'pdf', cius: 'xrechnung', label: 'ZUGFeRD (XRECHNUNG)' },
  'xrechnung-ubl': { syntax: 'UBL', container: 'xml', cius: 'xrechnung', label: 'XRechnung (UBL)' },
  'xrechnung-cii': { syntax: 'CII', container: 'xml', cius: 'xrechnung', label: 'XRechnung (CII)' },
  'peppol-bis-3': { syntax: 'UBL', container: 'xml', cius: 'peppol', label: 'Peppol BIS Billing 3.0' },
};

export function isEInvoiceFormat(value: unknown): value is EInvoiceFormat {
  return typeof value === 'string' && (E_INVOICE_FORMATS as readonly string[]).includes(value);
}

/** BT-3: a commercial invoice or a credit note. */
export type TypeCode = '380' | '381';

/**
 * BT-118 / BT-151 VAT category codes (UNTDID 5305 as EN 16931 restricts it): S standard rate, Z zero rated, E exempt,
 * AE reverse charge, K intra-community supply, G export outside the EU, O not subject to VAT, L/M Canary Islands and
 * Ceuta/Melilla taxes.
 */
export const VAT_CATEGORIES = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M'] as const;
export type VatCategory = (typeof VAT_CATEGORIES)[number];

/** The categories we issue (O, L and M are read from received invoices but never produced). */
export const ISSUED_VAT_CATEGORIES = ['S', 'Z', 'E', 'AE', 'K', 'G'] as const satisfies readonly VatCategory[];
export type IssuedVatCategory = (typeof ISSUED_VAT_CATEGORIES)[number];

export function isVatCategory(value: unknown): value is VatCategory {
  return typeof value === 'string' && (VAT_CATEGORIES as readonly string[]).includes(value);
}

export interface Address {
  line1: string | null;
  line2: string | null;
  city: string | null;
  postCode: string | null;
  subdivision: string | null;
  /** ISO 3166-1 alpha-2. */
  countryCode: string | null;
}

/** BT-34 / BT-49: an electronic address with its scheme (an ICD such as 0088, 9930, or EM for an email). */
export interface ElectronicAddress {
  scheme: string;
  value: string;
}

export interface Party {
  /** BT-27 / BT-44. */
  name: string;
  /** BT-31 / BT-48. */
  vatId: string | null;
  /** BT-30 / BT-47: a legal registration id (a commercial register entry, an enterprise number), when known. */
  legalId: string | null;
  /**
   * BT-32 (the seller only): a tax registration id other than the VAT id, e.g. a German Steuernummer, which a small
   * business without a VAT id (§ 19 UStG) states instead.
   */
  taxRegistrationId: string | null;
  /** BT-34 / BT-49. */
  electronicAddress: ElectronicAddress | null;
  /** BG-5 / BG-8. */
  address: Address;
  /** BG-6 / BG-9. */
  contact: { name: string | null; phone: string | null; email: string | null } | null;
}

/** BG-25: one invoice line. */
export interface Line {
  /** BT-126. */
  id: string;
  /** BT-153. */
  name: string;
  /** BT-129: up to 4 decimals; negative on a credit line of an invoice is allowed (BR-27 forbids a negative price). */
  quantity: number;
  /** BT-130: UN/ECE recommendation 20 (or 21) code. */
  unitCode: string;
  /**
   * BT-146: the item net price, in units of 10^-(exponent + priceScale) of the currency (unit-price.ts): it may carry
   * up to two decimals more than the currency; every amount stays in minor units.
   */
  priceMinor: number;
  /** Decimals of BT-146 beyond the currency's (1 or 2); absent: none. */
  priceScale?: number;
  /** BT-131: quantity × price, minor units. */
  netMinor: number;
  /** BT-151. */
  category: VatCategory;
  /** BT-152, percent. */
  rate: number;
}

/** BG-20 (allowance, charge false) / BG-21 (charge). */
export interface AllowanceCharge {
  charge: boolean;
  /** BT-92 / BT-99. */
  amountMinor: number;
  /** BT-97 / BT-104. */
  reason: string;
  /** BT-95 / BT-102. */
  category: VatCategory;
  /** BT-96 / BT-103. */
  rate: number;
}

/** BG-23: one VAT category and rate with its taxable amount and tax. */
export interface VatBreakdown {
  /** BT-118. */
  category: VatCategory;
  /** BT-119. */
  rate: number;
  /** BT-116. */
  taxableMinor: number;
  /** BT-117. */
  taxMinor: number;
  /** BT-120. */
  exemptionReason: string | null;
  /** BT-121 (VATEX code list). */
  exemptionReasonCode: string | null;
}

/** BG-22. */
export interface Totals {
  /** BT-106. */
  lineNetMinor: number;
  /** BT-107. */
  allowancesMinor: number;
  /** BT-108. */
  chargesMinor: number;
  /** BT-109. */
  taxExclusiveMinor: number;
  /** BT-110. */
  vatMinor: number;
  /** BT-112. */
  taxInclusiveMinor: number;
  /** BT-113. */
  prepaidMinor: number;
  /** BT-114. */
  roundingMinor: number;
  /** BT-115. */
  payableMinor: number;
}

/** BG-16: how to pay. */
export interface PaymentInstructions {
  /** BT-81: UNTDID 4461 (30 credit transfer, 58 SEPA credit transfer). */
  meansCode: string;
  /** BT-84. */
  iban: string | null;
  /** BT-86. */
  bic: string | null;
  /** BT-85. */
  accountName: string | null;
  /** BT-83. */
  remittance: string | null;
}

export interface EInvoice {
  typeCode: TypeCode;
  /** BT-1. */
  number: string;
  /** BT-2, YYYY-MM-DD. */
  issueDate: string;
  /** BT-9. */
  dueDate: string | null;
  /** BT-5. */
  currency: string;
  /** BT-6 and BT-111: the VAT in the seller's accounting currency when the invoice is in another one. */
  vatAccounting: { currency: string; vatMinor: number | null } | null;
  /** BT-10: the buyer's reference (Leitweg-ID for German public buyers, a purchase order number…). */
  buyerReference: string | null;
  /** BG-3: the invoice a credit note corrects (BT-25, BT-26). */
  precedingInvoice: { number: string; issueDate: string | null } | null;
  /** BG-13 / BG-15: where the goods go, when the invoice names a deliver-to address (an intra-community supply). */
  delivery: { address: Address } | null;
  /** BT-72 (a day), or BG-14 (BT-73, BT-74: a period). */
  supply: { date: string | null; periodStart: string | null; periodEnd: string | null };
  /** BT-22. */
  notes: string[];
  /** BG-4. */
  seller: Party;
  /** BG-7. */
  buyer: Party;
  payment: PaymentInstructions | null;
  /** BT-20. */
  paymentTerms: string | null;
  lines: Line[];
  allowancesCharges: AllowanceCharge[];
  vatBreakdown: VatBreakdown[];
  totals: Totals;
}

export const EMPTY_ADDRESS: Address = {
  line1: null,
  line2: null,
  city: null,
  postCode: null,
  subdivision: null,
  countryCode: null,
};
