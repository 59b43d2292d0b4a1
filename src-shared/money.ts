/**
 * Money at the boundary. Amounts are stored and computed as integer minor units (cents, yen, fils) with the
 * currency's ISO 4217 exponent (JPY 0, EUR 2, BHD 3, CLF 4); the API speaks decimal numbers in major units.
 *
 * Converting a JSON number to minor units goes through its shortest decimal representation (what JSON.stringify
 * prints), never through floating-point multiplication: 1.005 EUR × 100 is 100.49999999999999 in binary floating
 * point, but "1.005" has three decimals and is rejected for EUR. A number with more decimals than the currency
 * allows is an error, not silently rounded.
 */
import { data as isoCurrencies } from 'currency-codes';

export class MoneyError extends Error {
  override name = 'MoneyError';
}

/**
 * The largest magnitude in minor units: 15 significant digits. Every decimal with at most 15 significant digits
 * survives the trip through a binary double (JSON number) and back unchanged; beyond that it may not.
 */
export const MAX_MINOR = 999_999_999_999_999;

/**
 * The ISO 4217 minor-unit exponent of every code, read once from the package's table (its own lookup is a linear
 * search of that table, which took a fifth of a customer list page). Funds and metals without one (XAU, XDR…) are
 * treated as 2.
 */
export const CURRENCY_EXPONENTS: ReadonlyMap<string, number> = new Map(
  isoCurrencies.map((c) => [c.code, Number.isInteger(c.digits) ? c.digits : 2]),
);

export function isCurrencyCode(value: string): boolean {
  return CURRENCY_EXPONENTS.has(value);
}

export function currencyExponent(currency: string): number {
  const exponent = CURRENCY_EXPONENTS.get(currency) ?? CURRENCY_EXPONENTS.get(currency.toUpperCase());
  if (exponent === undefined) throw new MoneyError(`unknown currency ${currency}`);
  return exponent;
}

/**
 * Decimal digits of a finite number exactly as JavaScript prints it (its shortest decimal form): sign, integer
 * digits, fraction digits without trailing zeros. The one parser of a JSON number's decimals: money (toMinor) and
 * invoice quantities and rates (domain/invoice-amounts.ts) both read through it, never a floating-point product.
 */
export function decimalParts(value: number): { negative: boolean; int: string; frac: string } {
  let text = String(Math.abs(value));
  const exp = /e([+-]\d+)$/.exec(text);
  if (exp) {
    // Shift the decimal point of the mantissa: 1.5e-7 → 0.00000015, 1e21 → 1000000000000000000000.
    const [mantissa = '', shift] = [text.slice(0, exp.index), Number(exp[1])];
    const [mi = '', mf = ''] = mantissa.split('.');
    const digits = mi + mf;
    const point = mi.length + shift;
    text =
      point <= 0
        ? `0.${'0'.repeat(-point)}${digits}`
        : point >= digits.length
          ? digits + '0'.repeat(point - digits.length)
          : `${digits.slice(0, point)}.${digits.slice(point)}`;
  }
  const [int = '0', frac = ''] = text.split('.');
  return { negative: value < 0 || Object.is(value, -0), int, frac: frac.replace(/0+$/, '') };
}

/** 12.34 EUR → 1234; throws MoneyError for NaN, infinities, too many decimals or an unsafe magnitude. */
export function toMinor(amount: number, currency: string): number {
  if (!Number.isFinite(amount)) throw new MoneyError('amount must be a finite number');
  const exponent = currencyExponent(currency);
  const { negative, int, frac } = decimalParts(amount);
  if (frac.length > exponent) {
    throw new MoneyError(`${currency} amounts have at most ${exponent} decimal place${exponent === 1 ? '' : 's'}; got ${amount}`);
  }
  const minor = Number(int + frac.padEnd(exponent, '0'));
  if (minor > MAX_MINOR) throw new MoneyError(`amount ${amount} is too large`);
  return negative && minor !== 0 ? -minor : minor;
}

/** 10^exponent for the exponents ISO 4217 has (0–4). */
const POWERS_OF_TEN = [1, 10, 100, 1000, 10_000];

/**
 * 1234 minor EUR → 12.34: the nearest double to the exact decimal, which prints as that decimal. Both operands of
 * the division are exact doubles (|minor| ≤ MAX_MINOR < 2^53, 10^exponent small) and IEEE division rounds
 * correctly, so the quotient is the double nearest the exact decimal value: the same double its text would parse
 * to (a property test holds the two equal), without building the text.
 */
export function toMajor(minor: number, currency: string): number {
  if (!Number.isInteger(minor) || Math.abs(minor) > MAX_MINOR) throw new MoneyError(`minor amount out of range: ${minor}`);
  const exponent = currencyExponent(currency);
  if (minor === 0) return 0; // never -0
  return exponent === 0 ? minor : minor / (POWERS_OF_TEN[exponent] ?? 10 ** exponent);
}

/** Formats for people: toMajor + Intl, with the currency's own exponent. */
export function formatMoney(minor: number, currency: string, locale = 'en'): string {
  const exponent = currencyExponent(currency);
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: exponent,
    maximumFractionDigits: exponent,
  }).format(toMajor(minor, currency));
}
