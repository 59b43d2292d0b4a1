import crypto from 'node:crypto';
import type { Db } from '../store/db';
import { PROCESS_OWNER } from '../store/leases';
import { type Claim, claimNextRun, claimRun, releaseRunsOfGoneHolders } from '../store/workflows/runs/claims';
import { loadRunState } from '../store/workflows/runs/state';
import { outsideDefaultOrigin } from '../store/write';
import { defaultEffectPorts, type EffectPorts } from './effects';
import { type DriveResult, driveRun, type FaultInjector, SimulatedCrash } from './engine';
import { fireDueSchedules } from './schedule';
import { onWake } from './wakeup';

/**
 * Runs workflow runs in the background of a process (the server; the CLI for the run it just started or decided),
 * with bounded concurrency. Work is claimed through the database (store/workflow-runs.ts claimNextRun, a lease per
 * run), so a server and a CLI on one data dir never run the same step twice, and a run whose process died is taken
 * over once its lease lapses — at once when that process was of this machine (a restarted server, a new command). Each poll also fires due schedule triggers (under their own named lease).
 */
export interface RunnerOptions {
  /** Runs advanced at once; default 4. */
  concurrency?: number;
  /** How long a claim lasts without renewal; default 30 s. A dead process's runs resume after this. */
  leaseMs?: number;
  /** Polling interval for work from other processes and for wake times; default 1 s. */
  pollMs?: number;
  clock?: () => Date;
  ports?: Partial<EffectPorts>;
  faults?: FaultInjector;
  /** Fire schedule triggers on each poll; default true. */
  schedules?: boolean;
  /** A distinct owner per runner (tests run several "processes" in one). */
  owner?: string;
  onError?: (err: unknown, runId?: string) => void;
}

/**
 * Runner settings a deployment may change: $FINOPS_WORKFLOW_CONCURRENCY and $FINOPS_WORKFLOW_LEASE_MS (how soon a
 * run whose process vanished without a trace is taken over; at least 1000). They change how fast runs go, never what
 * a run does: what a run may do (the HTTP allow-list) is the team's, kept in its data (store/workflows/settings.ts).
 */
export function runnerOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): RunnerOptions {
  const int = (v: string | undefined, min: number) => (v && /^\d+$/.test(v) && Number(v) >= min ? Number(v) : undefined);
  return {
    concurrency: int(env.FINOPS_WORKFLOW_CONCURRENCY, 1),
    leaseMs: int(env.FINOPS_WORKFLOW_LEASE_MS, 1000),
  };
}

/** Why a former setting is no longer read, when the environment still sets it (the server logs it at start). */
export function retiredEnvSettings(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.FINOPS_WORKFLOW_HTTP_HOSTS
    ? 'FINOPS_WORKFLOW_HTTP_HOSTS is no longer read: allowed HTTP hosts are a team setting now (finops workflow http-hosts --set …)'
    : undefined;
}

export const DEFAULT_CONCURRENCY = 4;
export const DEFAULT_LEASE_MS = 30_000;

export class WorkflowRunner {
  readonly owner: string;
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly clock: () => Date;
  private readonly ports: EffectPorts;
  private readonly inFlight = new Map<string, Promise<DriveResult>>();
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private stopping = false;
  /** Polling only after start(): a runner used through runUntilIdle/driveOne leaves nothing running behind it. */
  private started = false;
  private crashed: SimulatedCrash | undefined;
  private ticking = false;

  constructor(
    private readonly db: Db,
    private readonly options: RunnerOptions = {},
  ) {
    this.owner = options.owner ?? `${PROCESS_OWNER}:runner:${crypto.randomBytes(3).toString('hex')}`;
    this.concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.pollMs = options.pollMs ?? 1000;
    this.clock = options.clock ?? (() => new Date());
    this.ports = defaultEffectPorts(options.ports);
  }

  /** Starts polling (and listening for in-process wake-ups); runs a dead process of this machine held are free at once. */
  start(): this {
    this.started = true;
    this.reclaim();
    this.unsubscribe = onWake(() => this.kick());
    this.kick();
    return this;
  }

  /** Looks for work now. */
  kick(): void {
    if (!this.started || this.stopping || this.crashed) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    // Woken by a request's write: runs as the runner, not as part of that request (its default origin).
    outsideDefaultOrigin(() => this.tick());
  }

  private schedule(): void {
    if (!this.started || this.stopping || this.crashed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.tick();
    }, this.pollMs);
    this.timer.unref();
  }

  private tick(): void {
    if (this.ticking) return;
    this.ticking = true;
    try {
      if (this.options.schedules !== false) fireDueSchedules(this.db, this.clock());
      this.fill();
    } catch (err) {
      if (err instanceof SimulatedCrash) this.crashed = err;
      else this.options.onError?.(err);
    } finally {
      this.ticking = false;
      this.schedule();
    }
  }

  /** Claims ready runs until the concurrency bound is reached or none is left. */
  private fill(): void {
    while (!this.stopping && !this.crashed && this.inFlight.size < this.concurrency) {
      const claim = claimNextRun(this.db, this.owner, this.clock(), this.leaseMs);
      if (!claim) return;
      this.launch(claim);
    }
  }

  private launch(claim: Claim): Promise<DriveResult> {
    const drive = driveRun(this.db, claim, {
      owner: this.owner,
      leaseMs: this.leaseMs,
      clock: this.clock,
      ports: this.ports,
      faults: this.options.faults,
      shouldStop: () => this.stopping || this.crashed !== undefined,
      onError: (err, runId) => this.options.onError?.(err, runId),
    })
      .catch((err: unknown): DriveResult => {
        if (err instanceof SimulatedCrash) {
          this.crashed = err;
          return 'stopped';
        }
        this.options.onError?.(err, claim.runId);
        return 'error';
      })
      .finally(() => {
        this.inFlight.delete(claim.runId);
        // A slot is free: more work may be waiting.
        if (!this.stopping && !this.crashed) queueMicrotask(() => this.kick());
      });
    this.inFlight.set(claim.runId, drive);
    return drive;
  }

  /**
   * Advances ready runs until none is left (tests, the CLI): claims, drives, repeats. Waiting runs whose time has
   * not come are left waiting. Returns how many drives ran.
   */
  async runUntilIdle(maxDrives = 10_000): Promise<number> {
    let drives = 0;
    for (;;) {
      this.fill();
      if (this.crashed) throw this.crashed;
      if (this.inFlight.size === 0) return drives;
      drives += this.inFlight.size;
      await Promise.all(this.inFlight.values());
      if (this.crashed) throw this.crashed;
      if (drives >= maxDrives) return drives;
    }
  }

  /** Drives one run when it is ready and free (the CLI after a start or a decision); false when another process has it. */
  async driveOne(teamId: string, runId: string): Promise<DriveResult | 'busy'> {
    this.reclaim();
    if (!claimRun(this.db, teamId, runId, this.owner, this.clock(), this.leaseMs)) {
      const state = loadRunState(this.db, teamId, runId);
      return ['completed', 'failed', 'canceled', 'waiting'].includes(state.status) && !state.cancelRequested
        ? (state.status as DriveResult)
        : 'busy';
    }
    const result = await this.launch({ runId, teamId });
    if (this.crashed) throw this.crashed;
    return result;
  }

  /** Frees the claims of runs whose holder died on this machine (a crashed server, a killed command). */
  private reclaim(): void {
    try {
      releaseRunsOfGoneHolders(this.db, this.clock());
    } catch (err) {
      this.options.onError?.(err);
    }
  }

  /** Whether a simulated crash stopped this runner (tests). */
  get hasCrashed(): boolean {
    return this.crashed !== undefined;
  }

  /**
   * Stops claiming; runs in progress stop at their next step boundary and let go of their claims (a step in flight,
   * such as an HTTP call, completes first). Resolves when none is in progress.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    this.unsubscribe?.();
    await Promise.allSettled(this.inFlight.values());
  }
}
