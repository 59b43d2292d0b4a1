import { processSecretStore, type SecretStore } from '../infra/secret-store';
import { currentSeq } from '../store/changes';
import type { Db } from '../store/db';
import { enabledRemotes, type SyncRemote, setRemoteState } from '../store/sync/remotes';
import { isSingleTeam } from '../store/teams/teams';
import { type CredentialSources, environmentToken, NoCredential, resolveCredential } from './credentials';
import { RoundBusy, runRound } from './round';

/**
 * Sync rounds in a server process (docs/decisions/0140-sync-engine.md): each team with a remote is synced
 * - periodically while online (every `intervalMs`, default 5 min),
 * - soon after local edits (`debounceMs` after the team's change feed last moved, default 10 s), and
 * - on demand (`syncNow`, the app's button).
 * After a failure it backs off (doubling from 30 s up to the interval); a refused credential or a base-currency
 * mismatch waits for a person (a new credential, `syncNow`) instead of retrying forever. A round holds the team's
 * lease, so a CLI round beside the server and this one never interleave: the busy one is simply skipped.
 */
export interface SchedulerOptions {
  intervalMs?: number;
  debounceMs?: number;
  pollMs?: number;
  /** Where credentials come from (default: $FINOPS_REMOTE_TOKEN, else the OS keychain). */
  credentials?: Omit<CredentialSources, 'token'>;
  secretStore?: SecretStore;
  onError?: (err: unknown, teamId: string) => void;
  now?: () => number;
}

interface TeamState {
  lastSeq: number;
  lastChangeAt: number;
  lastRoundAt: number;
  failures: number;
  wanted: boolean;
}

export class SyncScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private readonly teams = new Map<string, TeamState>();
  private stopped = false;
  private readonly now: () => number;

  constructor(
    private readonly db: Db,
    private readonly options: SchedulerOptions = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  start(): this {
    this.stopped = false;
    this.timer = setInterval(() => this.tick(), this.options.pollMs ?? 2000);
    this.timer.unref();
    return this;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Asks for a round of this team as soon as possible (the app's "sync now"). */
  syncNow(teamId: string): void {
    this.state(teamId).wanted = true;
    this.tick();
  }

  /** Resolves when the round in progress (if any) has ended (tests). */
  idle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private store: Promise<SecretStore> | undefined;

  /**
   * The keychain, opened once per process (a probe per round would cost a D-Bus round trip each time) and shared
   * with the app's routes, which keep the keys people enter there.
   */
  private secretStore(): Promise<SecretStore> {
    this.store ??= this.options.secretStore
      ? Promise.resolve(this.options.secretStore)
      : processSecretStore().then((o) => o.store);
    return this.store;
  }

  private state(teamId: string): TeamState {
    let s = this.teams.get(teamId);
    if (!s) {
      s = { lastSeq: currentSeq(this.db, teamId), lastChangeAt: 0, lastRoundAt: 0, failures: 0, wanted: false };
      this.teams.set(teamId, s);
    }
    return s;
  }

  private tick(): void {
    if (this.running || this.stopped) return;
    this.running = this.pass().finally(() => {
      this.running = undefined;
    });
  }

  /** Whether a team's round is due now, and why. */
  private due(remote: SyncRemote, s: TeamState): boolean {
    const now = this.now();
    const interval = this.options.intervalMs ?? 5 * 60_000;
    if (s.wanted) return true;
    if (remote.state === 'credentials_expired' || remote.state === 'refused') return false;
    if (s.failures > 0) return now - s.lastRoundAt >= Math.min(interval, 30_000 * 2 ** (s.failures - 1));
    const seq = currentSeq(this.db, remote.teamId);
    if (seq !== s.lastSeq) {
      s.lastSeq = seq;
      s.lastChangeAt = now;
    }
    if (s.lastChangeAt > s.lastRoundAt && now - s.lastChangeAt >= (this.options.debounceMs ?? 10_000)) return true;
    return now - s.lastRoundAt >= interval;
  }

  private async pass(): Promise<void> {
    for (const remote of enabledRemotes(this.db)) {
      if (this.stopped) return;
      const s = this.state(remote.teamId);
      if (!this.due(remote, s)) continue;
      s.wanted = false;
      s.lastRoundAt = this.now();
      try {
        const singleTeam = isSingleTeam(this.db);
        const fromEnv = environmentToken(remote.baseUrl, this.options.credentials?.env ?? process.env, singleTeam);
        const store = fromEnv && 'token' in fromEnv ? undefined : await this.secretStore();
        const { credential } = await resolveCredential(remote.baseUrl, {
          ...this.options.credentials,
          store,
          account: remote.credentialRef,
          singleTeam,
          db: this.db,
        });
        await runRound({ db: this.db, remote, credential });
        s.failures = 0;
        // The round's own writes moved the feed: they are not local edits to sync again.
        s.lastSeq = currentSeq(this.db, remote.teamId);
      } catch (err) {
        if (err instanceof RoundBusy) continue;
        if (err instanceof NoCredential)
          setRemoteState(this.db, remote.id, { state: 'credentials_expired', lastError: err.message });
        s.failures = err instanceof NoCredential ? 0 : s.failures + 1;
        this.options.onError?.(err, remote.teamId);
      }
    }
  }
}
