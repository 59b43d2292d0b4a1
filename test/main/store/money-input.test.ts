import { describe, expect, it } from 'vitest';
import { toApiError } from '../../../src-main/server/errors';
import { InvalidReference } from '../../../src-main/store/errors';
import { minorOf, moneyField } from '../../../src-main/store/money-input';

/** What a call throws (the test fails when it does not throw). */
function thrown(call: () => unknown): unknown {
  try {
    call();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

describe('minorOf', () => {
  it.each([
    // exponent 0
    [1500, 'JPY', 1500],
    [-1500, 'JPY', -1500],
    [1500.0, 'jpy', 1500],
    // exponent 2
    [12.34, 'EUR', 1234],
    [-12.34, 'EUR', -1234],
    [-0.01, 'EUR', -1],
    [1.1, 'EUR', 110],
    [0, 'EUR', 0],
    [-0, 'EUR', 0],
    // exponent 3
    [1.234, 'BHD', 1234],
    [-0.005, 'BHD', -5],
    [7, 'BHD', 7000],
  ])('minorOf(%d, %s) = %i', (amount, currency, minor) => {
    expect(Object.is(minorOf(amount, currency, 'amount'), minor)).toBe(true);
  });

  it.each([
    [12.5, 'JPY', 'JPY amounts have at most 0 decimal places; got 12.5'],
    [-1.005, 'EUR', 'EUR amounts have at most 2 decimal places; got -1.005'],
    [0.0001, 'BHD', 'BHD amounts have at most 3 decimal places; got 0.0001'],
    [1e16, 'EUR', 'amount 10000000000000000 is too large'],
    [Number.NaN, 'EUR', 'amount must be a finite number'],
    [1, 'XXXX', 'unknown currency XXXX'],
  ])('refuses %d %s as the field’s 422, the message as the routes answer it', (amount, currency, message) => {
    const err = thrown(() => minorOf(amount, currency, 'splits.0.amount'));
    expect(err).toBeInstanceOf(InvalidReference);
    expect(err).toMatchObject({ field: 'splits.0.amount', message });
    const api = toApiError(err);
    expect(api.statusCode).toBe(422);
    expect(api.description).toBe('field: splits.0.amount');
    expect(api.fields).toEqual([{ location: 'body', path: 'splits.0.amount', message }]);
  });

  it('leads the message with the field where the store writes name it so', () => {
    const err = thrown(() => minorOf(10.555, 'EUR', 'rate', 'named'));
    expect(err).toMatchObject({ field: 'rate', message: 'rate: EUR amounts have at most 2 decimal places; got 10.555' });
    expect(toApiError(err).fields).toEqual([
      { location: 'body', path: 'rate', message: 'rate: EUR amounts have at most 2 decimal places; got 10.555' },
    ]);
  });
});

describe('moneyField', () => {
  it('passes a value through and any error but MoneyError unchanged', () => {
    expect(moneyField('x', () => 42)).toBe(42);
    const other = new TypeError('not money');
    expect(
      thrown(() =>
        moneyField('x', () => {
          throw other;
        }),
      ),
    ).toBe(other);
  });
});
