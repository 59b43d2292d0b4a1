/**
 * Our invoice → the EN 16931 model (docs/decisions/0160-e-invoices.md). Pure: the caller reads the invoice, the
 * team, the customer, the team's IBAN and (for a foreign-currency invoice) the VAT in the base currency.
 *
 * - Totals are the invoice's stored figures: lines, subtotal (BT-106), VAT (BT-110), total; nothing is recomputed in
 *   a way that could differ from the PDF.
 * - VAT category per line: a line with VAT (rate > 0 and the invoice charges VAT) is S; a line without is the
 *   invoice's `template.vatCategory` (Z, E, AE, K, G), else E when the invoice states an exemption reason, else Z.
 * - The discount is a document-level allowance (BG-20), spread over the VAT groups in proportion to their net. The
 *   invoice computed its VAT before the discount (decision 0071); EN 16931 takes allowances off the tax base, so a
 *   discount on lines with VAT fails BR-CO-17/BR-S-09 and is reported, never silently re-taxed.
 * - Sales tax beside VAT (`includeTax`) has no place in EN 16931: reported as FD-TAX.
 * - A credit note (381) mirrors a refunded invoice: same lines and totals, the invoice as its preceding reference.
 */
import { computeAmounts } from '../invoice-amounts';
import type { AllowanceCharge, EInvoice, IssuedVatCategory, Line, Party, VatBreakdown, VatCategory } from './model';
import type { RuleFailure } from './rules';
import { unitCode } from './units';

export interface SourceLine {
  name: string;
  quantity: number;
  unit: string | null;
  /** The unit price (src-shared/domain/unit-price.ts): minor units, or finer with priceScale. */
  priceMinor: number;
  priceScale?: number;
  /** Own VAT rate, null: the invoice's. */
  vatRate: number | null;
}

export interface InvoiceSource {
  invoiceNumber: string;
  issueDate: string;
  dueDate: string;
  supplyDate: string | null;
  supplyEndDate: string | null;
  currency: string;
  note: string | null;
  lines: SourceLine[];
  vatRate: number;
  taxRate: number;
  includeVat: boolean;
  includeTax: boolean;
  discountMinor: number;
  subtotalMinor: number;
  vatMinor: number;
  taxMinor: number;
  amountMinor: number;
  /** template.vatCategory: the category of the lines that carry no VAT. */
  vatCategory: IssuedVatCategory | null;
  vatExemptionReason: string | null;
  /** template.vatExemptionReasonCode (VATEX-EU-…). */
  vatExemptionReasonCode: string | null;
  /** template.buyerReference: this invoice's buyer reference (a purchase order), over the customer's. */
  buyerReference: string | null;
}

export interface PartySource {
  name: string;
  vatNumber: string | null;
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  zip: string | null;
  state: string | null;
  countryCode: string | null;
  /** `scheme:identifier` (ICD), the Peppol participant id. */
  peppolId: string | null;
  email: string | null;
  phone: string | null;
}

export interface SellerSource extends PartySource {
  iban: string | null;
  bic: string | null;
  /** BT-32: the team's tax number (e.g. a German Steuernummer), for a seller without a VAT id or beside it. */
  taxNumber: string | null;
  /** BT-30: the team's legal registration id (commercial register entry, enterprise number). */
  legalRegistrationId: string | null;
}

export interface BuyerSource extends PartySource {
  /** BT-10, e.g. the Leitweg-ID of a German public buyer. */
  buyerReference: string | null;
}

export interface MapOptions {
  /** Issue a credit note for the refunded invoice, dated `issueDate`. */
  creditNote?: { issueDate: string };
  /** The VAT in the team's base currency when the invoice is in another (BT-6, BT-111). */
  vatAccounting?: { currency: string; vatMinor: number | null } | null;
}

/** The VATEX code and text of a category without VAT, when the invoice gives none. */
const EXEMPTION_DEFAULTS: Partial<Record<VatCategory, { code: string; text: string }>> = {
  AE: { code: 'VATEX-EU-AE', text: 'Reverse charge' },
  K: { code: 'VATEX-EU-IC', text: 'Intra-Community supply' },
  G: { code: 'VATEX-EU-G', text: 'Export outside the EU' },
};

function electronicAddress(p: PartySource): Party['electronicAddress'] {
  if (p.peppolId) {
    const colon = p.peppolId.indexOf(':');
    if (colon > 0) return { scheme: p.peppolId.slice(0, colon), value: p.peppolId.slice(colon + 1) };
  }
  return p.email ? { scheme: 'EM', value: p.email } : null;
}

const text = (v: string | null | undefined) => v?.trim() || null;

function party(p: PartySource, contactName: string | null, ids: { legal?: string | null; tax?: string | null } = {}): Party {
  const hasContact = Boolean(p.email || p.phone || contactName);
  return {
    name: p.name,
    vatId: p.vatNumber?.replace(/[\s.-]/g, '').toUpperCase() || null,
    legalId: text(ids.legal),
    taxRegistrationId: text(ids.tax),
    electronicAddress: electronicAddress(p),
    address: {
      line1: p.addressLine1,
      line2: p.addressLine2,
      city: p.city,
      postCode: p.zip,
      subdivision: p.state,
      countryCode: p.countryCode,
    },
    contact: hasContact ? { name: contactName, phone: p.phone, email: p.email } : null,
  };
}

/** Splits `total` over `weights` in proportion, the remainders to the largest fractions: the parts add up exactly. */
export function allocate(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum === 0) return weights.map((_, i) => (i === 0 ? total : 0));
  const exact = weights.map((w) => (BigInt(total) * BigInt(w) * 1_000_000n) / BigInt(sum));
  const parts = exact.map((e) => Number(e / 1_000_000n));
  let rest = total - parts.reduce((a, b) => a + b, 0);
  const order = exact
    .map((e, i) => ({ i, frac: e % 1_000_000n }))
    .sort((a, b) => (b.frac > a.frac ? 1 : b.frac < a.frac ? -1 : a.i - b.i));
  for (const { i } of order) {
    if (rest <= 0) break;
    parts[i] = (parts[i] ?? 0) + 1;
    rest--;
  }
  return parts;
}

export function mapInvoice(
  source: InvoiceSource,
  seller: SellerSource,
  buyer: BuyerSource,
  options: MapOptions = {},
): { invoice: EInvoice; issues: RuleFailure[] } {
  const issues: RuleFailure[] = [];
  if (source.includeTax && source.taxMinor !== 0) {
    issues.push({
      rule: 'FD-TAX',
      field: 'tax',
      message: 'The invoice charges a sales tax beside VAT, which EN 16931 cannot carry: remove the tax to issue an e-invoice',
    });
  }
  const amounts = computeAmounts(
    source.lines.map((l) => ({ quantity: l.quantity, priceMinor: l.priceMinor, priceScale: l.priceScale, vatRate: l.vatRate })),
    { vatRate: source.vatRate, taxRate: 0, includeVat: source.includeVat, includeTax: false, discountMinor: 0 },
  );
  const zeroCategory: VatCategory =
    source.vatCategory && source.vatCategory !== 'S' ? source.vatCategory : source.vatExemptionReason ? 'E' : 'Z';
  const lines: Line[] = source.lines.map((l, i) => {
    const computed = amounts.lines[i];
    const rate = source.includeVat ? (computed?.vatRate ?? 0) : 0;
    // A credit line (negative price) is a negative quantity at a positive price in EN 16931 (BR-27).
    const credit = l.priceMinor < 0;
    return {
      id: String(i + 1),
      name: l.name,
      quantity: credit && l.quantity !== 0 ? -l.quantity : l.quantity,
      unitCode: unitCode(l.unit),
      priceMinor: Math.abs(l.priceMinor),
      ...(l.priceScale ? { priceScale: l.priceScale } : {}),
      netMinor: computed?.amountMinor ?? 0,
      category: rate > 0 ? 'S' : source.vatCategory === 'S' ? 'S' : zeroCategory,
      rate,
    };
  });

  // One group per category and rate, in the order the lines first name them; the VAT of an S group is the
  // invoice's own per-rate VAT (the same rounding as the stored total).
  const groups = new Map<string, { category: VatCategory; rate: number; netMinor: number }>();
  for (const line of lines) {
    const key = `${line.category}|${line.rate}`;
    const g = groups.get(key) ?? { category: line.category, rate: line.rate, netMinor: 0 };
    g.netMinor += line.netMinor;
    groups.set(key, g);
  }
  const groupList = [...groups.values()];
  const vatOfRate = new Map(amounts.vatGroups.map((g) => [g.rate, g.vatMinor]));
  const shares =
    source.discountMinor > 0
      ? allocate(
          source.discountMinor,
          groupList.map((g) => Math.max(g.netMinor, 0)),
        )
      : [];
  const allowancesCharges: AllowanceCharge[] = shares
    .map((amountMinor, i) => ({ amountMinor, group: groupList[i] }))
    .filter((s) => s.amountMinor > 0 && s.group)
    .map(({ amountMinor, group }) => ({
      charge: false,
      amountMinor,
      reason: 'Discount',
      category: group?.category ?? 'S',
      rate: group?.rate ?? 0,
    }));
  const vatBreakdown: VatBreakdown[] = groupList.map((g, i) => {
    const defaults = EXEMPTION_DEFAULTS[g.category];
    const exempt = g.category !== 'S' && g.category !== 'Z';
    return {
      category: g.category,
      rate: g.rate,
      taxableMinor: g.netMinor - (shares[i] ?? 0),
      taxMinor: g.category === 'S' ? (vatOfRate.get(g.rate) ?? 0) : 0,
      exemptionReason: exempt ? (source.vatExemptionReason ?? defaults?.text ?? null) : null,
      exemptionReasonCode: exempt ? (source.vatExemptionReasonCode ?? defaults?.code ?? null) : null,
    };
  });

  const allowancesMinor = allowancesCharges.reduce((s, a) => s + (a.charge ? 0 : a.amountMinor), 0);
  const taxExclusiveMinor = source.subtotalMinor - allowancesMinor;
  const taxInclusiveMinor = taxExclusiveMinor + source.vatMinor;
  const credit = options.creditNote;
  const supplyStart = source.supplyDate;
  const invoice: EInvoice = {
    typeCode: credit ? '381' : '380',
    number: credit ? `CN-${source.invoiceNumber}` : source.invoiceNumber,
    issueDate: credit ? credit.issueDate : source.issueDate,
    dueDate: credit ? null : source.dueDate,
    currency: source.currency,
    vatAccounting: options.vatAccounting ?? null,
    buyerReference: source.buyerReference ?? buyer.buyerReference ?? null,
    precedingInvoice: credit ? { number: source.invoiceNumber, issueDate: source.issueDate } : null,
    supply: source.supplyEndDate
      ? { date: null, periodStart: supplyStart, periodEnd: source.supplyEndDate }
      : { date: supplyStart ?? source.issueDate, periodStart: null, periodEnd: null },
    notes: source.note ? [source.note] : [],
    seller: party(seller, seller.name, { legal: seller.legalRegistrationId, tax: seller.taxNumber }),
    buyer: party(buyer, null),
    // An intra-community supply names where the goods go (BR-IC-12); the buyer's address is the only deliver-to
    // address an invoice of ours knows, and XRechnung wants its city and post code with it (BR-DE-10, BR-DE-11).
    delivery: vatBreakdown.some((b) => b.category === 'K')
      ? {
          address: {
            line1: buyer.addressLine1,
            line2: buyer.addressLine2,
            city: buyer.city,
            postCode: buyer.zip,
            subdivision: buyer.state,
            countryCode: buyer.countryCode,
          },
        }
      : null,
    payment: credit
      ? { meansCode: '1', iban: null, bic: null, accountName: null, remittance: source.invoiceNumber }
      : {
          meansCode: '58',
          iban: seller.iban?.replace(/\s/g, '') || null,
          bic: seller.bic,
          accountName: seller.name,
          remittance: source.invoiceNumber,
        },
    paymentTerms: credit
      ? `Credit for invoice ${source.invoiceNumber}, refunded on ${credit.issueDate}`
      : `Payable by ${source.dueDate} without deduction`,
    lines,
    allowancesCharges,
    vatBreakdown,
    totals: {
      lineNetMinor: source.subtotalMinor,
      allowancesMinor,
      chargesMinor: 0,
      taxExclusiveMinor,
      vatMinor: source.vatMinor,
      taxInclusiveMinor,
      prepaidMinor: 0,
      roundingMinor: 0,
      payableMinor: taxInclusiveMinor,
    },
  };
  return { invoice, issues };
}
