/**
 * Invoice totals: a table of hand-checked cases, then property tests against a reference computation that works on
 * decimal strings with BigInt rationals (written independently of the implementation's scaled integers).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AmountError, computeAmounts, lineAmountMinor, scaledDecimal } from '../../../src-shared/domain/invoice-amounts';

const base = { vatRate: 0, taxRate: 0, includeVat: false, includeTax: false, discountMinor: 0 };

describe('invoice amounts: hand-checked cases', () => {
  it.each([
    // quantity, price (minor), line amount (minor)
    [3, 1999, 5997],
    [0.3333, 10000, 3333],
    [1.5, 333, 500], // 499.5 → 500 (half away from zero)
    [0.5, 1, 1], // 0.5 → 1
    [0.5, -1, -1], // -0.5 → -1 (a credit line)
    [2.25, 1, 2], // 2.25 → 2
    [0.0001, 1, 0],
    [1_000_000_000, 999_999, 999_999_000_000_000],
  ])('%s × %s minor = %s minor', (q, p, expected) => {
    expect(lineAmountMinor(q, p)).toBe(expected);
  });

  it.each([
    // quantity, price in units of 10^-(2 + scale) EUR, scale, line amount (minor): prices with 3–4 decimals (BT-146)
    [3, 16_349, 2, 490], // 3 × 1.6349 = 4.9047 → 4.90
    [1, 8_25, 2, 8], // 0.0825 → 0.08
    [10, 8_25, 2, 83], // 0.825 → 0.83 (half away from zero)
    [1, 12_345, 1, 1_235], // 12.345 → 12.35
    [2, -12_345, 1, -2_469], // a credit line at −12.345 → −24.69
    [0.5, 1, 2, 0], // 0.00005 → 0.00
    [1000, 16_349, 2, 163_490],
  ])('%s × %s (scale %s) = %s minor', (q, p, scale, expected) => {
    expect(lineAmountMinor(q, p, 'lineItems', scale)).toBe(expected);
  });

  it('computes VAT per rate group and the hosted total (discount after tax)', () => {
    const r = computeAmounts(
      [
        { quantity: 10, priceMinor: 12_000 }, // 1,200.00 at the invoice's 19 %
        { quantity: 1, priceMinor: 4_999, vatRate: 7 }, // 49.99 at 7 %
        { quantity: 2.5, priceMinor: 3_333 }, // 83.325 → 83.33 at 19 %
      ],
      { vatRate: 19, taxRate: 0, includeVat: true, includeTax: false, discountMinor: 5_000 },
    );
    expect(r.lines.map((l) => l.amountMinor)).toEqual([120_000, 4_999, 8_333]);
    expect(r.subtotalMinor).toBe(133_332);
    // 19 % of 1,283.33 = 243.8327 → 243.83; 7 % of 49.99 = 3.4993 → 3.50
    expect(r.vatMinor).toBe(24_383 + 350);
    expect(r.taxMinor).toBe(0);
    expect(r.amountMinor).toBe(133_332 + 24_733 - 5_000);
  });

  it('equals the hosted formula with one rate: vat = subtotal × rate %', () => {
    const r = computeAmounts([{ quantity: 1, priceMinor: 5 }], { ...base, vatRate: 19, includeVat: true });
    expect(r.vatMinor).toBe(1); // 0.95 minor → 1
    const t = computeAmounts([{ quantity: 3, priceMinor: 1_000 }], { ...base, taxRate: 8.875, includeTax: true });
    expect(t.taxMinor).toBe(266); // 266.25 → 266
  });

  it('charges nothing when VAT or tax are not included', () => {
    const r = computeAmounts([{ quantity: 1, priceMinor: 10_000, vatRate: 19, taxRate: 5 }], base);
    expect([r.vatMinor, r.taxMinor, r.amountMinor]).toEqual([0, 0, 10_000]);
  });

  it('refuses what cannot be exact or makes no sense, naming the field', () => {
    const bad = (f: () => unknown, field: string) => {
      try {
        f();
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(AmountError);
        expect((e as AmountError).field).toBe(field);
      }
    };
    bad(() => computeAmounts([{ quantity: 0.00001, priceMinor: 1 }], base), 'lineItems.0.quantity');
    bad(() => computeAmounts([{ quantity: -1, priceMinor: 1 }], base), 'lineItems.0.quantity');
    bad(() => computeAmounts([{ quantity: 1, priceMinor: 1, vatRate: 101 }], base), 'lineItems.0.vat');
    bad(() => computeAmounts([{ quantity: 1, priceMinor: 1 }], { ...base, vatRate: 1.00001 }), 'vatRate');
    bad(() => computeAmounts([{ quantity: 1, priceMinor: 100 }], { ...base, discountMinor: 101 }), 'discount');
    bad(() => computeAmounts([{ quantity: 1, priceMinor: 100 }], { ...base, discountMinor: -1 }), 'discount');
    bad(() => computeAmounts([{ quantity: 1_000_000_000, priceMinor: 10 ** 7 }], base), 'lineItems.0.price');
    bad(() => computeAmounts([{ quantity: 1, priceMinor: 1, priceScale: 3 }], base), 'lineItems.0.price');
  });

  it('reads decimals exactly as printed, never through float multiplication', () => {
    expect(scaledDecimal(1.005, 4)).toBe(10_050n);
    expect(scaledDecimal(0.1 + 0.2, 4)).toBeNull(); // 0.30000000000000004 has more decimals
    expect(scaledDecimal(1e-4, 4)).toBe(1n);
    expect(scaledDecimal(1e21, 0)).toBe(10n ** 21n);
    expect(scaledDecimal(-2.5, 1)).toBe(-25n);
  });
});

// ----------------------------------------------------------------------------------------------------------------
// Reference: decimal strings → exact rationals; round half away from zero by comparing twice the remainder.

interface Rational {
  n: bigint;
  d: bigint;
}
function parse(text: string): Rational {
  const negative = text.startsWith('-');
  const [i = '0', f = ''] = text.replace('-', '').split('.');
  const n = BigInt(i + f) * (negative ? -1n : 1n);
  return { n, d: 10n ** BigInt(f.length) };
}
function roundHalfAway({ n, d }: Rational): bigint {
  const sign = n < 0n ? -1n : 1n;
  const a = n * sign;
  const q = a / d;
  const r = a - q * d;
  return sign * (r * 2n >= d ? q + 1n : q);
}
function times(a: Rational, b: Rational): Rational {
  return { n: a.n * b.n, d: a.d * b.d };
}

const decimalText = (maxInt: number, places: number) =>
  fc
    .tuple(fc.integer({ min: 0, max: maxInt }), fc.integer({ min: 0, max: 10 ** places - 1 }))
    .map(([i, f]) =>
      (places === 0 ? String(i) : `${i}.${String(f).padStart(places, '0')}`).replace(/\.?0+$/, (m) => (m.includes('.') ? '' : m)),
    );

const line = fc.record({
  quantity: decimalText(10_000, 4),
  priceMinor: fc.integer({ min: -1_000_000, max: 100_000_000 }),
  // Decimals beyond the currency's (unit-price.ts): priceMinor is then in 10^-scale minor units.
  priceScale: fc.integer({ min: 0, max: 2 }),
  vatRate: fc.option(
    decimalText(100, 2).filter((r) => Number(r) <= 100),
    { nil: undefined },
  ),
  taxRate: fc.option(decimalText(30, 3), { nil: undefined }),
});

describe('invoice amounts: properties against the reference', () => {
  it('every total equals the reference computation', () => {
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 0, maxLength: 12 }),
        decimalText(100, 2).filter((r) => Number(r) <= 100),
        decimalText(25, 3),
        fc.boolean(),
        fc.boolean(),
        (lines, vatRate, taxRate, includeVat, includeTax) => {
          // Reference.
          let subtotal = 0n;
          const vatGroups = new Map<string, bigint>();
          const taxGroups = new Map<string, bigint>();
          const lineAmounts: bigint[] = [];
          for (const l of lines) {
            const amount = roundHalfAway(times(parse(l.quantity), { n: BigInt(l.priceMinor), d: 10n ** BigInt(l.priceScale) }));
            lineAmounts.push(amount);
            subtotal += amount;
            const v = String(Number(l.vatRate ?? vatRate));
            const t = String(Number(l.taxRate ?? taxRate));
            vatGroups.set(v, (vatGroups.get(v) ?? 0n) + amount);
            taxGroups.set(t, (taxGroups.get(t) ?? 0n) + amount);
          }
          const levy = (groups: Map<string, bigint>) =>
            [...groups].reduce((s, [rate, net]) => {
              const r = parse(rate);
              return s + roundHalfAway({ n: net * r.n, d: r.d * 100n });
            }, 0n);
          const vat = includeVat ? levy(vatGroups) : 0n;
          const tax = includeTax ? levy(taxGroups) : 0n;
          const gross = subtotal + vat + tax;
          const discount = gross > 0n ? gross / 3n : 0n;

          const input = lines.map((l) => ({
            quantity: Number(l.quantity),
            priceMinor: l.priceMinor,
            priceScale: l.priceScale,
            vatRate: l.vatRate === undefined ? undefined : Number(l.vatRate),
            taxRate: l.taxRate === undefined ? undefined : Number(l.taxRate),
          }));
          const settings = { vatRate: Number(vatRate), taxRate: Number(taxRate), includeVat, includeTax };
          if (gross - discount < 0n) {
            expect(() => computeAmounts(input, { ...settings, discountMinor: Number(discount) })).toThrow(AmountError);
            return;
          }
          const r = computeAmounts(input, { ...settings, discountMinor: Number(discount) });
          expect(r.lines.map((x) => BigInt(x.amountMinor))).toEqual(lineAmounts);
          expect(BigInt(r.subtotalMinor)).toBe(subtotal);
          expect(BigInt(r.vatMinor)).toBe(vat);
          expect(BigInt(r.taxMinor)).toBe(tax);
          expect(BigInt(r.amountMinor)).toBe(gross - discount);
          expect(r.amountMinor).toBe(r.subtotalMinor + r.vatMinor + r.taxMinor - r.discountMinor);
        },
      ),
      { numRuns: 2000, seed: 70 },
    );
  });

  it('rounds each VAT group at most half a minor unit away from the exact levy', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 8 }), (lines) => {
        const input = lines.map((l) => ({ quantity: Number(l.quantity), priceMinor: Math.abs(l.priceMinor) }));
        const r = computeAmounts(input, { ...base, vatRate: 19, includeVat: true });
        // One group: |vat − subtotal × 19 %| ≤ 0.5 minor units.
        const exact = r.subtotalMinor * 0.19;
        expect(Math.abs(r.vatMinor - exact)).toBeLessThanOrEqual(0.5 + 1e-6 * Math.max(1, exact));
      }),
      { numRuns: 500, seed: 71 },
    );
  });
});
