/**
 * The currency exponent rule has one table (src-shared/money.ts) and its SQL form (src-main/store/currency-sql.ts):
 * every ISO code's exponent, divisor and major amount from SQLite equal the TypeScript rule.
 */
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { divisorSql, exponentSql, majorSql } from '../../../src-main/store/currency-sql';
import { CURRENCY_EXPONENTS, currencyExponent, MAX_MINOR, toMajor } from '../../../src-shared/money';

describe('currency exponent SQL', () => {
  const db = new Database(':memory:');
  const exponent = db.prepare(`SELECT ${exponentSql('c')} FROM (SELECT ? AS c)`).pluck();
  const divisor = db.prepare(`SELECT ${divisorSql('c')} FROM (SELECT ? AS c)`).pluck();
  const major = db.prepare(`SELECT ${majorSql('m', 'c')} FROM (SELECT CAST(? AS INTEGER) AS m, ? AS c)`).pluck();
  const codes = [...CURRENCY_EXPONENTS.keys()];

  it('gives every ISO code the exponent and divisor of money.ts', () => {
    expect(codes.length).toBeGreaterThan(150);
    for (const code of codes) {
      expect([code, exponent.get(code)]).toEqual([code, currencyExponent(code)]);
      expect([code, divisor.get(code)]).toEqual([code, 10 ** currencyExponent(code)]);
    }
    expect(exponent.get('JPY')).toBe(0);
    expect(exponent.get('BHD')).toBe(3);
    expect(exponent.get('CLF')).toBe(4);
    expect(exponent.get('EUR')).toBe(2);
  });

  it('converts minor to major as toMajor does, for any amount and currency', () => {
    const amount = fc.oneof(
      fc.integer({ min: -1_000_000, max: 1_000_000 }),
      fc.bigInt({ min: -BigInt(MAX_MINOR), max: BigInt(MAX_MINOR) }).map(Number),
    );
    fc.assert(
      fc.property(amount, fc.constantFrom(...codes), (minor, currency) => {
        expect(major.get(minor, currency)).toBe(toMajor(minor, currency));
      }),
      { numRuns: 2000 },
    );
    expect(major.get(1234, 'EUR')).toBe(12.34);
    expect(major.get(1234, 'JPY')).toBe(1234);
    expect(major.get(-1234, 'BHD')).toBe(-1.234);
  });
});
