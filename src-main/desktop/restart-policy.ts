/**
 * When the server host dies unexpectedly, should the shell start it again, and after how long?
 *
 * Rules:
 * - A crash is restarted after an exponential back-off: `baseDelayMs × 2^(n−1)`, capped at `maxDelayMs`, where n is
 *   the number of crashes inside the sliding window (so one crash an hour always restarts quickly).
 * - More than `maxCrashes` crashes inside `windowMs` means the host cannot stay up (a corrupt database, a port
 *   problem, a bug on start): give up and tell the person, rather than spin.
 * - A failure the host reports as not retryable (e.g. the database is newer than the app) gives up at once.
 *
 * Pure: the caller passes the clock, which makes the policy a table test.
 */

export interface RestartPolicyOptions {
  maxCrashes: number;
  windowMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicyOptions = {
  maxCrashes: 5,
  windowMs: 60_000,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
};

export type RestartDecision = { action: 'restart'; delayMs: number; attempt: number } | { action: 'give-up'; reason: string };

export class RestartPolicy {
  private crashes: number[] = [];

  constructor(private readonly options: RestartPolicyOptions = DEFAULT_RESTART_POLICY) {}

  /** Records a crash at `now` (ms) and decides. */
  onCrash(now: number, retryable = true): RestartDecision {
    if (!retryable) return { action: 'give-up', reason: 'the failure cannot be fixed by restarting' };
    this.crashes = this.crashes.filter((t) => now - t < this.options.windowMs);
    this.crashes.push(now);
    const n = this.crashes.length;
    if (n > this.options.maxCrashes) {
      return {
        action: 'give-up',
        reason: `the server stopped ${n} times within ${Math.round(this.options.windowMs / 1000)} s`,
      };
    }
    const delayMs = Math.min(this.options.maxDelayMs, this.options.baseDelayMs * 2 ** (n - 1));
    return { action: 'restart', delayMs, attempt: n };
  }

  /** Forgets past crashes (after a manual restart asked for by the person). */
  reset(): void {
    this.crashes = [];
  }
}
