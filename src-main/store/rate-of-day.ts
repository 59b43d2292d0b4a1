import type { RateOf } from '../../src-shared/domain/series';
import type { Db } from './db';

/**
 * The rate of a day (docs/decisions/0056-exchange-rates.md): a currency's per-USD rate on a day is that day's, else
 * the nearest earlier day's; null when `fx_rates` has none on or before it. USD is 1 and never stored. Written once,
 * in two forms a test holds equal: perUsdOn reads one rate (an indexed lookup), rateLookup reads the currencies'
 * rates once and answers many days (a binary search), for conversions of whole series.
 */

/** The rate of `currency` on `day` (or the nearest earlier day) and the day it is from; null when none is known. */
export function perUsdOn(db: Db, currency: string, day: string): { perUsd: string; day: string } | null {
  if (currency === 'USD') return { perUsd: '1', day };
  const row = db
    .prepare('SELECT per_usd AS perUsd, day FROM fx_rates WHERE currency = ? AND day <= ? ORDER BY day DESC LIMIT 1')
    .get(currency, day) as { perUsd: string; day: string } | undefined;
  return row ?? null;
}

/** The days no later than every day a lookup will ask about, when the caller names no bound. */
const EVERY_DAY = '9999-12-31';

/**
 * The per-USD rate lookup of some currencies for many days: every rate up to `upTo` (a bound the caller's days do
 * not pass; all rates without one) read in one query.
 */
export function rateLookup(db: Db, currencies: Iterable<string>, upTo: string = EVERY_DAY): RateOf {
  const wanted = [...new Set(currencies)].filter((c) => c !== 'USD');
  const rows = wanted.length
    ? (db
        .prepare(
          `SELECT currency, day, per_usd FROM fx_rates
           WHERE currency IN (SELECT value FROM json_each(?)) AND day <= ? ORDER BY currency, day`,
        )
        .all(JSON.stringify(wanted), upTo) as { currency: string; day: string; per_usd: string }[])
    : [];
  const days = new Map<string, string[]>();
  const rates = new Map<string, string[]>();
  for (const r of rows) {
    if (!days.has(r.currency)) {
      days.set(r.currency, []);
      rates.set(r.currency, []);
    }
    days.get(r.currency)!.push(r.day);
    rates.get(r.currency)!.push(r.per_usd);
  }
  return (currency, day) => {
    if (currency === 'USD') return '1';
    const d = days.get(currency);
    if (!d) return null;
    const i = lastOnOrBefore(d, day);
    return i < 0 ? null : rates.get(currency)![i]!;
  };
}

/** The index of the last of the ascending `days` on or before `day`; -1 when all are after it. */
function lastOnOrBefore(days: readonly string[], day: string): number {
  let lo = 0;
  let hi = days.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (days[mid]! <= day) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
