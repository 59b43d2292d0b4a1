/**
 * Keeps the local v1 server running in its own process while the desktop app is open.
 *
 * The Electron main process never runs the backend: it starts a server host (a utility process in the app, a Node
 * child in tests — both behind `LaunchServerChild`), asks it to `start`, relays its address and key to the window,
 * restarts it by the `RestartPolicy` when it dies unexpectedly, and stops it cleanly on quit.
 *
 * - The first start listens on a random port; every restart asks for the same port again, so the window's origin
 *   (and its storage) stays valid. The host falls back to a new port if that one is taken; `onReady` tells.
 * - A start that neither reports ready nor fails within `readyTimeoutMs` counts as a crash (the child is killed).
 *   Each progress message (the database check, the backup, each migration step: protocol.ts) starts that time
 *   afresh: a host that keeps reporting is never killed for being slow, one silent for `readyTimeoutMs` is. A check
 *   or a migration step is one synchronous SQLite call during which the host cannot speak, so after announcing one
 *   it has `quietStepTimeoutMs` (a wedged host still ends; a step of a large database is not cut off and retried).
 * - Events from a child that has already been replaced are ignored.
 * - The host asks for sync credentials; they are answered from `secrets` (the shell's store; secret-relay.ts).
 * - The private hosts the person allows go to the running host at once and to every later start (private-hosts.ts).
 */
import type { ServerStatus } from '../../src-shared/desktop-bridge';
import type { SecretStore } from '../infra/secret-store';
import { type HostRequest, isHostEvent, type ProgressEvent, type ReadyEvent } from './protocol';
import { RestartPolicy } from './restart-policy';
import { answerSecretRequest } from './secret-relay';

/** One running server host, whatever runs it. */
export interface ServerChild {
  send(message: HostRequest): void;
  onMessage(listener: (message: unknown) => void): void;
  onExit(listener: (code: number | null) => void): void;
  kill(): void;
}

export type LaunchServerChild = () => ServerChild;

export interface SupervisorOptions {
  launch: LaunchServerChild;
  dataDir: string;
  /** Port of the first start: 0 for a random free one (the app), fixed in development (the dev server proxies to it). */
  port?: number;
  webRoot: string | null;
  /** The key kept in the keychain, if any. */
  initialApiKey: string | null;
  /** Where the host's sync rounds find their credentials (none: every request is refused). */
  secrets?: SecretStore;
  /** The private hosts saved in the app (none: only what `$FINOPS_ALLOW_PRIVATE_HOSTS` allows). */
  allowPrivateHosts?: readonly string[];
  policy?: RestartPolicy;
  /** Longest silence of a starting host, from its launch or its last progress message (default 30 s). */
  readyTimeoutMs?: number;
  /** Longest silence after the host announced opening, a check or a migration step it runs without a word (default 30 min). */
  quietStepTimeoutMs?: number;
  stopTimeoutMs?: number;
  now?: () => number;
}

export class SupervisorGaveUp extends Error {
  override name = 'SupervisorGaveUp';
}

type Waiter = { resolve: (ready: ReadyEvent) => void; reject: (err: Error) => void };

export class ServerSupervisor {
  private child: ServerChild | null = null;
  private generation = 0;
  private port = 0;
  private apiKey: string | null;
  private allowPrivateHosts: string[];
  private ready: ReadyEvent | null = null;
  private stopping = false;
  private lastFailureRetryable = true;
  private lastFailureMessage: string | null = null;
  private restartTimer: ReturnType<typeof setTimeout> | null = null;
  private readyTimer: ReturnType<typeof setTimeout> | null = null;
  private exitWaiters: Array<() => void> = [];
  private waiters: Waiter[] = [];
  private statusListeners = new Set<(status: ServerStatus) => void>();
  private readyListeners = new Set<(ready: ReadyEvent) => void>();
  private progressListeners = new Set<(progress: ProgressEvent) => void>();
  private readonly policy: RestartPolicy;
  private readonly now: () => number;
  status: ServerStatus = { state: 'stopped' };
  /** How many children were launched (restarts included); for the About panel and tests. */
  launches = 0;

  constructor(private readonly options: SupervisorOptions) {
    this.apiKey = options.initialApiKey;
    this.allowPrivateHosts = [...(options.allowPrivateHosts ?? [])];
    this.port = options.port ?? 0;
    this.policy = options.policy ?? new RestartPolicy();
    this.now = options.now ?? Date.now;
  }

  onStatus(listener: (status: ServerStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Called on every successful (re)start, with the address and key in force. */
  onReady(listener: (ready: ReadyEvent) => void): () => void {
    this.readyListeners.add(listener);
    return () => this.readyListeners.delete(listener);
  }

  /**
   * What the starting host reports before it is ready (the database check, the backup before a migration and
   * where it went, each migration step): for the window's "migrating" state.
   */
  onProgress(listener: (progress: ProgressEvent) => void): () => void {
    this.progressListeners.add(listener);
    return () => this.progressListeners.delete(listener);
  }

  /** The running server's address and key; waits through restarts; rejects if the supervisor gives up. */
  whenReady(): Promise<ReadyEvent> {
    if (this.ready && this.status.state === 'ready') return Promise.resolve(this.ready);
    if (this.status.state === 'failed') return Promise.reject(new SupervisorGaveUp(this.status.reason));
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  start(): Promise<ReadyEvent> {
    this.stopping = false;
    if (!this.child && !this.restartTimer) this.spawn(1);
    return this.whenReady();
  }

  /** A restart asked for by the person: forgets past crashes, stops the current host cleanly, starts a new one. */
  async restart(): Promise<ReadyEvent> {
    this.policy.reset();
    await this.stop();
    return this.start();
  }

  /** A sync credential for `baseUrl` was stored or removed (the host syncs the teams waiting for it). */
  credentialChanged(baseUrl: string): void {
    this.child?.send({ type: 'credential-changed', baseUrl });
  }

  /** The person changed the private hosts: the running host applies them now, a restarted one at its start. */
  setPrivateHosts(entries: readonly string[]): void {
    this.allowPrivateHosts = [...entries];
    this.child?.send({ type: 'operator-settings', allowPrivateHosts: this.allowPrivateHosts });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.clearTimers();
    const child = this.child;
    if (child) {
      const exited = new Promise<void>((resolve) => this.exitWaiters.push(resolve));
      child.send({ type: 'stop' });
      const timeout = setTimeout(() => child.kill(), this.options.stopTimeoutMs ?? 10_000);
      await exited;
      clearTimeout(timeout);
    }
    this.setStatus({ state: 'stopped' });
  }

  private spawn(attempt: number): void {
    this.restartTimer = null;
    const generation = ++this.generation;
    this.ready = null;
    this.lastFailureRetryable = true;
    this.lastFailureMessage = null;
    this.launches++;
    this.setStatus({ state: 'starting', attempt });
    const child = this.options.launch();
    this.child = child;
    child.onMessage((message) => {
      if (generation !== this.generation || !isHostEvent(message)) return;
      if (message.type === 'secret') {
        void answerSecretRequest(this.options.secrets ?? null, message).then((reply) => {
          if (generation === this.generation) child.send(reply);
        });
        return;
      }
      if (message.type === 'progress') {
        // Opening the data dir is under way: the window shows what it is doing, and the silence counts from now.
        const quiet = message.phase === 'opening' || message.phase === 'checking' || message.phase === 'migration';
        this.armReadyTimer(generation, child, quiet ? this.quietStepTimeoutMs() : this.readyTimeoutMs());
        for (const l of this.progressListeners) l(message);
        return;
      }
      if (message.type === 'ready') {
        if (this.readyTimer) clearTimeout(this.readyTimer);
        this.readyTimer = null;
        this.ready = message;
        this.apiKey = message.apiKey;
        this.port = Number(new URL(message.url).port) || this.port;
        this.setStatus({ state: 'ready', url: message.url });
        for (const l of this.readyListeners) l(message);
        for (const w of this.waiters.splice(0)) w.resolve(message);
      } else {
        this.lastFailureRetryable = message.retryable;
        this.lastFailureMessage = message.message;
        child.kill();
      }
    });
    child.onExit((code) => {
      if (generation !== this.generation) return;
      this.child = null;
      this.ready = null;
      if (this.readyTimer) clearTimeout(this.readyTimer);
      this.readyTimer = null;
      for (const w of this.exitWaiters.splice(0)) w();
      if (this.stopping) return;
      this.onCrash(code);
    });
    child.send({
      type: 'start',
      dataDir: this.options.dataDir,
      port: this.port,
      apiKey: this.apiKey,
      webRoot: this.options.webRoot,
      secretStorage: this.options.secrets?.kind ?? 'session-only',
      allowPrivateHosts: this.allowPrivateHosts,
    });
    this.armReadyTimer(generation, child, this.readyTimeoutMs());
  }

  private readyTimeoutMs(): number {
    return this.options.readyTimeoutMs ?? 30_000;
  }

  private quietStepTimeoutMs(): number {
    return Math.max(this.options.quietStepTimeoutMs ?? 30 * 60_000, this.readyTimeoutMs());
  }

  /** A starting host silent for `ms` from now counts as a crash (killed; the restart policy decides what follows). */
  private armReadyTimer(generation: number, child: ServerChild, ms: number): void {
    if (this.readyTimer) clearTimeout(this.readyTimer);
    this.readyTimer = setTimeout(() => {
      if (generation !== this.generation) return;
      this.lastFailureMessage = `the server did not start in time (no word from it for ${ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`})`;
      child.kill();
    }, ms);
  }

  private onCrash(code: number | null): void {
    const reason = this.lastFailureMessage ?? `the server process exited (code ${code ?? 'signal'})`;
    const decision = this.policy.onCrash(this.now(), this.lastFailureRetryable);
    if (decision.action === 'give-up') {
      const full = `${reason}; ${decision.reason}`;
      this.setStatus({ state: 'failed', reason: full });
      for (const w of this.waiters.splice(0)) w.reject(new SupervisorGaveUp(full));
      return;
    }
    this.setStatus({ state: 'restarting', attempt: decision.attempt, inMs: decision.delayMs, reason });
    this.restartTimer = setTimeout(() => this.spawn(decision.attempt + 1), decision.delayMs);
  }

  private clearTimers(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    if (this.readyTimer) clearTimeout(this.readyTimer);
    this.restartTimer = null;
    this.readyTimer = null;
  }

  private setStatus(status: ServerStatus): void {
    this.status = status;
    for (const l of this.statusListeners) l(status);
  }
}
