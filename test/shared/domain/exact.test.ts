import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalOfNumber, roundDiv } from '../../../src-shared/domain/exact';

/** The one commercial rounding: FX, tax, percentages and invoice lines all round through roundDiv. */
describe('roundDiv', () => {
  it.each([
    // exact quotients
    [10n, 5n, 2n],
    [0n, 7n, 0n],
    [-10n, 5n, -2n],
    // below, at and above the half, both signs: halves go away from zero
    [14n, 10n, 1n],
    [15n, 10n, 2n],
    [16n, 10n, 2n],
    [-14n, 10n, -1n],
    [-15n, 10n, -2n],
    [-16n, 10n, -2n],
    [1n, 2n, 1n],
    [-1n, 2n, -1n],
    [3n, 2n, 2n],
    [-3n, 2n, -2n],
    [5n, 2n, 3n],
    [-5n, 2n, -3n],
    // odd divisors have no exact half
    [1n, 3n, 0n],
    [2n, 3n, 1n],
    [-2n, 3n, -1n],
    // a negative divisor: the sign of the quotient decides
    [15n, -10n, -2n],
    [-15n, -10n, 2n],
    [14n, -10n, -1n],
    // beyond the doubles: 999999999999999.5 → 1000000000000000
    [9_999_999_999_999_995n, 10n, 1_000_000_000_000_000n],
    [-9_999_999_999_999_995n, 10n, -1_000_000_000_000_000n],
  ])('roundDiv(%s, %s) = %s', (n, d, q) => {
    expect(roundDiv(n, d)).toBe(q);
  });

  it('refuses a zero divisor', () => {
    expect(() => roundDiv(1n, 0n)).toThrow(RangeError);
  });

  it('is the nearest integer, a half going away from zero, for any signs', () => {
    const abs = (x: bigint) => (x < 0n ? -x : x);
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }),
        fc.bigInt({ min: -(10n ** 8n), max: 10n ** 8n }),
        (n, d) => {
          fc.pre(d !== 0n);
          const q = roundDiv(n, d);
          const off = abs(2n * (n - q * d)); // twice the distance to the exact quotient, times |d|
          expect(off <= abs(d)).toBe(true);
          if (off === abs(d)) expect(abs(q * d) > abs(n)).toBe(true);
        },
      ),
      { numRuns: 5000 },
    );
  });
});

/** Numbers read through money.ts's decimalParts, so a rate is exactly the decimal it prints as. */
describe('decimalOfNumber', () => {
  it.each([
    [19, 19n, 0],
    [5.5, 55n, 1],
    [8.875, 8875n, 3],
    [-2.5, -25n, 1],
    [0, 0n, 0],
    [-0, 0n, 0],
    [0.1 + 0.2, 30000000000000004n, 17],
    [1.5e-7, 15n, 8],
    [1.23456789e-7, 123456789n, 15],
    [1e21, 10n ** 21n, 0],
  ])('%d is %s / 10^%i', (value, num, scale) => {
    expect(decimalOfNumber(value)).toEqual({ num, scale });
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])('refuses %d', (value) => {
    expect(() => decimalOfNumber(value)).toThrow(RangeError);
  });
});
