/**
 * The statistics of the forecasts, pure (no I/O): seasonal naive, MASE, the seasonality test, classical
 * decomposition, simple exponential smoothing, the Theta method, and the combination of forecasts. The other member
 * of the combination, MSTL with AutoETS, comes from a library (@bsull/augurs, WASM) and is handed in by the caller
 * as a `ModelFit` (src-main/metrics/augurs.ts), so this module stays pure. Decision: docs/decisions/0092.
 *
 * Formulas (m = 12, monthly data; y_1..y_n the training series; h the horizon):
 * - Seasonal naive: ŷ_{n+h} = y_{n+h−m·⌈h/m⌉} (the same month of the last observed year).
 * - MASE scale: s = (1/(n−m)) Σ_{t=m+1..n} |y_t − y_{t−m}| (in-sample seasonal naive error); with n ≤ m the lag-1
 *   naive error is used instead. MASE = mean|actual − forecast| ÷ s. Relative MASE = MASE(method) ÷ MASE(seasonal
 *   naive) over the same held-out months (the scale cancels).
 * - Seasonality test (Assimakopoulos & Nikolopoulos; R forecast::thetaf): seasonal when n ≥ 2m and
 *   |r_m| > 1.645 · √((1 + 2 Σ_{k<m} r_k²) ÷ n), r_k the autocorrelation at lag k.
 * - Classical multiplicative decomposition (positive series): centred 2×m moving average T_t; seasonal index of
 *   position p = mean of y_t ÷ T_t over t ≡ p (mod m), normalised to average 1. Additive form (y_t − T_t, normalised
 *   to sum 0) when the series is not all positive.
 * - SES: ℓ_t = ℓ_{t−1} + α(y_t − ℓ_{t−1}), ℓ_1 = y_1; α ∈ {0.01, 0.02, …, 0.99} minimising the one-step squared
 *   errors (a grid: deterministic and exact to two decimals).
 * - Theta (θ = 0 and 2 lines, equal weights; Hyndman & Billah 2003): on the seasonally adjusted series,
 *   ŷ_{n+h} = ℓ_n + (b/2)·(h − 1 + (1 − (1−α)^n)/α), b the least-squares slope on t; reseasonalised by the index of
 *   the month. Interval: ŷ ± z·σ·√(1 + α²(h−1)), σ² = SSE ÷ (n − 1), z = 1.2816 (80 %) and 1.9600 (95 %).
 * - Combination: the arithmetic mean of the members' points and of their interval bounds (endpoint averaging).
 * - Fallback for very short series (n < 6): the mean, with ±z·sd·√(1 + 1/n).
 */

export const SEASON = 12;
export const Z80 = 1.2815515655446004;
export const Z95 = 1.959963984540054;

export interface Forecast {
  point: number[];
  lower80: number[];
  upper80: number[];
  lower95: number[];
  upper95: number[];
}

/** A fitted model's forecast of `h` months from the series `y`; `seasonal` says whether a yearly cycle may be used. */
export type ModelFit = (y: readonly number[], h: number, options: { seasonal: boolean }) => Forecast;

export function seasonalNaive(y: readonly number[], h: number, m = SEASON): number[] {
  if (y.length === 0) return new Array(h).fill(0);
  if (y.length < m) return new Array(h).fill(y[y.length - 1]!);
  return Array.from({ length: h }, (_, i) => y[y.length - m + (i % m)]!);
}

/** In-sample seasonal naive mean absolute error (lag-1 naive when the series is shorter than a season and one). */
export function maseScale(y: readonly number[], m = SEASON): number {
  const lag = y.length > m ? m : 1;
  let s = 0;
  let n = 0;
  for (let i = lag; i < y.length; i++) {
    s += Math.abs(y[i]! - y[i - lag]!);
    n++;
  }
  return n > 0 ? s / n : 0;
}

export function meanAbsoluteError(actual: readonly number[], forecast: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < actual.length; i++) s += Math.abs(actual[i]! - forecast[i]!);
  return actual.length ? s / actual.length : 0;
}

/** Share of `actual` values inside [lower, upper]. */
export function coverage(actual: readonly number[], lower: readonly number[], upper: readonly number[]): number {
  if (actual.length === 0) return 0;
  let inside = 0;
  for (let i = 0; i < actual.length; i++) if (actual[i]! >= lower[i]! && actual[i]! <= upper[i]!) inside++;
  return inside / actual.length;
}

function autocorrelations(y: readonly number[], maxLag: number): number[] {
  const n = y.length;
  const mean = y.reduce((a, b) => a + b, 0) / n;
  let d = 0;
  for (const v of y) d += (v - mean) ** 2;
  const out: number[] = [];
  for (let k = 1; k <= maxLag; k++) {
    let s = 0;
    for (let i = k; i < n; i++) s += (y[i]! - mean) * (y[i - k]! - mean);
    out.push(d === 0 ? 0 : s / d);
  }
  return out;
}

export function isSeasonal(y: readonly number[], m = SEASON): boolean {
  if (y.length < 2 * m) return false;
  const r = autocorrelations(y, m);
  let s = 0;
  for (let k = 0; k < m - 1; k++) s += r[k]! ** 2;
  return Math.abs(r[m - 1]!) > 1.6448536269514722 * Math.sqrt((1 + 2 * s) / y.length);
}

export interface Seasonality {
  kind: 'multiplicative' | 'additive';
  /** Index by position t mod m (t counted from the series' first month). */
  index: number[];
}

export function decompose(y: readonly number[], m = SEASON): Seasonality {
  const n = y.length;
  const half = m / 2;
  const multiplicative = y.every((v) => v > 0);
  const groups: number[][] = Array.from({ length: m }, () => []);
  for (let i = half; i < n - half; i++) {
    let s = 0.5 * y[i - half]! + 0.5 * y[i + half]!;
    for (let k = -half + 1; k <= half - 1; k++) s += y[i + k]!;
    const trend = s / m;
    groups[i % m]!.push(multiplicative ? y[i]! / trend : y[i]! - trend);
  }
  const raw = groups.map((g) => (g.length ? g.reduce((a, b) => a + b, 0) / g.length : multiplicative ? 1 : 0));
  const mean = raw.reduce((a, b) => a + b, 0) / m;
  return multiplicative
    ? { kind: 'multiplicative', index: raw.map((v) => v / mean) }
    : { kind: 'additive', index: raw.map((v) => v - mean) };
}

function adjust(y: readonly number[], s: Seasonality, m: number): number[] {
  return y.map((v, i) => (s.kind === 'multiplicative' ? v / s.index[i % m]! : v - s.index[i % m]!));
}

function reseason(v: number, s: Seasonality | null, position: number, m: number): number {
  if (!s) return v;
  return s.kind === 'multiplicative' ? v * s.index[position % m]! : v + s.index[position % m]!;
}

export interface SesFit {
  alpha: number;
  level: number;
  sse: number;
}

export function ses(y: readonly number[]): SesFit {
  let best: SesFit = { alpha: 0.5, level: y[0] ?? 0, sse: Number.POSITIVE_INFINITY };
  for (let step = 1; step <= 99; step++) {
    const alpha = step / 100;
    let level = y[0]!;
    let sse = 0;
    for (let i = 1; i < y.length; i++) {
      const e = y[i]! - level;
      sse += e * e;
      level += alpha * e;
    }
    if (sse < best.sse) best = { alpha, level, sse };
  }
  return best;
}

function meanForecast(y: readonly number[], h: number): Forecast {
  const n = y.length;
  const mean = n ? y.reduce((a, b) => a + b, 0) / n : 0;
  const sd = n > 1 ? Math.sqrt(y.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1)) : 0;
  const spread = sd * Math.sqrt(1 + 1 / Math.max(1, n));
  const fill = (v: number) => new Array(h).fill(v);
  return {
    point: fill(mean),
    lower80: fill(mean - Z80 * spread),
    upper80: fill(mean + Z80 * spread),
    lower95: fill(mean - Z95 * spread),
    upper95: fill(mean + Z95 * spread),
  };
}

export const MIN_MODEL_MONTHS = 6;

/** The Theta method (see the header); seasonal adjustment only when allowed and the test finds a yearly cycle. */
export function theta(y: readonly number[], h: number, options: { seasonal: boolean }, m = SEASON): Forecast {
  const n = y.length;
  if (n < MIN_MODEL_MONTHS) return meanForecast(y, h);
  const season = options.seasonal && isSeasonal(y, m) ? decompose(y, m) : null;
  const x = season ? adjust(y, season, m) : [...y];
  const fit = ses(x);
  const meanT = (n - 1) / 2;
  const meanX = x.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let t = 0; t < n; t++) {
    sxy += (t - meanT) * (x[t]! - meanX);
    sxx += (t - meanT) ** 2;
  }
  const slope = sxx === 0 ? 0 : sxy / sxx;
  const sigma = Math.sqrt(fit.sse / (n - 1));
  const out: Forecast = { point: [], lower80: [], upper80: [], lower95: [], upper95: [] };
  const drift = (1 - (1 - fit.alpha) ** n) / fit.alpha;
  for (let k = 0; k < h; k++) {
    const f = fit.level + 0.5 * slope * (k + drift);
    const sd = sigma * Math.sqrt(1 + fit.alpha * fit.alpha * k);
    const at = n + k;
    out.point.push(reseason(f, season, at, m));
    out.lower80.push(reseason(f - Z80 * sd, season, at, m));
    out.upper80.push(reseason(f + Z80 * sd, season, at, m));
    out.lower95.push(reseason(f - Z95 * sd, season, at, m));
    out.upper95.push(reseason(f + Z95 * sd, season, at, m));
  }
  return out;
}

/** Endpoint averaging of forecasts of the same horizon. */
export function combineForecasts(members: readonly Forecast[]): Forecast {
  const avg = (key: keyof Forecast) =>
    members[0]![key].map((_, i) => members.reduce((s, f) => s + f[key][i]!, 0) / members.length);
  return {
    point: avg('point'),
    lower80: avg('lower80'),
    upper80: avg('upper80'),
    lower95: avg('lower95'),
    upper95: avg('upper95'),
  };
}

/**
 * The statistical forecast of one series: the combination of the library model (MSTL + AutoETS) and Theta, or Theta
 * alone when the library model fails on this series (constant series, too short). Returns which members ran.
 */
export function statisticalForecast(
  y: readonly number[],
  h: number,
  model: ModelFit | null,
): { forecast: Forecast; members: string[]; seasonal: boolean } {
  const seasonal = y.length >= 2 * SEASON;
  if (y.length < MIN_MODEL_MONTHS) return { forecast: meanForecast(y, h), members: ['mean'], seasonal: false };
  const members: Forecast[] = [theta(y, h, { seasonal })];
  const names = ['theta'];
  if (model) {
    try {
      const f = model(y, h, { seasonal });
      if (f.point.every(Number.isFinite) && f.lower95.every(Number.isFinite) && f.upper95.every(Number.isFinite)) {
        members.unshift(f);
        names.unshift(seasonal ? 'mstl-autoets' : 'autoets');
      }
    } catch {
      // A series the library cannot fit (constant, degenerate): Theta carries the forecast alone, and says so.
    }
  }
  return { forecast: combineForecasts(members), members: names, seasonal };
}
