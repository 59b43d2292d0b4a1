import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scaledUnitPrice, toUnitPrice, unitPriceMajor, unitPriceText } from '../../../src-shared/domain/unit-price';
import { MoneyError } from '../../../src-shared/money';

/** Unit prices with up to two decimals beyond the currency's (BT-146), held as exact integers. */

describe('unit prices', () => {
  it.each([
    [12.5, 'EUR', { priceMinor: 1250 }, '12.50'],
    [12.3456, 'EUR', { priceMinor: 123_456, priceScale: 2 }, '12.3456'],
    [1.635, 'EUR', { priceMinor: 1635, priceScale: 1 }, '1.635'],
    [0.0825, 'EUR', { priceMinor: 825, priceScale: 2 }, '0.0825'],
    [-12.345, 'EUR', { priceMinor: -12_345, priceScale: 1 }, '-12.345'],
    [0, 'EUR', { priceMinor: 0 }, '0.00'],
    [120, 'JPY', { priceMinor: 120 }, '120'],
    [0.25, 'JPY', { priceMinor: 25, priceScale: 2 }, '0.25'],
    [1.2345, 'KWD', { priceMinor: 12_345, priceScale: 1 }, '1.2345'],
  ])('%s %s is %j, printed %s', (amount, currency, price, text) => {
    expect(toUnitPrice(amount, currency)).toEqual(price);
    expect(unitPriceText(price, currency)).toBe(text);
    expect(unitPriceMajor(price, currency)).toBe(amount);
  });

  it('refuses more than two decimals beyond the currency, and what is not finite', () => {
    expect(() => toUnitPrice(1.23456, 'EUR')).toThrow(/at most 4 decimal places/);
    expect(() => toUnitPrice(0.125, 'JPY')).toThrow(MoneyError);
    expect(() => toUnitPrice(Number.NaN, 'EUR')).toThrow(MoneyError);
    expect(() => toUnitPrice(1e20, 'EUR')).toThrow(/too large/);
  });

  it('scales exactly for arithmetic', () => {
    expect(scaledUnitPrice({ priceMinor: 1250 }, 2)).toBe(125_000n);
    expect(scaledUnitPrice({ priceMinor: 1635, priceScale: 1 }, 2)).toBe(16_350n);
    expect(() => scaledUnitPrice({ priceMinor: 1635, priceScale: 1 }, 0)).toThrow(MoneyError);
  });

  it('turns every price with up to four decimals into itself and back (text and number)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(10 ** 10), max: 10 ** 12 }), fc.integer({ min: 0, max: 4 }), (units, places) => {
        const text = (units / 10 ** places).toFixed(places);
        const amount = Number(text);
        const p = toUnitPrice(amount, 'EUR');
        expect(unitPriceMajor(p, 'EUR')).toBe(amount);
        expect(Number(unitPriceText(p, 'EUR'))).toBe(amount);
        expect(p.priceScale ?? 0).toBeLessThanOrEqual(Math.max(0, places - 2));
      }),
      { numRuns: 1000, seed: 146 },
    );
  });
});
