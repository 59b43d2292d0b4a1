const iso = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The runway screen's window: the last 24 complete months, UTC — enough for the forecasts to learn a season and be
 * backtested, and never empty because the current month is young.
 */
export function defaultWindow(today = new Date()): { from: string; to: string } {
  const y = today.getUTCFullYear();
  const m = today.getUTCMonth();
  return { from: iso(new Date(Date.UTC(y - 2, m, 1))), to: iso(new Date(Date.UTC(y, m, 0))) };
}
