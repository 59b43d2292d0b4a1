import { describe, expect, it } from 'vitest';
import { splitRemainder } from '../../../../src-renderer/screens/transactions/TransactionPanel';

describe('split parts must sum to the amount', () => {
  it('computes the remainder exactly in minor units', () => {
    expect(splitRemainder(-100, 'EUR', [{ amount: '-33.33' }, { amount: '-66.67' }])).toBe(0);
    expect(splitRemainder(-0.3, 'EUR', [{ amount: '-0.1' }, { amount: '-0.2' }])).toBe(0);
    expect(splitRemainder(-100, 'EUR', [{ amount: '-60' }])).toBe(-4000);
    expect(splitRemainder(1000, 'JPY', [{ amount: '999' }])).toBe(1);
  });

  it('has no remainder while a part is not a number', () => {
    expect(splitRemainder(-100, 'EUR', [{ amount: '' }, { amount: '-1' }])).toBeNull();
    expect(splitRemainder(-100, 'EUR', [{ amount: 'abc' }])).toBeNull();
  });
});
