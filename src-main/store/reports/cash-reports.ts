import { type Balances, type CashFlow, MAX_CASH_FLOW_MONTHS } from '../../../src-shared/contract/cash-reports';
import { convertMinor, crossRate } from '../../../src-shared/domain/fx';
import { toMajor } from '../../../src-shared/money';
import type { Db } from '../db';
import { InvalidReference, NotFound } from '../errors';
import { perUsdOn, rateLookup } from '../rate-of-day';

/**
 * `GET /v1/balances` and `GET /v1/cash-flow` (docs/decisions/0054-bank-accounts-and-balances.md): figures in one
 * currency at exact rates (src-shared/domain/fx.ts), a currency without a rate reported and left out, never 1.0.
 */

function teamBase(db: Db, teamId: string): string {
  const base = db.prepare('SELECT base_currency FROM teams WHERE id = ?').pluck().get(teamId) as string | undefined;
  if (!base) throw new NotFound('team', teamId);
  return base;
}

/** Each enabled account's balance and its value in `currency` (default the team's base) at the rates of `day`. */
export function balances(db: Db, teamId: string, options: { currency?: string; day: string }): Balances {
  const target = options.currency ?? teamBase(db, teamId);
  const accounts = db
    .prepare(
      `SELECT id, name, type, currency, balance_minor FROM bank_accounts WHERE team_id = ? AND enabled = 1
       ORDER BY name COLLATE NOCASE, id`,
    )
    .all(teamId) as {
    id: string;
    name: string;
    type: Balances['accounts'][number]['type'];
    currency: string;
    balance_minor: number;
  }[];
  const targetRate = perUsdOn(db, target, options.day);
  const missing = new Set<string>();
  let total = 0;
  const lines = accounts.map((a) => {
    const balance = { amount: toMajor(a.balance_minor, a.currency), currency: a.currency };
    if (a.currency === target) {
      total += a.balance_minor;
      return { ...a, balance, converted: balance, rate: 1 };
    }
    const from = perUsdOn(db, a.currency, options.day);
    if (!from) missing.add(a.currency);
    if (!targetRate) missing.add(target);
    if (!from || !targetRate) return { ...a, balance, converted: null, rate: null };
    const minor = convertMinor(a.balance_minor, a.currency, target, from.perUsd, targetRate.perUsd);
    total += minor;
    return {
      ...a,
      balance,
      converted: { amount: toMajor(minor, target), currency: target },
      rate: crossRate(from.perUsd, targetRate.perUsd),
    };
  });
  return {
    date: options.day,
    currency: target,
    total: { amount: toMajor(total, target), currency: target, complete: missing.size === 0 },
    accounts: lines.map(({ id, name, type, currency, balance, converted, rate }) => ({
      id,
      name,
      type,
      currency,
      balance,
      converted,
      rate,
    })),
    missingRates: [...missing].sort(),
  };
}

function monthsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  let [y, m] = [Number(from.slice(0, 4)), Number(from.slice(5, 7))];
  const last = to.slice(0, 7);
  for (;;) {
    const month = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}`;
    out.push(month);
    if (month >= last || out.length > MAX_CASH_FLOW_MONTHS) return out;
    m++;
    if (m > 12) {
      m = 1;
      y++;
    }
  }
}

/**
 * Inflow, outflow and net per month of [from, to] from the ledger's daily roll-up (which already leaves out internal
 * and excluded transactions and counts split parts by their own category), without excluded categories. Each day's
 * flows of a currency are converted at that day's rate and rounded there; a month's figures are sums of those.
 */
export function cashFlow(db: Db, teamId: string, query: { from: string; to: string; currency?: string }): CashFlow {
  if (query.from > query.to) throw new InvalidReference('to', 'to must not be before from');
  const months = monthsBetween(query.from, query.to);
  if (months.length > MAX_CASH_FLOW_MONTHS) {
    throw new InvalidReference('to', `The window spans more than ${MAX_CASH_FLOW_MONTHS} months: choose a shorter one`);
  }
  const target = query.currency ?? teamBase(db, teamId);
  const days = db
    .prepare(
      `SELECT d.day, d.currency, sum(d.inflow_minor) AS inflow, sum(d.outflow_minor) AS outflow
       FROM ledger_daily d
       WHERE d.team_id = @team AND d.day >= @from AND d.day <= @to
         AND NOT EXISTS (SELECT 1 FROM transaction_categories c
                         WHERE c.team_id = d.team_id AND c.slug = d.category_slug AND c.excluded = 1)
       GROUP BY d.day, d.currency`,
    )
    .all({ team: teamId, from: query.from, to: query.to }) as {
    day: string;
    currency: string;
    inflow: number;
    outflow: number;
  }[];
  const rate = rateLookup(db, [...new Set([...days.map((d) => d.currency), target])], query.to);
  const byMonth = new Map(months.map((m) => [m, { inflow: 0, outflow: 0 }]));
  const missing = new Map<string, { days: number; inflow: number; outflow: number }>();
  for (const d of days) {
    let inflow = d.inflow;
    let outflow = d.outflow;
    if (d.currency !== target) {
      const from = rate(d.currency, d.day);
      const to = rate(target, d.day);
      if (from === null || to === null) {
        const m = missing.get(d.currency) ?? { days: 0, inflow: 0, outflow: 0 };
        m.days++;
        m.inflow += d.inflow;
        m.outflow += d.outflow;
        missing.set(d.currency, m);
        continue;
      }
      inflow = convertMinor(d.inflow, d.currency, target, from, to);
      outflow = convertMinor(d.outflow, d.currency, target, from, to);
    }
    const month = byMonth.get(d.day.slice(0, 7))!;
    month.inflow += inflow;
    month.outflow += outflow;
  }
  const major = (minor: number) => toMajor(minor, target);
  let inflow = 0;
  let outflow = 0;
  const out = months.map((month) => {
    const m = byMonth.get(month)!;
    inflow += m.inflow;
    outflow += m.outflow;
    return { month, inflow: major(m.inflow), outflow: major(m.outflow), net: major(m.inflow - m.outflow) };
  });
  return {
    from: query.from,
    to: query.to,
    currency: target,
    months: out,
    total: { inflow: major(inflow), outflow: major(outflow), net: major(inflow - outflow) },
    missingRates: [...missing]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, m]) => ({
        currency,
        days: m.days,
        inflow: toMajor(m.inflow, currency),
        outflow: toMajor(m.outflow, currency),
      })),
  };
}
