import { describe, expect, it } from 'vitest';
import { splitGap, splitRemainder } from '../../../../src-renderer/screens/transactions/TransactionPanel';

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

describe('what the parts lack is said without a sign that reads wrong', () => {
  it('an expense short of its parts has money left to split; past them, it is over', () => {
    const short = splitRemainder(-38.12, 'EUR', [{ amount: '-27.18' }])!;
    expect(splitGap(-38.12, 'EUR', short)).toEqual({ kind: 'left', minor: 1094 });
    const past = splitRemainder(-38.12, 'EUR', [{ amount: '-49.06' }])!;
    expect(splitGap(-38.12, 'EUR', past)).toEqual({ kind: 'over', minor: 1094 });
  });

  it('income alike, and a zero amount has nothing left, only over', () => {
    expect(splitGap(100, 'EUR', splitRemainder(100, 'EUR', [{ amount: '60' }])!)).toEqual({ kind: 'left', minor: 4000 });
    expect(splitGap(100, 'EUR', splitRemainder(100, 'EUR', [{ amount: '130' }])!)).toEqual({ kind: 'over', minor: 3000 });
    expect(splitGap(0, 'EUR', splitRemainder(0, 'EUR', [{ amount: '5' }])!)).toEqual({ kind: 'over', minor: 500 });
  });
});
