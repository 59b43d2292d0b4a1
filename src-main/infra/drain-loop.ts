import { outsideDefaultOrigin } from '../store/write';

/**
 * A queue's drain run at once, then every `intervalMs` and whenever woken, never two at a time in this process (the
 * queue's lease columns keep other processes apart). For the invoice email sender and the e-invoice hand-off runner.
 */
export interface DrainLoop {
  /** Drains now (after a write that queued work); a drain already running is not doubled. */
  wake(): void;
  /** Stops polling and waits for a drain in progress. */
  stop(): Promise<void>;
}

export function startDrainLoop(
  drain: () => Promise<unknown>,
  options: { intervalMs: number; onError?: (err: unknown) => void },
): DrainLoop {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    // Woken by a request's write: the drain is background work, not part of that request (its default origin).
    running = outsideDefaultOrigin(drain)
      .catch((err) => options.onError?.(err))
      .finally(() => {
        running = null;
      });
  };
  tick();
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  return {
    wake: tick,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
