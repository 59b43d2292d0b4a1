import type { DriverInput, StressTest, StressTestBody } from '../../../src-shared/contract/metrics';
import type { ModelFit } from '../../../src-shared/domain/forecast-stats';
import { convertOn, firstDayOf, lastDayOf, monthOf } from '../../../src-shared/domain/series';
import { type Baseline, DRIVER_KINDS, type Driver, type Path, runStressTest } from '../../../src-shared/domain/stress';
import { toMajor } from '../../../src-shared/money';
import type { Db } from '../db';
import { InvalidReference, NotFound } from '../errors';
import { minorOf } from '../money-input';
import { rateLookup } from '../rate-of-day';
import { write } from '../write';
import { buildForecast, cashAt, completeMonths } from './forecasts';
import { baseCurrency, exposure, type LedgerSource } from './ledger-source';

/**
 * Stress tests: the baseline is the cash-flow forecast of the window (forecasts.ts), split by the window's history into
 * revenue and other money in and into currencies; the drivers bend it (src-shared/domain/stress.ts). Every run is
 * saved in `stress_tests` (migration 010) with its inputs, window and currency.
 */

export interface StressOptions {
  model: ModelFit | null;
  today?: string;
  source?: LedgerSource;
}

/** Contract drivers → domain drivers in minor units, with the checks that need the horizon and the currency. */
export function domainDrivers(drivers: readonly DriverInput[], currency: string, months: readonly string[]): Driver[] {
  return drivers.map((d, i): Driver => {
    const at = `drivers.${i}`;
    switch (d.kind) {
      case 'OneTimeExpense': {
        if (!months.includes(monthOf(d.date))) {
          throw new InvalidReference(
            `${at}.date`,
            `date must fall inside the horizon (${months[0]} to ${months[months.length - 1]}), got ${d.date}`,
          );
        }
        return { kind: 'OneTimeExpense', date: d.date, amountMinor: minorOf(d.amount, currency, `${at}.amount`) };
      }
      case 'HiringPlan':
        return {
          kind: 'HiringPlan',
          headcountDelta: d.headcountDelta,
          monthlyCostPerHeadMinor: minorOf(d.monthlyCostPerHead, currency, `${at}.monthlyCostPerHead`),
          startMonthOffset: d.startMonthOffset,
          rampMonths: d.rampMonths,
        };
      case 'FxShock':
        return {
          kind: 'FxShock',
          mode: d.mode,
          pairs: d.pairs.map((p, j) => {
            const quote = p.quote ?? currency;
            if (quote !== currency) {
              throw new InvalidReference(`${at}.pairs.${j}.quote`, `quote must be the test currency ${currency}, got ${quote}`);
            }
            if (p.base === currency) {
              throw new InvalidReference(
                `${at}.pairs.${j}.base`,
                `base must be another currency than the test currency ${currency}`,
              );
            }
            return { base: p.base, quote, pct: p.pct };
          }),
        };
      default:
        return d;
    }
  });
}

/** The driver as sent, with `kind` (whatever alias it came with) and defaults left out. */
function asSent(d: DriverInput): Record<string, unknown> {
  return { ...d };
}

export function buildStressTest(
  db: Db,
  teamId: string,
  body: StressTestBody,
  options: StressOptions,
): Omit<StressTest, 'id' | 'createdAt'> {
  const currency = body.currency ?? baseCurrency(db, teamId);
  const fc = buildForecast(db, teamId, 'cash_flow', { ...body, currency }, { ...options, backtest: false });
  const months = fc.forecast.map((f) => f.month);
  const drivers = domainDrivers(body.drivers ?? [], currency, months);
  const span = completeMonths(body.from, body.to)!;
  const window = { from: firstDayOf(span.first), to: lastDayOf(span.last) };

  // Shares of the window's history: revenue in money in, and each foreign currency in money in and out.
  const rows = exposure(db, teamId, window, options.source);
  const rate = rateLookup(db, [currency, ...rows.map((r) => r.currency)], window.to);
  let inTotal = 0;
  let outTotal = 0;
  let revenueIn = 0;
  const byCurrency = new Map<string, { in: number; out: number }>();
  const warnings: string[] = [];
  for (const r of rows) {
    const i = convertOn(r.inflowMinor, r.currency, currency, window.to, rate);
    const o = convertOn(r.outflowMinor, r.currency, currency, window.to, rate);
    if (i === null || o === null) continue;
    inTotal += i;
    outTotal += o;
    if (r.revenue) revenueIn += i - o;
    const c = byCurrency.get(r.currency) ?? { in: 0, out: 0 };
    c.in += i;
    c.out += o;
    byCurrency.set(r.currency, c);
  }
  const revenueShare = inTotal > 0 ? Math.min(1, Math.max(0, revenueIn / inTotal)) : 0;
  const exposureMap = new Map<string, { inShare: number; outShare: number }>();
  for (const [c, v] of byCurrency) {
    if (c === currency) continue;
    exposureMap.set(c, { inShare: inTotal > 0 ? v.in / inTotal : 0, outShare: outTotal > 0 ? v.out / outTotal : 0 });
  }
  const inflow = fc.forecast.map((f) => minorOf(f.inflow ?? 0, currency, 'inflow'));
  const revenue = inflow.map((v) => Math.round(v * revenueShare));
  const balances = cashAt(db, teamId, window.to, currency);
  const baseline: Baseline = {
    months,
    revenue,
    otherIn: inflow.map((v, i) => v - revenue[i]!),
    out: fc.forecast.map((f) => minorOf(f.outflow ?? 0, currency, 'outflow')),
    exposure: exposureMap,
    startingCashMinor:
      body.startingCash !== undefined ? minorOf(body.startingCash, currency, 'startingCash') : balances.cashMinor,
    cashByCurrency: balances.byCurrency,
  };
  if (body.startingCash !== undefined && drivers.some((d) => d.kind === 'FxShock' && d.mode === 'flows_and_balances')) {
    warnings.push(
      'FxShock flows_and_balances revalues the cash held in each currency by the accounts’ balances at the window’s end.',
    );
  }
  warnings.push(...fc.warnings);
  const result = runStressTest(baseline, drivers);
  const major = (x: number) => toMajor(x, currency);
  const path = (p: Path) => ({
    months: p.months.map((m) => ({
      month: m.month,
      inflow: major(m.inflow),
      outflow: major(m.outflow),
      net: major(m.net),
      cash: major(m.cash),
    })),
    startingCash: major(p.startingCash),
    endingCash: major(p.endingCash),
    lowestCash: { amount: major(p.lowestCash.amount), month: p.lowestCash.month },
    runwayMonths: p.runwayMonths,
    runsOutIn: p.runsOutIn,
    deferredBeyondHorizon: major(p.deferredBeyondHorizon),
  });
  return {
    name: body.name ?? null,
    from: body.from,
    to: body.to,
    horizonMonths: body.horizonMonths,
    currency,
    startingCash: body.startingCash ?? null,
    drivers: (body.drivers ?? []).map(asSent),
    baseline: path(result.baseline),
    stressed: path(result.stressed),
    impacts: result.impacts.map((imp) => ({
      index: imp.index,
      kind: imp.kind,
      inflow: major(imp.inflowDelta),
      outflow: major(imp.outflowDelta),
      endingCash: major(imp.endingCashDelta),
      lowestCash: major(imp.lowestCashDelta),
      cash: imp.path.months.map((m, i) => ({ month: m.month, change: major(m.cash - result.baseline.months[i]!.cash) })),
    })),
    method: {
      baseline: `cash-flow forecast of ${span.first} to ${span.last}: ${fc.method.name}; revenue share of money in ${Math.round(revenueShare * 10_000) / 100} %`,
      order: [...DRIVER_KINDS],
      description:
        'Drivers apply in a fixed order (revenue, currency, costs), each to the path the earlier ones left; each impact is that ' +
        'driver alone against the baseline. Closing cash = starting cash + Σ (money in − money out).',
    },
    warnings,
  };
}

interface Row {
  id: string;
  result: string;
  created_at: string;
}

function fromRow(row: Row): StressTest {
  return { id: row.id, createdAt: row.created_at, ...(JSON.parse(row.result) as Omit<StressTest, 'id' | 'createdAt'>) };
}

export function runAndSaveStressTest(db: Db, teamId: string, body: StressTestBody, options: StressOptions): StressTest {
  const result = buildStressTest(db, teamId, body, options);
  return write(db, teamId, (w) => {
    const id = w.insert('stress_test', {
      name: result.name,
      from_day: result.from,
      to_day: result.to,
      horizon_months: result.horizonMonths,
      currency: result.currency,
      inputs: JSON.stringify({ ...body, currency: result.currency }),
      result: JSON.stringify(result),
    });
    return { id, createdAt: w.now, ...result };
  });
}

export function getStressTest(db: Db, teamId: string, id: string): StressTest {
  const row = db.prepare('SELECT id, result, created_at FROM stress_tests WHERE team_id = ? AND id = ?').get(teamId, id) as
    | Row
    | undefined;
  if (!row) throw new NotFound('stress test', id);
  return fromRow(row);
}

/** Renames a saved test (null: no name); its figures stay as they were computed. */
export function renameStressTest(db: Db, teamId: string, id: string, name: string | null): StressTest {
  const test = getStressTest(db, teamId, id);
  const { id: _id, createdAt: _at, ...result } = test;
  write(db, teamId, (w) => w.update('stress_test', id, { name, result: JSON.stringify({ ...result, name }) }));
  return { ...test, name };
}

/** Deletes a saved test. */
export function deleteStressTest(db: Db, teamId: string, id: string): StressTest {
  const test = getStressTest(db, teamId, id);
  write(db, teamId, (w) => w.remove('stress_test', id));
  return test;
}

export function summaryOf(t: StressTest) {
  return {
    id: t.id,
    name: t.name,
    createdAt: t.createdAt,
    from: t.from,
    to: t.to,
    horizonMonths: t.horizonMonths,
    currency: t.currency,
    drivers: t.drivers.length,
    endingCash: { baseline: t.baseline.endingCash, stressed: t.stressed.endingCash },
    lowestCash: { baseline: t.baseline.lowestCash.amount, stressed: t.stressed.lowestCash.amount },
    runsOutIn: { baseline: t.baseline.runsOutIn, stressed: t.stressed.runsOutIn },
  };
}

function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(JSON.stringify([createdAt, id])).toString('base64url');
}

function decodeCursor(cursor: string): [string, string] {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string') return [v[0], v[1]];
  } catch {
    // fall through
  }
  throw new InvalidReference('cursor', 'not a cursor of this list');
}

/** Saved stress tests, newest first, by keyset over (created_at, id). */
export function listStressTests(db: Db, teamId: string, query: { pageSize: number; cursor?: string | undefined }) {
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  const rows = db
    .prepare(
      `SELECT id, result, created_at FROM stress_tests
       WHERE team_id = @team AND (@at IS NULL OR created_at < @at OR (created_at = @at AND id < @id))
       ORDER BY created_at DESC, id DESC LIMIT @limit`,
    )
    .all({ team: teamId, at: after?.[0] ?? null, id: after?.[1] ?? null, limit: query.pageSize + 1 }) as Row[];
  const more = rows.length > query.pageSize;
  const page = rows.slice(0, query.pageSize).map(fromRow);
  const last = page[page.length - 1];
  return {
    data: page.map(summaryOf),
    meta: {
      cursor: more && last ? encodeCursor(last.createdAt, last.id) : null,
      hasPreviousPage: after !== null,
      hasNextPage: more,
    },
  };
}

/**
 * Saved tests side by side: each one's stressed closing cash per month, and its baseline's (null where a test has
 * no such month), so that the baseline is drawn as such.
 */
export function compareStressTests(db: Db, teamId: string, ids: readonly string[]) {
  const tests = [...new Set(ids)].map((id) => getStressTest(db, teamId, id));
  const months = [...new Set(tests.flatMap((t) => t.stressed.months.map((m) => m.month)))].sort();
  return {
    tests: tests.map(summaryOf),
    months: months.map((month) => ({
      month,
      cash: tests.map((t) => t.stressed.months.find((m) => m.month === month)?.cash ?? null),
      baseline: tests.map((t) => t.baseline.months.find((m) => m.month === month)?.cash ?? null),
    })),
    sameCurrency: new Set(tests.map((t) => t.currency)).size === 1,
  };
}
