/**
 * Forecast accuracy on held-out data (the Metrics issue's quality bar), with the real library model:
 * - the public monthly series in test/fixtures/forecast (README there: source and protocol): rolling origin n−24, n−21,
 *   n−18, n−15, n−12, 12 months each, MASE scaled by the in-sample seasonal-naive error; the ratio of the mean MASE of
 *   the method to that of seasonal naive, per series and pooled; and the share of held-out months inside the 80 % and
 *   95 % intervals. Also the single last-12-months split.
 * - the demo data set: the backtest every forecast reports (last 12 months of the window held out).
 * The figures are printed (docs/metrics.md records them) and held by assertions at what was measured, so a change that
 * makes the forecasts worse fails here.
 *
 * @module-tag calendar (runs again on the awkward days: scripts/clock-matrix.sh)
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { planDemo } from '../../../src-main/demo/seed';
import { writeDemo } from '../../../src-main/demo/write';
import { augursModel } from '../../../src-main/metrics/augurs';
import { openDatabase } from '../../../src-main/store/db';
import { buildForecast } from '../../../src-main/store/metrics/forecasts';
import { ensureTeam } from '../../../src-main/store/teams/teams';
import {
  coverage,
  maseScale,
  meanAbsoluteError,
  seasonalNaive,
  statisticalForecast,
  theta,
} from '../../../src-shared/domain/forecast-stats';
import { tmpDir } from '../../helpers/tmp';

const FIXTURES = path.join(__dirname, '../../fixtures/forecast');
const load = (file: string) =>
  fs
    .readFileSync(path.join(FIXTURES, file), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => Number(l.split(',')[1]));

const SERIES = {
  'car-sales-quebec-monthly': load('car-sales-quebec-monthly.csv'),
  'champagne-sales-monthly': load('champagne-sales-monthly.csv'),
};

type Method = (
  train: number[],
  h: number,
) => { point: number[]; lower80?: number[]; upper80?: number[]; lower95?: number[]; upper95?: number[] };

function evaluate(method: Method, origins: (n: number) => number[]) {
  const perSeries: Record<string, { ratio: number; cov80: number; cov95: number }> = {};
  let sumMethod = 0;
  let sumNaive = 0;
  let inside80 = 0;
  let inside95 = 0;
  let months = 0;
  for (const [name, y] of Object.entries(SERIES)) {
    let m = 0;
    let s = 0;
    let c80 = 0;
    let c95 = 0;
    const os = origins(y.length);
    for (const o of os) {
      const train = y.slice(0, o);
      const test = y.slice(o, o + 12);
      const f = method(train, 12);
      const scale = maseScale(train);
      m += meanAbsoluteError(test, f.point) / scale;
      s += meanAbsoluteError(test, seasonalNaive(train, 12)) / scale;
      if (f.lower80) {
        c80 += coverage(test, f.lower80, f.upper80!) * 12;
        c95 += coverage(test, f.lower95!, f.upper95!) * 12;
      }
    }
    perSeries[name] = { ratio: m / s, cov80: c80 / (12 * os.length), cov95: c95 / (12 * os.length) };
    sumMethod += m;
    sumNaive += s;
    inside80 += c80;
    inside95 += c95;
    months += 12 * os.length;
  }
  return { perSeries, pooled: sumMethod / sumNaive, cov80: inside80 / months, cov95: inside95 / months };
}

const rolling = (n: number) => [n - 24, n - 21, n - 18, n - 15, n - 12];
const last12 = (n: number) => [n - 12];
const combined: Method = (train, h) => statisticalForecast(train, h, augursModel).forecast;
const round = (x: number) => Math.round(x * 1000) / 1000;

describe('forecast accuracy on the public monthly series', () => {
  it('beats seasonal naive and calibrates its 80 % interval (rolling origin)', () => {
    const ours = evaluate(combined, rolling);
    const mstlAlone = evaluate((t, h) => augursModel(t, h, { seasonal: true }), rolling);
    const thetaAlone = evaluate((t, h) => theta(t, h, { seasonal: true }), rolling);
    console.log(
      'rolling origin, MASE ÷ seasonal naive:',
      JSON.stringify({
        combination: { pooled: round(ours.pooled), cov80: round(ours.cov80), cov95: round(ours.cov95), ...ours.perSeries },
        mstlAutoEts: round(mstlAlone.pooled),
        theta: round(thetaAlone.pooled),
      }),
    );
    // Measured: pooled 0.822 (car 0.888, champagne 0.744); the README's reference auto-ETS 0.86, Theta 0.91.
    expect(ours.pooled).toBeLessThan(0.83);
    expect(ours.pooled).toBeLessThan(mstlAlone.pooled);
    expect(ours.pooled).toBeLessThan(thetaAlone.pooled);
    // Our Theta reproduces the reference implementation's figure (0.91 pooled).
    expect(thetaAlone.pooled).toBeCloseTo(0.91, 1);
    // Measured 80 % coverage: 0.825 pooled (car 0.73, champagne 0.92).
    expect(ours.cov80).toBeGreaterThanOrEqual(0.7);
    expect(ours.cov80).toBeLessThanOrEqual(0.9);
    expect(ours.cov95).toBeGreaterThanOrEqual(0.85);
  });

  it('on the last 12 months alone', () => {
    const ours = evaluate(combined, last12);
    console.log(
      'last 12 months, MASE ÷ seasonal naive:',
      JSON.stringify({ pooled: round(ours.pooled), cov80: round(ours.cov80), ...ours.perSeries }),
    );
    // Measured: car 0.743, champagne 0.905.
    expect(ours.perSeries['car-sales-quebec-monthly']!.ratio).toBeLessThan(0.8);
    expect(ours.perSeries['champagne-sales-monthly']!.ratio).toBeLessThan(0.95);
  });
});

describe('forecast accuracy on the demo data set', () => {
  it('reports its backtest on the last 12 months of the window', () => {
    const db = openDatabase(tmpDir('finops-accuracy-'));
    try {
      const team = ensureTeam(db, 'Demo', { baseCurrency: 'EUR' });
      writeDemo(db, team.id, planDemo({ asOf: '2026-11-20' }));
      const inputs = { from: '2023-06-01', to: '2026-10-31', horizonMonths: 12 };
      const cash = buildForecast(db, team.id, 'cash_flow', inputs, { model: augursModel, today: '2026-11-20' });
      const revenue = buildForecast(db, team.id, 'revenue', inputs, { model: augursModel, today: '2026-11-20' });
      console.log('demo backtest:', JSON.stringify({ cashFlow: cash.method.backtest, revenue: revenue.method.backtest }));
      // 41 complete months: the backtest trains on 29, enough for the yearly cycle. Measured: cash flow 0.66, revenue
      // 0.62 of seasonal naive's MASE; 80 % coverage 11/12 and 10/12 (21 of 24 held-out months pooled).
      expect(cash.method.backtest!.relativeMase).toBeLessThanOrEqual(0.8);
      expect(revenue.method.backtest!.relativeMase).toBeLessThanOrEqual(0.8);
      const pooled80 = (cash.method.backtest!.coverage80 + revenue.method.backtest!.coverage80) / 2;
      expect(pooled80).toBeGreaterThanOrEqual(0.7);
      expect(pooled80).toBeLessThanOrEqual(0.9);
      expect(cash.method.backtest!.coverage95).toBeGreaterThanOrEqual(0.75);
    } finally {
      db.close();
    }
  }, 60_000);
});
