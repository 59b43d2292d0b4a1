/**
 * Exact decimal arithmetic for money math: decimal strings as BigInt rationals, and rounding of a rational to an
 * integer number of minor units. Rule used everywhere money is rounded (FX conversion, tax, percentages, invoice
 * lines and VAT): round half away from zero (commercial rounding), applied once, at the end of a computation.
 */
import { decimalParts } from '../money';

/** A decimal string ("0.9234", "-12", "1e-3" is refused) as numerator / 10^scale. */
export interface Decimal {
  num: bigint;
  scale: number;
}

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

export function parseDecimal(text: string): Decimal {
  const m = DECIMAL.exec(text.trim());
  if (!m) throw new RangeError(`not a decimal number: ${JSON.stringify(text)}`);
  const frac = m[3] ?? '';
  const num = BigInt(`${m[2]}${frac}`);
  return { num: m[1] ? -num : num, scale: frac.length };
}

/**
 * A finite JavaScript number as its shortest decimal (what JSON prints), exactly, exponent forms included: the
 * digits come from money.ts's decimalParts, the one reader of a number's decimals.
 */
export function decimalOfNumber(value: number): Decimal {
  if (!Number.isFinite(value)) throw new RangeError('not a finite number');
  const { negative, int, frac } = decimalParts(value);
  const num = BigInt(int + frac);
  return { num: negative ? -num : num, scale: frac.length };
}

/** round(numerator / denominator) half away from zero, for any signs. */
export function roundDiv(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError('division by zero');
  if (denominator < 0n) return roundDiv(-numerator, -denominator);
  const negative = numerator < 0n;
  const n = negative ? -numerator : numerator;
  const q = n / denominator;
  const r = n % denominator;
  const rounded = r * 2n >= denominator ? q + 1n : q;
  return negative ? -rounded : rounded;
}

export const pow10 = (e: number): bigint => 10n ** BigInt(e);
