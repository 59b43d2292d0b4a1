import { data as isoCurrencies } from 'currency-codes';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  currencyExponent,
  decimalParts,
  formatMoney,
  isCurrencyCode,
  MAX_MINOR,
  MoneyError,
  toMajor,
  toMinor,
} from '../../src-shared/money';

describe('money', () => {
  it.each([
    ['JPY', 0],
    ['EUR', 2],
    ['USD', 2],
    ['BHD', 3],
    ['KWD', 3],
    ['CLF', 4],
  ])('%s has exponent %i (ISO 4217)', (currency, exponent) => {
    expect(currencyExponent(currency)).toBe(exponent);
  });

  it.each([
    [12.34, 'EUR', 1234],
    [-12.34, 'EUR', -1234],
    [0.1, 'EUR', 10],
    [1.1, 'EUR', 110],
    [19.99, 'USD', 1999],
    [1500, 'JPY', 1500],
    [1.234, 'BHD', 1234],
    [0.005, 'BHD', 5],
    [1e-7 * 1e7, 'EUR', 100],
    [9999999999999.99, 'EUR', 999999999999999],
    [0, 'EUR', 0],
    [-0, 'EUR', 0],
  ])('toMinor(%d, %s) = %i', (amount, currency, minor) => {
    expect(toMinor(amount, currency)).toBe(minor);
  });

  it.each([
    [1.005, 'EUR'],
    [0.1 + 0.2, 'EUR'],
    [1.5, 'JPY'],
    [1.2345, 'BHD'],
    [1.5e-7, 'EUR'],
    [Number.NaN, 'EUR'],
    [Number.POSITIVE_INFINITY, 'EUR'],
    [1e300, 'EUR'],
    [10000000000000, 'EUR'],
  ])('toMinor(%d, %s) is refused rather than rounded', (amount, currency) => {
    expect(() => toMinor(amount, currency)).toThrow(MoneyError);
  });

  it('round-trips every minor amount in a wide sample', () => {
    for (const currency of ['EUR', 'JPY', 'BHD']) {
      for (let i = -100_000; i <= 100_000; i += 7) expect(toMinor(toMajor(i, currency), currency)).toBe(i);
      for (const big of [MAX_MINOR, -MAX_MINOR, 123456789012345, 100000000000001]) {
        expect(toMinor(toMajor(big, currency), currency)).toBe(big);
      }
    }
  });

  it('converts minor to major exactly', () => {
    expect(toMajor(1234, 'EUR')).toBe(12.34);
    expect(toMajor(-5, 'EUR')).toBe(-0.05);
    expect(toMajor(1234, 'BHD')).toBe(1.234);
    expect(toMajor(1234, 'JPY')).toBe(1234);
    expect(toMajor(5, 'CLF')).toBe(0.0005);
    expect(Object.is(toMajor(-0, 'EUR'), 0)).toBe(true);
  });

  it('converts minor to major as the double its decimal text parses to, for any amount and exponent', () => {
    /** The decimal written out and parsed: the definition of "the nearest double to the exact decimal". */
    const parsed = (minor: number, exponent: number) => {
      if (exponent === 0) return minor;
      const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
      const value = Number(`${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`);
      return minor < 0 ? -value : value;
    };
    // Small amounts (every digit count of a price) and large ones up to MAX_MINOR.
    const amount = fc.oneof(
      fc.integer({ min: -1_000_000, max: 1_000_000 }),
      fc.bigInt({ min: -BigInt(MAX_MINOR), max: BigInt(MAX_MINOR) }).map(Number),
    );
    fc.assert(
      fc.property(amount, fc.constantFrom('JPY', 'EUR', 'BHD', 'CLF'), (minor, currency) => {
        expect(toMajor(minor, currency)).toBe(parsed(minor, currencyExponent(currency)));
      }),
      { numRuns: 20_000 },
    );
  });

  it('knows every ISO 4217 code with its exponent, in upper case and as written', () => {
    for (const c of isoCurrencies) {
      expect(isCurrencyCode(c.code)).toBe(true);
      expect(currencyExponent(c.code)).toBe(Number.isInteger(c.digits) ? c.digits : 2);
      expect(currencyExponent(c.code.toLowerCase())).toBe(currencyExponent(c.code));
    }
    expect(isCurrencyCode('eur')).toBe(false);
  });

  it('knows real currency codes only', () => {
    expect(isCurrencyCode('EUR')).toBe(true);
    expect(isCurrencyCode('EURO')).toBe(false);
    expect(isCurrencyCode('ABC')).toBe(false);
    expect(() => currencyExponent('ABC')).toThrow(MoneyError);
  });

  it('formats with the currency exponent', () => {
    expect(formatMoney(123456, 'EUR', 'en')).toBe('€1,234.56');
    expect(formatMoney(1234, 'BHD', 'en')).toMatch(/1\.234/);
    expect(formatMoney(1234, 'JPY', 'en')).toBe('¥1,234');
  });
});

/** The one decimal parser (toMinor and the invoice quantities and rates read through it). */
describe('decimalParts', () => {
  it.each([
    [12.34, false, '12', '34'],
    [-0.05, true, '0', '05'],
    [1.005, false, '1', '005'],
    [2.5, false, '2', '5'],
    [100, false, '100', ''],
    [0, false, '0', ''],
    [-0, true, '0', ''],
    [1.5e-7, false, '0', '00000015'],
    [1e21, false, '1000000000000000000000', ''],
    [-1.25e22, true, '12500000000000000000000', ''],
    [0.1 + 0.2, false, '0', '30000000000000004'],
  ])('reads %d as its printed digits', (value, negative, int, frac) => {
    expect(decimalParts(value)).toEqual({ negative, int, frac });
  });

  it('gives back the digits of the very double it read, for any finite number', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        const { negative, int, frac } = decimalParts(value);
        expect(int).toMatch(/^(0|[1-9]\d*)$/);
        expect(frac).toMatch(/^(\d*[1-9])?$/);
        expect(Object.is(Number(`${negative ? '-' : ''}${int}.${frac || '0'}`), value)).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });
});
