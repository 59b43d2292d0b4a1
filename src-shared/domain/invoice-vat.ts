/**
 * The VAT of an invoice's lines by the customer's situation (docs/decisions/0120-invoice-vat-and-language.md). Pure;
 * the invoice form asks it for the rate a new line starts with, and the PDF for the note reverse charge must carry.
 *
 * - A business customer in another EU member state with a VAT number, billed by a team established in the EU: the
 *   supply is taxed where the customer is, and the customer accounts for the VAT (reverse charge, Art. 196 VAT
 *   directive; § 13b UStG). The invoice charges 0 %, names both VAT numbers (Art. 226 (3), (4)) and says
 *   "reverse charge" (Art. 226 (11a)): EN 16931 category AE, exemption code VATEX-EU-AE.
 * - Everyone else (the team's own country, a consumer elsewhere in the EU, a customer outside the EU, a team outside
 *   the EU, a country not known) starts at the line's category rate, else the team's default: the person decides
 *   the cases the app cannot know (an export of goods, a service not taxable here).
 */

/** The member states of the EU (ISO 3166-1; Greece is GR here, EL only in VAT numbers). */
export const EU_COUNTRIES: ReadonlySet<string> = new Set([
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
  'HR',
  'HU',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
]);

export type VatSituation = 'domestic' | 'reverse_charge';

export interface VatParty {
  countryCode: string | null;
  vatNumber?: string | null;
}

export function vatSituation(seller: VatParty, buyer: VatParty): VatSituation {
  const from = seller.countryCode?.toUpperCase() ?? null;
  const to = buyer.countryCode?.toUpperCase() ?? null;
  if (!from || !to || from === to) return 'domestic';
  if (EU_COUNTRIES.has(from) && EU_COUNTRIES.has(to) && buyer.vatNumber?.trim()) return 'reverse_charge';
  return 'domestic';
}

/** The rate a line starts with: 0 % under reverse charge, else its category's rate, else the team's default. */
export function defaultLineRate(situation: VatSituation, categoryRate: number | null | undefined, teamRate: number): number {
  if (situation === 'reverse_charge') return 0;
  return categoryRate ?? teamRate;
}

/**
 * The standard VAT rate of a country in percent (as of 2026; EU member states, the UK, Switzerland, Norway), for a
 * team that has set no default rate of its own: a German team's first invoice starts at 19 %, not 0 %. A team that
 * charges none (a small business, § 19 UStG) says so in its settings with its reason. Null: not known here.
 */
const STANDARD_RATES: Readonly<Record<string, number>> = {
  AT: 20,
  BE: 21,
  BG: 20,
  CY: 19,
  CZ: 21,
  DE: 19,
  DK: 25,
  EE: 24,
  ES: 21,
  FI: 25.5,
  FR: 20,
  GR: 24,
  HR: 25,
  HU: 27,
  IE: 23,
  IT: 22,
  LT: 21,
  LU: 17,
  LV: 21,
  MT: 18,
  NL: 21,
  PL: 23,
  PT: 23,
  RO: 21,
  SE: 25,
  SI: 22,
  SK: 23,
  GB: 20,
  CH: 8.1,
  NO: 25,
};

export function standardVatRate(countryCode: string | null | undefined): number | null {
  return STANDARD_RATES[countryCode?.toUpperCase() ?? ''] ?? null;
}

/**
 * The rate a team's new lines start with when their category names none: the team's own default rate; none when it
 * charges no VAT (`includeVat` off, or a reason such as the small business's); else its country's standard rate.
 */
export function teamDefaultRate(
  template: { vatRate: number; includeVat: boolean; vatExemptionReason: string | null },
  countryCode: string | null | undefined,
): number {
  if (template.vatRate > 0) return template.vatRate;
  if (!template.includeVat || template.vatExemptionReason?.trim()) return 0;
  return standardVatRate(countryCode) ?? 0;
}

export const REVERSE_CHARGE_CODE = 'VATEX-EU-AE';

/** The reverse-charge note in the invoice's language (English for a language without one). */
const REVERSE_CHARGE_NOTES: Readonly<Record<string, string>> = {
  en: 'Reverse charge: the recipient is liable for the VAT (Art. 196 Council Directive 2006/112/EC).',
  de: 'Steuerschuldnerschaft des Leistungsempfängers (Reverse Charge, § 13b UStG, Art. 196 MwStSystRL).',
  fr: 'Autoliquidation : TVA due par le preneur (art. 196 de la directive 2006/112/CE).',
};

export function reverseChargeNote(locale: string): string {
  const lang = locale.toLowerCase().split(/[-_]/)[0] ?? 'en';
  return REVERSE_CHARGE_NOTES[lang] ?? REVERSE_CHARGE_NOTES.en!;
}

/** What an invoice's template carries under reverse charge: category AE, its code and its note. */
export function reverseChargeTemplate(locale: string) {
  return {
    vatCategory: 'AE' as const,
    vatExemptionReasonCode: REVERSE_CHARGE_CODE,
    vatExemptionReason: reverseChargeNote(locale),
  };
}

/**
 * The date format invoices in this language are written with: German and most of Europe day first with dots or
 * slashes, the United States month first, ISO where the language names no convention.
 */
export function invoiceDateFormat(locale: string): 'dd/MM/yyyy' | 'MM/dd/yyyy' | 'yyyy-MM-dd' | 'dd.MM.yyyy' | 'dd-MM-yyyy' {
  const [lang = '', region = ''] = locale.split(/[-_]/);
  switch (lang.toLowerCase()) {
    case 'de':
    case 'pl':
    case 'cs':
    case 'fi':
    case 'da':
    case 'nb':
    case 'ru':
    case 'tr':
      return 'dd.MM.yyyy';
    case 'nl':
      return 'dd-MM-yyyy';
    case 'sv':
    case 'lt':
      return 'yyyy-MM-dd';
    case 'en':
      return region.toUpperCase() === 'US' ? 'MM/dd/yyyy' : 'dd/MM/yyyy';
    default:
      return 'dd/MM/yyyy';
  }
}
