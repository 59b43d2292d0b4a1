import { currencyExponent } from '../money';
import { parseDecimal, pow10, roundDiv } from './exact';

/**
 * Currency conversion at a stated rate, exact. Rates are kept as the spec's exchange-rate payload has them: units of
 * the currency per 1 USD (`{date, usd: {EUR: "0.92", …}}`), as decimal text. Converting `amount` of X to Y is
 * amount × perUsd(Y) / perUsd(X), computed on integers (minor units × decimal rationals) and rounded once, half away
 * from zero, to Y's minor units. The rate of a transaction is the one of its date, else of the nearest earlier date
 * that has one; without one the conversion is absent (null), never a silent 1.0.
 */

/** Converts minor units of `from` to minor units of `to`, given both currencies' units per USD. */
export function convertMinor(amountMinor: number, from: string, to: string, perUsdFrom: string, perUsdTo: string): number {
  if (from === to) return amountMinor;
  const x = parseDecimal(perUsdFrom);
  const y = parseDecimal(perUsdTo);
  if (x.num <= 0n || y.num <= 0n) throw new RangeError('exchange rates must be positive');
  // amount_to = amountMinor / 10^ef × (y / 10^ys) / (x / 10^xs) × 10^et
  const numerator = BigInt(amountMinor) * y.num * pow10(x.scale) * pow10(currencyExponent(to));
  const denominator = x.num * pow10(y.scale) * pow10(currencyExponent(from));
  return Number(roundDiv(numerator, denominator));
}

/** The rate of one unit of `from` in `to` (for display and the single-rate payload), to 10 significant decimals. */
export function crossRate(perUsdFrom: string, perUsdTo: string): number {
  const x = parseDecimal(perUsdFrom);
  const y = parseDecimal(perUsdTo);
  const scaled = roundDiv(y.num * pow10(x.scale) * pow10(12), x.num * pow10(y.scale));
  return Number(scaled) / 1e12;
}

/** A rate as text for storage: a positive decimal, at most 12 fractional digits, no exponent. */
export function normalizeRate(value: string | number): string {
  const text = typeof value === 'number' ? String(value) : value.trim();
  if (!/^\d+(\.\d{1,12})?$/.test(text)) throw new RangeError(`not a rate: ${JSON.stringify(value)}`);
  const d = parseDecimal(text);
  if (d.num <= 0n) throw new RangeError('a rate must be positive');
  return text;
}
