/**
 * The entry amount rule has one TypeScript form (src-shared/domain/tracker.ts) and one SQL form
 * (src-main/store/tracker/amount-sql.ts): a table of durations, rates and billable flags holds them equal, including
 * the half-up boundaries and magnitudes near the largest rate the contract accepts.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  entryAmountSql,
  entryBillableSql,
  entryRateSourceSql,
  entryRateSql,
} from '../../../../src-main/store/tracker/amount-sql';
import { effectiveRate, entryAmountMinor, type RateInputs } from '../../../../src-shared/domain/tracker';

const CASES: [number, number | null, boolean, number | null][] = [
  [3600, 10000, true, 10000],
  [1800, 10000, true, 5000],
  [1, 1800, true, 1], // 0.5 minor → half up
  [1, 1799, true, 0],
  [7, 9750, true, 19],
  [3601, 9750, true, 9753],
  [3600, 10000, false, 0],
  [3600, null, true, 0],
  [0, 10000, true, 0],
  [604_800, 100_000_000, true, 16_800_000_000],
  [59, 333, true, 5],
  [12345, 1, true, 3],
];

const NO_CATEGORY = '(SELECT NULL AS rate_minor, NULL AS currency, NULL AS billable) c';

describe('entry amount rule', () => {
  const db = new Database(':memory:');
  const sql = entryAmountSql('e', 'p', 'c');
  // Bound JS numbers arrive as REAL; the table's INTEGER columns store integers, so cast as they would be stored.
  const run = (duration: number, rate: number | null, billable: boolean) =>
    db
      .prepare(
        `SELECT ${sql} FROM (SELECT CAST(? AS INTEGER) AS duration_seconds, 'x' AS stop) e, (SELECT CAST(? AS INTEGER) AS rate_minor, ? AS billable, 'EUR' AS currency) p, ${NO_CATEGORY}`,
      )
      .pluck()
      .get(duration, rate, billable ? 1 : 0);

  it.each(CASES)('%i s at %s minor/h (billable %s)', (duration, rate, billable, expected) => {
    expect(entryAmountMinor(duration, rate, billable)).toBe(expected);
    expect(run(duration, rate, billable)).toBe(expected);
  });

  it('holds on a sweep of durations and rates', () => {
    for (let d = 0; d < 4000; d += 37) {
      for (const rate of [1, 99, 1799, 1800, 1801, 9750, 12345]) {
        expect(run(d, rate, true), `${d} s at ${rate}`).toBe(entryAmountMinor(d, rate, true));
      }
    }
  });

  it('a running entry (no stop) amounts to 0 in SQL', () => {
    const running = db
      .prepare(
        `SELECT ${sql} FROM (SELECT 3600 AS duration_seconds, NULL AS stop) e, (SELECT 100 AS rate_minor, 1 AS billable, 'EUR' AS currency) p, ${NO_CATEGORY}`,
      )
      .pluck()
      .get();
    expect(running).toBe(0);
  });
});

/** Project rate, project currency, project billable, category (rate, currency, billable) or null → rate, source, billable. */
const RATE_CASES: [RateInputs, ReturnType<typeof effectiveRate>][] = [
  [
    { project: { rateMinor: 10000, currency: 'EUR', billable: true }, category: null },
    { rateMinor: 10000, source: 'project', billable: true },
  ],
  [
    { project: { rateMinor: null, currency: 'EUR', billable: true }, category: null },
    { rateMinor: null, source: null, billable: true },
  ],
  // The project's rate overrides the category's.
  [
    {
      project: { rateMinor: 10000, currency: 'EUR', billable: true },
      category: { rateMinor: 5000, currency: 'EUR', billable: true },
    },
    { rateMinor: 10000, source: 'project', billable: true },
  ],
  [
    {
      project: { rateMinor: null, currency: 'EUR', billable: true },
      category: { rateMinor: 5000, currency: 'EUR', billable: true },
    },
    { rateMinor: 5000, source: 'category', billable: true },
  ],
  // A rate in another currency is never taken for this one.
  [
    {
      project: { rateMinor: null, currency: 'USD', billable: true },
      category: { rateMinor: 5000, currency: 'EUR', billable: true },
    },
    { rateMinor: null, source: null, billable: true },
  ],
  [
    {
      project: { rateMinor: null, currency: 'EUR', billable: true },
      category: { rateMinor: null, currency: 'EUR', billable: true },
    },
    { rateMinor: null, source: null, billable: true },
  ],
  // Billable only when both are.
  [
    {
      project: { rateMinor: 10000, currency: 'EUR', billable: true },
      category: { rateMinor: 5000, currency: 'EUR', billable: false },
    },
    { rateMinor: 10000, source: 'project', billable: false },
  ],
  [
    {
      project: { rateMinor: null, currency: 'EUR', billable: false },
      category: { rateMinor: 5000, currency: 'EUR', billable: true },
    },
    { rateMinor: 5000, source: 'category', billable: false },
  ],
];

describe('entry rate rule', () => {
  const db = new Database(':memory:');
  it.each(RATE_CASES)('%j', (inputs, expected) => {
    expect(effectiveRate(inputs)).toEqual(expected);
    const c = inputs.category;
    const row = db
      .prepare(
        `SELECT ${entryRateSql('p', 'c')} AS rate, ${entryRateSourceSql('p', 'c')} AS source, ${entryBillableSql('p', 'c')} AS billable,
           ${entryAmountSql('e', 'p', 'c')} AS amount
         FROM (SELECT 5400 AS duration_seconds, 'x' AS stop) e,
              (SELECT CAST(? AS INTEGER) AS rate_minor, ? AS currency, ? AS billable) p,
              (SELECT CAST(? AS INTEGER) AS rate_minor, ? AS currency, ? AS billable) c`,
      )
      .get(
        inputs.project.rateMinor,
        inputs.project.currency,
        inputs.project.billable ? 1 : 0,
        c?.rateMinor ?? null,
        c?.currency ?? null,
        c ? (c.billable ? 1 : 0) : null,
      ) as { rate: number | null; source: string | null; billable: number; amount: number };
    expect({ rateMinor: row.rate, source: row.source, billable: row.billable === 1 }).toEqual(expected);
    expect(row.amount).toBe(entryAmountMinor(5400, expected.rateMinor, expected.billable));
  });
});
