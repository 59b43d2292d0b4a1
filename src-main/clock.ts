/**
 * The process clock, set to another day on purpose (docs/decisions/0019-test-clock.md).
 *
 * `FINOPS_NOW=2026-02-29T09:00:00Z finops serve …` starts a process whose `Date` reads that instant at start and runs
 * on in real time from there: every part of the product that asks for "now" (the demo's last day, overdue moves,
 * default views, sessions, leases) sees the same shifted clock, without a clock parameter threaded through every
 * call. It exists so that tests run on a fixed day and the product can be looked at as on any day; timers are not
 * touched (a second still takes a second).
 *
 * The shift is handed down as `FINOPS_CLOCK_OFFSET_MS` (milliseconds added to the machine's clock), so a CLI command
 * or server a process starts reads exactly the same time as its parent, however much later it starts: two processes
 * comparing lease or session expiries must agree to the millisecond.
 */

export const NOW_ENV = 'FINOPS_NOW';
export const OFFSET_ENV = 'FINOPS_CLOCK_OFFSET_MS';

// The machine's `Date`, even where this module is loaded again after a shift (shiftGlobalDate keeps it).
const MachineDate = (globalThis as { finopsMachineDate?: DateConstructor }).finopsMachineDate ?? globalThis.Date;
let installedOffset: number | null = null;

/** The instant a `FINOPS_NOW` value names, in ms; an error naming the value when it is not an ISO 8601 date-time. */
export function parseNow(value: string): number {
  const ms = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.test(value)
    ? MachineDate.parse(value)
    : NaN;
  if (Number.isNaN(ms))
    throw new Error(`${NOW_ENV} must be an ISO 8601 day or date-time with a zone (got ${JSON.stringify(value)})`);
  return ms;
}

/**
 * Shifts this process's `Date` by `offsetMs` (replacing an earlier shift): `new Date()` and `Date.now()` read the
 * machine's clock plus the offset; dates made from a value, `Date.UTC` and `Date.parse` are unchanged, and dates
 * Node makes itself (file times) still count as `instanceof Date`.
 */
export function shiftClock(offsetMs: number): void {
  if (!Number.isFinite(offsetMs)) throw new Error(`a clock offset must be a finite number of ms (got ${offsetMs})`);
  installedOffset = offsetMs;
  process.env[OFFSET_ENV] = String(offsetMs);
  shiftGlobalDate(offsetMs);
}

/**
 * Replaces `globalThis.Date` with one `offsetMs` ahead of the machine's (0: the machine's own again). It refers to
 * nothing outside itself, so a browser page can run it too (the browser tests pass it to an init script): the
 * machine's `Date` is kept on `globalThis` the first time, so a second shift replaces the first instead of adding.
 */
export function shiftGlobalDate(offsetMs: number): void {
  const g = globalThis as { Date: DateConstructor; finopsMachineDate?: DateConstructor };
  g.finopsMachineDate ??= g.Date;
  const MachineDate = g.finopsMachineDate;
  if (offsetMs === 0) {
    g.Date = MachineDate;
    return;
  }
  const now = () => MachineDate.now() + offsetMs;
  // A subclass keeps every method and the [object Date] brand; only the two ways of reading "now" change.
  class ShiftedDate extends MachineDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(now());
      else super(...(args as [number]));
    }
    static override now(): number {
      return now();
    }
    static override [Symbol.hasInstance](value: unknown): boolean {
      return value instanceof MachineDate;
    }
  }
  g.Date = ShiftedDate as DateConstructor;
}

/**
 * Applies the clock the environment asks for: `FINOPS_CLOCK_OFFSET_MS` (a parent's shift, inherited), else
 * `FINOPS_NOW` (turned into an offset from this moment, which children then inherit). Returns the offset, or null
 * when the environment asks for nothing.
 */
export function installClockFromEnv(env: NodeJS.ProcessEnv = process.env): number | null {
  const inherited = env[OFFSET_ENV];
  if (inherited !== undefined && inherited !== '') {
    const offset = Number(inherited);
    if (!Number.isFinite(offset)) throw new Error(`${OFFSET_ENV} must be a number of ms (got ${JSON.stringify(inherited)})`);
    shiftClock(offset);
    return offset;
  }
  const wanted = env[NOW_ENV];
  if (wanted === undefined || wanted === '') return null;
  const offset = parseNow(wanted) - MachineDate.now();
  shiftClock(offset);
  return offset;
}

/** The offset this process runs with (0 when its clock is the machine's). */
export function clockOffset(): number {
  return installedOffset ?? 0;
}

/**
 * The machine's own clock, whatever the process clock says: for comparing with times the operating system stamps
 * (a file's mtime), which a shifted clock would put in the future or the past.
 */
export function machineNow(): number {
  return MachineDate.now();
}
