import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { unpackedPath } from '../paths';
import { JOBS, type JobInput, type JobLimits, type JobName, type JobOutput, WORKER_HEAP_MB } from './jobs';
import type { JobAnswer, JobRequest } from './worker';

/**
 * The parser sandbox (docs/decisions/0170-parser-sandbox.md): a small pool of worker threads that run the jobs of
 * jobs.ts — every parser of bytes a stranger chose — off the event loop, each job under its wall-time and memory
 * limits. A job past a limit has its worker stopped (the only way to end a regular expression that backtracks or a
 * decoder that inflates) and fails with ParserStopped saying which limit; the pool starts another worker for the next
 * job. A job that throws fails with ParserFailed carrying its message. So whatever a file does, the caller gets an
 * answer within the job's time limit and the server's memory grows by at most the job's memory limit, which callers
 * turn into a 422, a failed document or `finops import` exiting 1 — never a hang.
 *
 * - Workers: at most `size` (two by default: on a two-core machine one parse never waits for another, and the event
 *   loop keeps a core), started on demand and ended after IDLE_MS without work. An idle worker does not keep the
 *   process alive (a CLI command ends when its work does).
 * - A job's clock starts when a ready worker takes it: waiting in the queue or for a worker to load does not count.
 * - Memory: sampled every WATCH_MS (the worker's heap and the buffers outside it) while a job runs; the worker's V8
 *   heap is capped a little above the largest job limit, so a burst between two samples stops in V8 itself.
 * - Where the worker's code is: beside this module's bundle (out/cli, out/main: `parser-worker.cjs`, built by
 *   scripts/build-cli.cjs and electron.vite.config.ts), else the TypeScript sources through tsx (tests, benchmarks).
 *   It is started from a one-line script that requires it, so the path may lie inside the desktop app's archive.
 */
export type StopReason = 'time' | 'memory' | 'crash';

/** A parser stopped by the sandbox: it ran past its time or memory limit, or its worker died. */
export class ParserStopped extends Error {
  override name = 'ParserStopped';
  constructor(
    readonly job: JobName,
    readonly reason: StopReason,
    detail: string,
  ) {
    super(detail);
  }
}

/** A parser that threw: its own error's name and message. */
export class ParserFailed extends Error {
  override name = 'ParserFailed';
  constructor(
    readonly job: JobName,
    readonly errorName: string,
    message: string,
  ) {
    super(message);
  }
}

export const IDLE_MS = 60_000;
export const WATCH_MS = 25;

export interface PoolOptions {
  size?: number;
  idleMs?: number;
  /** The worker's V8 heap cap in MB (tests make it small to see V8's own stop). */
  heapMb?: number;
}

interface Task {
  id: number;
  job: JobName;
  input: unknown;
  limits: JobLimits;
  resolve(value: unknown): void;
  reject(err: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  task: Task | null;
  timer?: NodeJS.Timeout;
  watch?: NodeJS.Timeout;
  idle?: NodeJS.Timeout;
  /** Set once the slot is done with: a stop or exit that follows changes nothing. */
  gone: boolean;
}

const BOOTSTRAP = `
const { workerData, parentPort } = require('node:worker_threads');
if (workerData.tsx) require(workerData.tsx).register();
require(workerData.entry);
parentPort.postMessage({ ready: true });
`;

/** Where the worker's code is: the built bundle beside this module's, else the sources through tsx. */
function workerCode(): { entry: string; tsx?: string } {
  const built = path.join(__dirname, 'parser-worker.cjs');
  if (fs.existsSync(built)) return { entry: unpackedPath(built) };
  return { entry: path.join(__dirname, 'worker.ts'), tsx: createRequire(__filename).resolve('tsx/cjs/api') };
}

const seconds = (ms: number) => (ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`);

export class ParserPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;
  private readonly size: number;
  private readonly idleMs: number;
  private readonly heapMb: number;

  constructor(options: PoolOptions = {}) {
    this.size = Math.max(1, options.size ?? Math.min(2, os.availableParallelism()));
    this.idleMs = options.idleMs ?? IDLE_MS;
    this.heapMb = options.heapMb ?? WORKER_HEAP_MB;
  }

  /** Runs a job in a worker under its limits (`limits` narrows them for one call). */
  run<N extends JobName>(job: N, input: JobInput<N>, limits: Partial<JobLimits> = {}): Promise<JobOutput<N>> {
    if (this.closed) return Promise.reject(new Error('the parser pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({
        id: this.nextId++,
        job,
        input,
        limits: { ...JOBS[job].limits, ...limits },
        resolve: resolve as (v: unknown) => void,
        reject,
      });
      this.pump();
    });
  }

  /** Workers running now (tests). */
  get workers(): number {
    return this.slots.length;
  }

  /** Ends every worker; jobs still running or waiting fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.reject(new Error('the parser pool is closed'));
    await Promise.all(
      [...this.slots].map((slot) => {
        this.finish(slot, new ParserStopped(slot.task?.job ?? 'bankFile', 'crash', 'the parser pool was closed'));
        return slot.worker.terminate();
      }),
    );
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((s) => s.ready && !s.task);
      if (slot) {
        this.dispatch(slot, this.queue.shift()!);
        continue;
      }
      if (this.slots.filter((s) => !s.ready).length < this.queue.length && this.slots.length < this.size) {
        this.spawn();
        continue;
      }
      return;
    }
  }

  private spawn(): void {
    const code = workerCode();
    const worker = new Worker(BOOTSTRAP, {
      eval: true,
      workerData: code,
      resourceLimits: { maxOldGenerationSizeMb: this.heapMb, maxYoungGenerationSizeMb: 64 },
    });
    const slot: Slot = { worker, ready: false, task: null, gone: false };
    this.slots.push(slot);
    worker.on('message', (m: JobAnswer | { ready: true }) => {
      if ('ready' in m) {
        slot.ready = true;
        this.idleLater(slot);
        this.pump();
        return;
      }
      const task = slot.task;
      if (!task || task.id !== m.id) return;
      this.release(slot);
      if (m.ok) task.resolve(m.value);
      else task.reject(new ParserFailed(task.job, m.error.name, m.error.message));
      this.pump();
    });
    worker.on('error', (err: Error & { code?: string }) => {
      const job = slot.task?.job ?? 'bankFile';
      const stop =
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new ParserStopped(job, 'memory', `reading it needed more memory than the reader may use (${this.heapMb} MB)`)
          : new ParserStopped(job, 'crash', `the reader stopped: ${err.message}`);
      this.end(slot, stop);
    });
    worker.on('exit', (code) => {
      this.end(slot, new ParserStopped(slot.task?.job ?? 'bankFile', 'crash', `the reader stopped (exit code ${code})`));
    });
  }

  private dispatch(slot: Slot, task: Task): void {
    if (slot.idle) clearTimeout(slot.idle);
    slot.task = task;
    slot.worker.ref();
    const { timeMs, memoryMb } = task.limits;
    slot.timer = setTimeout(
      () => this.stop(slot, new ParserStopped(task.job, 'time', `reading it took longer than ${seconds(timeMs)}`)),
      timeMs,
    );
    let sampling = false;
    slot.watch = setInterval(() => {
      if (sampling) return;
      sampling = true;
      slot.worker
        .getHeapStatistics()
        .then((s) => {
          const used = (s.used_heap_size + (s.external_memory ?? 0)) / 1024 / 1024;
          if (used > memoryMb && slot.task === task) {
            this.stop(slot, new ParserStopped(task.job, 'memory', `reading it needed more than ${memoryMb} MB`));
          }
        })
        .catch(() => {})
        .finally(() => {
          sampling = false;
        });
    }, WATCH_MS);
    const request: JobRequest = { id: task.id, job: task.job, input: task.input };
    slot.worker.postMessage(request);
  }

  /** The slot's job is done: timers off, the worker idle (and no longer keeping the process alive). */
  private release(slot: Slot): void {
    clearTimeout(slot.timer);
    clearInterval(slot.watch);
    slot.task = null;
    slot.worker.unref();
    this.idleLater(slot);
  }

  private idleLater(slot: Slot): void {
    if (slot.idle) clearTimeout(slot.idle);
    if (!slot.task) slot.worker.unref();
    slot.idle = setTimeout(() => this.stop(slot, null), this.idleMs);
    slot.idle.unref();
  }

  /** Stops a worker (a limit passed, or idle): its job fails with `why`. */
  private stop(slot: Slot, why: ParserStopped | null): void {
    if (slot.gone) return;
    this.end(slot, why);
    void slot.worker.terminate();
  }

  /** The slot leaves the pool; its job, if any, fails with `why`, and the queue goes on with a new worker. */
  private end(slot: Slot, why: ParserStopped | null): void {
    if (slot.gone) return;
    const wasReady = slot.ready;
    this.finish(slot, why);
    if (this.closed) return;
    if (!wasReady && why) {
      // A worker that died before it was ready to work: the jobs waiting for it would wait for ever.
      for (const task of this.queue.splice(0)) task.reject(new ParserStopped(task.job, 'crash', why.message));
      return;
    }
    this.pump();
  }

  private finish(slot: Slot, why: ParserStopped | null): void {
    slot.gone = true;
    clearTimeout(slot.timer);
    clearInterval(slot.watch);
    if (slot.idle) clearTimeout(slot.idle);
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1);
    const task = slot.task;
    slot.task = null;
    if (task) task.reject(why ?? new ParserStopped(task.job, 'crash', 'the reader stopped'));
  }
}

let shared: ParserPool | undefined;

/** The process's parser pool, started on first use. */
export function parsers(): ParserPool {
  shared ??= new ParserPool();
  return shared;
}
