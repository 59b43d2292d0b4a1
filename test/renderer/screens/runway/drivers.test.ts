import { describe, expect, it } from 'vitest';
import { driverErrors, fromSent, missingInputs, newDriver, toDrivers } from '../../../../src-renderer/screens/runway/drivers';

describe('stress-test drivers in the builder', () => {
  it('sends numbers as numbers, leaves empty optional inputs out, keeps a half-typed number for the server to name', () => {
    const shock = newDriver('RevenueShock');
    shock.values = { pct: '-30', months: '3', startOffset: '' };
    const fx = newDriver('FxShock');
    fx.values = { base: 'USD', pct: '-12.5' };
    const bad = newDriver('CollectionDelay');
    bad.values = { days: '3o' };
    expect(toDrivers([shock, fx, bad])).toEqual([
      { kind: 'RevenueShock', pct: -30, months: 3 },
      { kind: 'FxShock', pairs: [{ base: 'USD', pct: -12.5 }] },
      { kind: 'CollectionDelay', days: '3o' },
    ]);
  });

  it('reopens a saved driver into the same inputs', () => {
    const d = fromSent({ kind: 'HiringPlan', headcountDelta: 4, monthlyCostPerHead: 6000, startMonthOffset: 1 });
    expect(d.kind).toBe('HiringPlan');
    expect(d.values).toEqual({ headcountDelta: '4', monthlyCostPerHead: '6000', startMonthOffset: '1', rampMonths: '' });
    expect(fromSent({ type: 'FxShock', pairs: [{ base: 'GBP', pct: 5 }] }).values).toEqual({ base: 'GBP', pct: '5' });
  });

  it('puts the server’s field errors at the driver input they name', () => {
    const { fields, rest } = driverErrors([
      { location: 'body', path: 'drivers.1.pct', message: 'too small: expected number to be >=-100' },
      { location: 'body', path: 'drivers.0.pairs.0.base', message: 'must be an ISO 4217 currency code' },
      { location: 'body', path: 'horizonMonths', message: 'too big' },
    ]);
    expect(fields).toEqual({ '1.pct': 'Too small: expected number to be >=-100', '0.base': 'Must be an ISO 4217 currency code' });
    expect(rest).toBe('horizonMonths: too big');
  });

  it('says which required inputs are empty before anything is sent: a one-time expense without its day', () => {
    const expense = newDriver('OneTimeExpense');
    const shock = newDriver('RevenueShock');
    const drafts = [shock, { ...expense, values: { amount: '5000', date: ' ' } }];
    expect(missingInputs(drafts, (k) => `need ${k}`)).toEqual({ '1.date': 'need date' });
    expect(missingInputs([{ ...shock, values: { pct: '', months: '3' } }], (k) => k)).toEqual({ '0.pct': 'pct' });
    expect(missingInputs([{ ...expense, values: { amount: '1', date: '2026-12-01' } }], (k) => k)).toEqual({});
  });
});
