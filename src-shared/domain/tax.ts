import { decimalOfNumber, pow10, roundDiv } from './exact';

/**
 * Tax contained in a gross amount: taxAmount = amount × rate / (100 + rate), rounded half away from zero to minor
 * units (the hosted service reports revenue net of tax as amount − amount × rate / (100 + rate)). Rates are
 * percentages (19, 7, 5.5, 8.1). A transaction's tax comes from its category unless the transaction overrides it;
 * changing the category drops the override (the category's tax applies again).
 */
export function includedTaxMinor(amountMinor: number, ratePercent: number): number {
  if (ratePercent === 0) return 0;
  const r = decimalOfNumber(ratePercent);
  // amount × r / (100 + r) with r = num / 10^scale → amount × num / (100·10^scale + num)
  return Number(roundDiv(BigInt(amountMinor) * r.num, 100n * pow10(r.scale) + r.num));
}
