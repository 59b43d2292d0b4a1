/**
 * The rate of a day has two forms (src-main/store/rate-of-day.ts): perUsdOn, one indexed lookup, and
 * rateLookup, a binary search over rates read once. A table of days before, on, between and after the stored rates
 * holds both to the rule (that day's rate, else the nearest earlier one; USD is 1; none before the first), and a
 * property test holds them equal on random rate tables.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../../src-main/store/db';
import { importRates } from '../../../src-main/store/exchange-rates/rates';
import { perUsdOn, rateLookup } from '../../../src-main/store/rate-of-day';
import { tmpDir } from '../../helpers/tmp';

let db: Db;
afterEach(() => db?.close());

const RATES = [
  { currency: 'EUR', day: '2026-01-05', perUsd: '0.91', line: 1 },
  { currency: 'EUR', day: '2026-01-07', perUsd: '0.92', line: 2 },
  { currency: 'EUR', day: '2026-02-01', perUsd: '0.93', line: 3 },
  { currency: 'JPY', day: '2026-01-06', perUsd: '150.5', line: 4 },
];

const CASES: [string, string, string | null][] = [
  ['EUR', '2026-01-04', null], // before the first rate
  ['EUR', '2026-01-05', '0.91'], // on a rate's day
  ['EUR', '2026-01-06', '0.91'], // between: the earlier one
  ['EUR', '2026-01-07', '0.92'],
  ['EUR', '2026-01-31', '0.92'],
  ['EUR', '2026-02-01', '0.93'],
  ['EUR', '2030-12-31', '0.93'], // after the last
  ['JPY', '2026-01-05', null],
  ['JPY', '2026-01-06', '150.5'],
  ['JPY', '2027-01-01', '150.5'],
  ['USD', '2000-01-01', '1'],
  ['GBP', '2026-01-10', null], // no rate at all
];

describe('rate of a day', () => {
  it.each(CASES)('%s on %s is %s in both forms', (currency, day, expected) => {
    db = openDatabase(tmpDir());
    importRates(db, RATES);
    expect(perUsdOn(db, currency, day)?.perUsd ?? null).toBe(expected);
    expect(rateLookup(db, ['EUR', 'JPY', 'GBP', 'USD'])(currency, day)).toBe(expected);
    expect(rateLookup(db, [currency], '2030-12-31')(currency, day)).toBe(expected);
  });

  it('says which day a rate is from', () => {
    db = openDatabase(tmpDir());
    importRates(db, RATES);
    expect(perUsdOn(db, 'EUR', '2026-01-20')).toEqual({ perUsd: '0.92', day: '2026-01-07' });
    expect(perUsdOn(db, 'USD', '2026-01-20')).toEqual({ perUsd: '1', day: '2026-01-20' });
  });

  it('answers every day up to its bound as without one', () => {
    db = openDatabase(tmpDir());
    importRates(db, RATES);
    const upToJanuary = rateLookup(db, ['EUR', 'JPY'], '2026-01-31');
    const unbounded = rateLookup(db, ['EUR', 'JPY']);
    const asked = CASES.filter(([, day]) => day <= '2026-01-31');
    expect(asked.length).toBeGreaterThan(5);
    for (const [currency, day] of asked) expect(upToJanuary(currency, day)).toBe(unbounded(currency, day));
  });

  it('agrees in both forms on random rate tables and days', () => {
    db = openDatabase(tmpDir());
    const day = fc.integer({ min: 0, max: 60 }).map((n) => new Date(Date.UTC(2026, 0, 1 + n)).toISOString().slice(0, 10));
    const table = fc.uniqueArray(
      fc.record({
        currency: fc.constantFrom('EUR', 'JPY', 'CHF'),
        day,
        perUsd: fc.integer({ min: 1, max: 999 }).map(String),
        line: fc.constant(1),
      }),
      { selector: (r) => `${r.currency} ${r.day}`, maxLength: 40 },
    );
    fc.assert(
      fc.property(
        table,
        fc.array(fc.tuple(fc.constantFrom('EUR', 'JPY', 'CHF', 'USD'), day), { maxLength: 20 }),
        (rows, asks) => {
          db.exec('DELETE FROM fx_rates');
          importRates(db, rows);
          const lookup = rateLookup(db, ['EUR', 'JPY', 'CHF']);
          for (const [currency, d] of asks) expect(lookup(currency, d)).toBe(perUsdOn(db, currency, d)?.perUsd ?? null);
        },
      ),
      { numRuns: 200 },
    );
  });
});
