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
