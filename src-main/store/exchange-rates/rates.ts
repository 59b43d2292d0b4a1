import { crossRate } from '../../../src-shared/domain/fx';
import type { RateRow } from '../../../src-shared/domain/rate-files';
import type { Db } from '../db';
import { nowIso } from '../ids';
import { recomputeBaseAmounts } from '../ledger/maintenance';
import { perUsdOn } from '../rate-of-day';

/**
 * The exchange-rate table `fx_rates` (migration 006): units of a currency per 1 USD per day, as decimal text, shared
 * by every team (market data, not a team's record: written directly, not through the change feed). The rate of a
 * day is that day's or the nearest earlier day's (store/rate-of-day.ts). USD is 1 and never stored.
 */

/** Every known currency's rate of the day, the day each is from, and the currencies with none on or before it. */
export function ratesOfDay(
  db: Db,
  day: string,
): { date: string; usd: Record<string, number>; rateDates: Record<string, string>; missing: string[] } {
  const currencies = db.prepare('SELECT DISTINCT currency FROM fx_rates ORDER BY currency').pluck().all() as string[];
  const usd: Record<string, number> = { USD: 1 };
  const rateDates: Record<string, string> = {};
  const missing: string[] = [];
  for (const c of currencies) {
    const r = perUsdOn(db, c, day);
    if (!r) {
      missing.push(c);
      continue;
    }
    usd[c] = Number(r.perUsd);
    rateDates[c] = r.day;
  }
  return { date: day, usd, rateDates, missing };
}

/** Units of `target` per 1 `base` on `day`; null (with the currency lacking one) when either has no rate. */
export function singleRate(
  db: Db,
  base: string,
  target: string,
  day: string,
): { date: string; rate: number } | { missing: string } {
  const from = perUsdOn(db, base, day);
  if (!from) return { missing: base };
  const to = perUsdOn(db, target, day);
  if (!to) return { missing: target };
  return { date: day, rate: base === target ? 1 : crossRate(from.perUsd, to.perUsd) };
}

export interface RatesImportResult {
  rows: number;
  written: number;
  unchanged: number;
  currencies: string[];
  firstDay: string | null;
  lastDay: string | null;
}

/** Writes validated rates in one transaction (a rate already stored for the currency and day is replaced). */
export function importRates(
  db: Db,
  rows: readonly RateRow[],
  options: { source?: string; now?: string } = {},
): RatesImportResult {
  const now = options.now ?? nowIso();
  const source = options.source ?? 'import';
  const upsert = db.prepare(
    `INSERT INTO fx_rates (currency, day, per_usd, source, imported_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (currency, day) DO UPDATE SET per_usd = excluded.per_usd, source = excluded.source, imported_at = excluded.imported_at
     WHERE fx_rates.per_usd IS NOT excluded.per_usd`,
  );
  return db
    .transaction(() => {
      let written = 0;
      let firstDay: string | null = null;
      let lastDay: string | null = null;
      const currencies = new Set<string>();
      for (const r of rows) {
        written += upsert.run(r.currency, r.day, r.perUsd, source, now).changes;
        currencies.add(r.currency);
        if (firstDay === null || r.day < firstDay) firstDay = r.day;
        if (lastDay === null || r.day > lastDay) lastDay = r.day;
      }
      return {
        rows: rows.length,
        written,
        unchanged: rows.length - written,
        currencies: [...currencies].sort(),
        firstDay,
        lastDay,
      };
    })
    .immediate();
}

/** How many of the team's transactions have no base amount (no rate for their currency or the base on their day). */
export function transactionsWithoutRate(db: Db, teamId: string): number {
  return db
    .prepare('SELECT count(*) FROM transactions WHERE team_id = ? AND base_amount_minor IS NULL')
    .pluck()
    .get(teamId) as number;
}

/**
 * Whether a team other than `teamId` has people (members) on this server: the rate table is the server's, so a
 * team may change it from the app only when nobody else depends on it (teams without members are the operator's,
 * such as the demo). Names no team and counts nothing: the caller learns only whether it is alone.
 */
export function ratesSharedWithOthers(db: Db, teamId: string): boolean {
  return db.prepare('SELECT 1 FROM team_members WHERE team_id <> ? LIMIT 1').pluck().get(teamId) !== undefined;
}

export interface TeamRecompute {
  teamId: string;
  name: string;
  updated: number;
  /** Transactions of the team still without a rate (all of them, not only those from `fromDay`). */
  missing: number;
}

/**
 * After rates arrived: every team's base amounts from `fromDay` on (a rate applies to its day and the days after it
 * until the next rate, so nothing earlier moves).
 */
export function recomputeAllTeams(
  db: Db,
  fromDay: string | null,
  onTeam?: (done: TeamRecompute, index: number, total: number) => void,
): TeamRecompute[] {
  const teams = db.prepare('SELECT id, name FROM teams ORDER BY name').all() as { id: string; name: string }[];
  return teams.map((t, i) => {
    const { updated } = recomputeBaseAmounts(db, t.id, fromDay ? { fromDay } : {});
    const done = { teamId: t.id, name: t.name, updated, missing: transactionsWithoutRate(db, t.id) };
    onTeam?.(done, i, teams.length);
    return done;
  });
}
