/**
 * Invoice totals in exact integer minor units (docs/decisions/0071-invoice-amounts-and-rounding.md). Pure.
 *
 * - A line's amount is quantity × unit price, rounded once to the currency's minor unit, half away from zero.
 *   Quantities have at most 4 decimals and unit prices at most 2 more than the currency (unit-price.ts), so the
 *   product is computed exactly (BigInt) before that one rounding.
 * - subtotal = Σ line amounts.
 * - VAT: the lines are grouped by their VAT rate (a line's own `vatRate`, else the invoice's); each group's VAT is
 *   its net × rate %, rounded half away from zero; vat = Σ groups. With one rate this is exactly the hosted
 *   service's "vat = subtotal × vatRate %". Tax (sales tax, other) likewise with `taxRate`. `includeVat`/`includeTax`
 *   false means none is charged.
 * - total = subtotal + vat + tax − discount, as the hosted service computes it: the discount is a reduction of the
 *   amount due and does not change the tax base (so a synced copy's total equals the hosted service's).
 * Rates are percentages with at most 4 decimals (7.7, 8.875), 0 to 100.
 */
import { MAX_MINOR } from '../money';
import { decimalOfNumber, pow10, roundDiv } from './exact';
import { UNIT_PRICE_EXTRA_DECIMALS } from './unit-price';

export const QUANTITY_DECIMALS = 4;
export const RATE_DECIMALS = 4;
export const MAX_QUANTITY = 1_000_000_000;

export interface AmountLine {
  quantity: number;
  /** The unit price in units of 10^-(currency exponent + priceScale) (unit-price.ts). */
  priceMinor: number;
  /** Decimals of the unit price beyond the currency's (0–2); absent: 0. */
  priceScale?: number;
  /** This line's VAT rate in percent; null/undefined: the invoice's. */
  vatRate?: number | null;
  /** This line's tax rate in percent; null/undefined: the invoice's. */
  taxRate?: number | null;
}

export interface AmountSettings {
  vatRate: number;
  taxRate: number;
  includeVat: boolean;
  includeTax: boolean;
  discountMinor: number;
}

/** One VAT rate's share of an invoice: the net amount of its lines and the VAT on it (what Art. 226 (8)–(10) asks). */
export interface VatGroup {
  rate: number;
  netMinor: number;
  vatMinor: number;
}

export interface InvoiceAmounts {
  lines: { amountMinor: number; vatRate: number; taxRate: number }[];
  /** Per VAT rate, highest first; the VAT is 0 throughout when the invoice charges none (includeVat false). */
  vatGroups: VatGroup[];
  subtotalMinor: number;
  vatMinor: number;
  taxMinor: number;
  discountMinor: number;
  amountMinor: number;
}

export class AmountError extends Error {
  override name = 'AmountError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** The exact decimal digits of a JSON number scaled by 10^places (2.5, 2 → 250n); null when it has more decimals. */
export function scaledDecimal(value: number, places: number): bigint | null {
  if (!Number.isFinite(value)) return null;
  const { num, scale } = decimalOfNumber(value);
  return scale > places ? null : num * pow10(places - scale);
}

const QUANTITY_SCALE = 10n ** BigInt(QUANTITY_DECIMALS);
const RATE_SCALE = 10n ** BigInt(RATE_DECIMALS);

function rateOf(value: number, field: string): bigint {
  const r = scaledDecimal(value, RATE_DECIMALS);
  if (r === null || r < 0n || r > 100n * RATE_SCALE) {
    throw new AmountError(field, `${field} must be a percentage from 0 to 100 with at most ${RATE_DECIMALS} decimals`);
  }
  return r;
}

function checkMagnitude(value: bigint, field: string): number {
  if (value > BigInt(MAX_MINOR) || value < -BigInt(MAX_MINOR)) {
    throw new AmountError(field, `${field} is too large`);
  }
  return Number(value);
}

/**
 * A line's amount in minor units: quantity × price, rounded half away from zero. `priceMinor` is in units of
 * 10^-(exponent + priceScale) of the currency (priceScale 0: plain minor units).
 */
export function lineAmountMinor(quantity: number, priceMinor: number, field = 'lineItems', priceScale = 0): number {
  const q = scaledDecimal(quantity, QUANTITY_DECIMALS);
  if (q === null || q < 0n || q > BigInt(MAX_QUANTITY) * QUANTITY_SCALE) {
    throw new AmountError(
      `${field}.quantity`,
      `quantity must be from 0 to ${MAX_QUANTITY} with at most ${QUANTITY_DECIMALS} decimals`,
    );
  }
  if (!Number.isSafeInteger(priceMinor)) throw new AmountError(`${field}.price`, 'price is out of range');
  if (!Number.isInteger(priceScale) || priceScale < 0 || priceScale > UNIT_PRICE_EXTRA_DECIMALS) {
    throw new AmountError(`${field}.price`, 'price has too many decimals');
  }
  const divisor = QUANTITY_SCALE * 10n ** BigInt(priceScale);
  return checkMagnitude(roundDiv(q * BigInt(priceMinor), divisor), `${field}.price`);
}

/** The invoice's totals from its lines and settings; throws AmountError naming the field for invalid input. */
export function computeAmounts(lines: readonly AmountLine[], settings: AmountSettings): InvoiceAmounts {
  const defaultVat = rateOf(settings.vatRate, 'vatRate');
  const defaultTax = rateOf(settings.taxRate, 'taxRate');
  const vatGroups = new Map<bigint, bigint>();
  const taxGroups = new Map<bigint, bigint>();
  let subtotal = 0n;
  const outLines = lines.map((line, i) => {
    const field = `lineItems.${i}`;
    const amount = BigInt(lineAmountMinor(line.quantity, line.priceMinor, field, line.priceScale ?? 0));
    const vat = line.vatRate === null || line.vatRate === undefined ? defaultVat : rateOf(line.vatRate, `${field}.vat`);
    const tax = line.taxRate === null || line.taxRate === undefined ? defaultTax : rateOf(line.taxRate, `${field}.taxRate`);
    subtotal += amount;
    vatGroups.set(vat, (vatGroups.get(vat) ?? 0n) + amount);
    taxGroups.set(tax, (taxGroups.get(tax) ?? 0n) + amount);
    return { amountMinor: Number(amount), vatRate: Number(vat) / Number(RATE_SCALE), taxRate: Number(tax) / Number(RATE_SCALE) };
  });
  const levyOf = (net: bigint, rate: bigint) => roundDiv(net * rate, 100n * RATE_SCALE);
  const levy = (groups: Map<bigint, bigint>) => {
    let sum = 0n;
    for (const [rate, net] of groups) sum += levyOf(net, rate);
    return sum;
  };
  const vatGroupList = [...vatGroups]
    .sort(([a], [b]) => (a > b ? -1 : a < b ? 1 : 0))
    .map(([rate, net]) => ({
      rate: Number(rate) / Number(RATE_SCALE),
      netMinor: Number(net),
      vatMinor: settings.includeVat ? Number(levyOf(net, rate)) : 0,
    }));
  const vat = settings.includeVat ? levy(vatGroups) : 0n;
  const tax = settings.includeTax ? levy(taxGroups) : 0n;
  if (!Number.isSafeInteger(settings.discountMinor) || settings.discountMinor < 0) {
    throw new AmountError('discount', 'discount must not be negative');
  }
  const discount = BigInt(settings.discountMinor);
  const total = subtotal + vat + tax - discount;
  checkMagnitude(subtotal, 'lineItems');
  if (total < 0n) throw new AmountError('discount', 'the discount is larger than the amount due');
  return {
    lines: outLines,
    vatGroups: vatGroupList,
    subtotalMinor: checkMagnitude(subtotal, 'lineItems'),
    vatMinor: checkMagnitude(vat, 'vat'),
    taxMinor: checkMagnitude(tax, 'tax'),
    discountMinor: Number(discount),
    amountMinor: checkMagnitude(total, 'amount'),
  };
}
