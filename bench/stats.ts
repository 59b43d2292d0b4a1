/** The median of samples (the mean of the middle two for an even count): robust to the odd slow run on a shared machine. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? Number.NaN) : ((s[mid - 1] ?? Number.NaN) + (s[mid] ?? Number.NaN)) / 2;
}

/** The q-quantile of samples (0 ≤ q ≤ 1), interpolating between the two nearest ranks. */
export function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const at = (s.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return (s[lo] ?? Number.NaN) + ((s[hi] ?? Number.NaN) - (s[lo] ?? Number.NaN)) * (at - lo);
}

/** Mean ms per call of `fn` over a batch of `calls`. */
export function batch(fn: () => void, calls: number): number {
  const t = performance.now();
  for (let i = 0; i < calls; i++) fn();
  return (performance.now() - t) / calls;
}

/**
 * A synchronous read under test against its bare counterpart, run by run: medians of both (ms per call) and the
 * median of the per-run multiples, after one untimed batch of each. Each batch makes enough calls to last `batchMs`
 * (well over the timer's resolution).
 */
export function paired(
  fn: () => void,
  bare: () => void,
  { runs, batchMs }: { runs: number; batchMs: number },
): { ms: number; bareMs: number; multiple: number } {
  const calls = (f: () => void) => Math.max(1, Math.ceil(batchMs / Math.max(batch(f, 1), 0.001)));
  const n = calls(fn);
  const nBare = calls(bare);
  batch(fn, n);
  batch(bare, nBare);
  const ms: number[] = [];
  const bareMs: number[] = [];
  const multiples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const b = batch(bare, nBare);
    const t = batch(fn, n);
    bareMs.push(b);
    ms.push(t);
    multiples.push(t / b);
  }
  return { ms: median(ms), bareMs: median(bareMs), multiple: median(multiples) };
}
