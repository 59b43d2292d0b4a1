/** How long a run (or a step) has taken: to its end, or — while it runs or waits — to now, ticking. */
import { useEffect, useState } from 'react';
import type { RunStatus } from '../../../src-shared/contract/workflows';

/** Statuses whose time still runs: a run waiting for an approval is not over, its duration counts up. */
export const OPEN_STATUSES: readonly RunStatus[] = ['pending', 'running', 'waiting'];

export function runDuration(run: { startedAt: string | null; completedAt: string | null }, now: number): number | null {
  if (!run.startedAt) return null;
  const end = run.completedAt ? Date.parse(run.completedAt) : now;
  return Math.max(0, end - Date.parse(run.startedAt));
}

/** A clock that ticks every second while something is open, so elapsed times move. */
export function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [active]);
  return now;
}
