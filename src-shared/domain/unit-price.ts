/**
 * An invoice line's unit price, exact (docs/decisions/0071-invoice-amounts-and-rounding.md). EN 16931 lets the item
 * net price (BT-146) carry more decimals than the currency (a litre of fuel at 1.6349 EUR, a component at 0.0825 EUR)
 * while every amount stays in the currency's minor unit; so a unit price may have up to
 * UNIT_PRICE_EXTRA_DECIMALS more decimals than its currency (EUR, USD: 4; JPY: 2), and only the line amount
 * (quantity × price) is rounded to the minor unit.
 *
 * It is held as an integer: `priceMinor` in units of 10^-(exponent + priceScale) of the currency, `priceScale` the
 * extra decimals (1 or 2; omitted for 0, so a price that fits the minor unit is stored exactly as before:
 * `priceMinor` then is plain minor units). The scale is always the smallest that holds the price (12.5000 EUR is
 * 1250 at scale 0, never 125000 at scale 2). Pure.
 */
import { currencyExponent, decimalParts, MAX_MINOR, MoneyError } from '../money';

export const UNIT_PRICE_EXTRA_DECIMALS = 2;

export interface UnitPrice {
  /** The price in units of 10^-(currency exponent + priceScale). */
  priceMinor: number;
  /** Decimals beyond the currency's minor unit: 1 or 2; absent (or 0) for a price in whole minor units. */
  priceScale?: number;
}

const scaleOf = (p: UnitPrice) => p.priceScale ?? 0;

/** 12.3456 EUR → {priceMinor: 123456, priceScale: 2}; 12.5 EUR → {priceMinor: 1250}. Throws MoneyError. */
export function toUnitPrice(amount: number, currency: string): UnitPrice {
  if (!Number.isFinite(amount)) throw new MoneyError('price must be a finite number');
  const exponent = currencyExponent(currency);
  const { negative, int, frac } = decimalParts(amount);
  const max = exponent + UNIT_PRICE_EXTRA_DECIMALS;
  if (frac.length > max) {
    throw new MoneyError(`${currency} unit prices have at most ${max} decimal places; got ${amount}`);
  }
  const scale = Math.max(0, frac.length - exponent);
  const units = Number(int + frac.padEnd(exponent + scale, '0'));
  if (units > MAX_MINOR) throw new MoneyError(`price ${amount} is too large`);
  const priceMinor = negative && units !== 0 ? -units : units;
  return scale === 0 ? { priceMinor } : { priceMinor, priceScale: scale };
}

/**
 * The price in major units: the double nearest the exact decimal (both operands of the division are exact doubles
 * and IEEE division rounds correctly, as in money.ts toMajor).
 */
export function unitPriceMajor(p: UnitPrice, currency: string): number {
  if (!Number.isSafeInteger(p.priceMinor)) throw new MoneyError(`unit price out of range: ${p.priceMinor}`);
  if (p.priceMinor === 0) return 0;
  const places = currencyExponent(currency) + scaleOf(p);
  return places === 0 ? p.priceMinor : p.priceMinor / 10 ** places;
}

/** The price as decimal text with the currency's decimals at least (1250 EUR → "12.50", scale 2 → "12.3456"). */
export function unitPriceText(p: UnitPrice, currency: string): string {
  const places = currencyExponent(currency) + scaleOf(p);
  const digits = String(Math.abs(p.priceMinor)).padStart(places + 1, '0');
  const text = places === 0 ? digits : `${digits.slice(0, -places)}.${digits.slice(-places)}`;
  return p.priceMinor < 0 ? `-${text}` : text;
}

/** The price in units of 10^-(exponent + scale): exact, for arithmetic (BigInt). */
export function scaledUnitPrice(p: UnitPrice, scale: number): bigint {
  const own = scaleOf(p);
  if (scale < own) throw new MoneyError(`unit price needs ${own} extra decimals`);
  return BigInt(p.priceMinor) * 10n ** BigInt(scale - own);
}

/** Whether the price fits the currency's minor unit (no extra decimals). */
export const isWholeMinor = (p: UnitPrice) => scaleOf(p) === 0;
