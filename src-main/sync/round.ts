import crypto from 'node:crypto';
import type { Db } from '../store/db';
import { acquireLease, PROCESS_OWNER, releaseLease, renewLease } from '../store/leases';
import { type RoundSummary, type SyncRemote, setFoundKind, setRemoteState } from '../store/sync/remotes';
import { getTeam } from '../store/teams/teams';
import { capabilitiesOf } from './capabilities';
import { Progress, type ProgressListener, type RoundContext, type RoundCounts } from './context';
import { freezeLocalChanges } from './freeze';
import { relayInvoiceEmails } from './invoice-emails';
import { prefetchNaturalKeys } from './lookups';
import { pullFeed } from './pull';
import { type ClientOptions, type Credential, CredentialsRejected, ok, RemoteClient, RemoteUnavailable } from './remote-client';
import { sendOutbox } from './send';
import { pullWalks } from './walk';

/**
 * One full two-way sync round of a team with its remote (docs/decisions/0140-sync-engine.md):
 * 1. claim the team's sync lease (`sync:<team>`): a CLI round and a server's scheduled round never interleave;
 * 2. check that the credential's team on the remote keeps the same base currency (amounts are exact only within one);
 * 3. settle the creates a previous round froze and could not finish (same bytes, same keys; read back where the
 *    remote takes neither), so the pull knows our records there;
 * 4. pull: the remote's change feed (a Finops Desk server) or complete walks of its lists, merged three ways — the
 *    updates and deletes an earlier round froze are merged with what the remote holds now, never resent blind;
 * 5. freeze the local changes since the last push into the outbox, and send everything waiting;
 * 6. hand the invoice emails waiting for sync to the remote, which sends them (invoice-emails.ts).
 * Pull comes before push so that a field changed on both sides is met by the merge (and recorded as a conflict)
 * instead of being overwritten. Each commit checks the lease; a kill at any point loses nothing and repeats
 * nothing visible: cursors move with what they cover, pushes resend their frozen bytes with their keys. One change
 * the remote fails on waits for the next round without holding up the others (send.ts).
 */

export class RoundBusy extends Error {
  override name = 'RoundBusy';
}

export class BaseCurrencyMismatch extends Error {
  override name = 'BaseCurrencyMismatch';
}

export interface RoundOptions {
  db: Db;
  remote: SyncRemote;
  credential: Credential;
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  /** Lease time to live (default 60 s), renewed while the round runs. */
  leaseTtlMs?: number;
  /** Records per page of the remote's change feed (default 1000). */
  pageSize?: number;
  /** Retry and timeout settings of the HTTP client (tests shorten them). */
  client?: Partial<Omit<ClientOptions, 'baseUrl' | 'credential' | 'signal'>>;
}

export interface RoundResult extends RoundCounts {
  summary: RoundSummary;
}

export function leaseNameOf(teamId: string): string {
  return `sync:${teamId}`;
}

export async function runRound(options: RoundOptions): Promise<RoundResult> {
  const { db, remote } = options;
  const teamId = remote.teamId;
  const leaseName = leaseNameOf(teamId);
  const leaseOwner = `${PROCESS_OWNER}:sync:${crypto.randomBytes(3).toString('hex')}`;
  const leaseTtlMs = options.leaseTtlMs ?? 60_000;
  if (!acquireLease(db, leaseName, leaseTtlMs, { teamId, owner: leaseOwner })) {
    throw new RoundBusy('another sync round of this team is running (the server or another command); it will be done shortly');
  }
  // The lease outlives slow answers: renewed in the background too, not only at each commit.
  const keepAlive = setInterval(
    () => renewLease(db, leaseName, leaseTtlMs, { owner: leaseOwner }),
    Math.max(1000, leaseTtlMs / 3),
  );
  keepAlive.unref();
  const counts: RoundCounts = { pulled: 0, pushed: 0, conflicts: 0, failed: 0, byEntity: {} };
  setRemoteState(db, remote.id, {
    state: 'running',
    roundStartedAt: new Date().toISOString(),
    progress: { phase: 'starting', done: 0, total: 0 },
  });
  try {
    const client = new RemoteClient({
      ...options.client,
      baseUrl: remote.baseUrl,
      credential: options.credential,
      signal: options.signal,
    });
    const ctx: RoundContext = {
      db,
      teamId,
      remote,
      caps: capabilitiesOf(remote.kind),
      client,
      leaseName,
      leaseOwner,
      leaseTtlMs,
      counts,
      progress: new Progress(db, remote.id, options.onProgress),
      cache: new Map(),
      pageSize: options.pageSize ?? 1000,
      signal: options.signal,
      failedEntries: new Set(),
      pulled: false,
    };
    await checkBaseCurrency(ctx);
    await checkKind(ctx);
    await sendOutbox(ctx, ['create']);
    await pull(ctx);
    ctx.pulled = true;
    ctx.progress.set('push', 0, 0);
    await prefetchNaturalKeys(ctx);
    freezeLocalChanges(ctx);
    await sendOutbox(ctx);
    await relayInvoiceEmails(ctx);
    const summary: RoundSummary = {
      pulled: counts.pulled,
      pushed: counts.pushed,
      conflicts: counts.conflicts,
      ...(counts.failed > 0 ? { failed: counts.failed } : {}),
      finishedAt: new Date().toISOString(),
    };
    setRemoteState(db, remote.id, {
      state: 'idle',
      lastError: null,
      lastSuccessAt: summary.finishedAt,
      lastSummary: summary,
      roundStartedAt: null,
      progress: { phase: 'done', done: ctx.progress.total, total: ctx.progress.total },
    });
    return { ...counts, summary };
  } catch (err) {
    const state =
      err instanceof CredentialsRejected ? 'credentials_expired' : err instanceof BaseCurrencyMismatch ? 'refused' : 'failed';
    setRemoteState(db, remote.id, { state, lastError: err instanceof Error ? err.message : String(err), roundStartedAt: null });
    throw err;
  } finally {
    clearInterval(keepAlive);
    releaseLease(db, leaseName, { owner: leaseOwner });
  }
}

/**
 * The remote's kind, where nobody chose it (docs/decisions/0180-remote-kind-probe.md): one request for one change
 * of its feed (`GET /sync/changes?limit=1`, a Finops Desk extension) before a first round, and every round while it
 * is walked (a server that gained its feed is read by it from then on). 200: a Finops Desk server; 404: a remote
 * without a feed (the hosted service, a `--spec-only` server), walked list by list; any other answer decides
 * nothing. The kind found is stored. A kind someone chose (`--kind`, the Sync screen) is kept as chosen.
 */
async function checkKind(ctx: RoundContext): Promise<void> {
  const { remote } = ctx;
  if (remote.kindSource === 'chosen' || (remote.kind === 'finops' && remote.lastSuccessAt)) return;
  let res: Awaited<ReturnType<RemoteClient['request']>>;
  try {
    res = await ctx.client.request('GET', '/sync/changes', { query: { since: 0, limit: 1 } });
  } catch (err) {
    // A walked remote failing on a path it does not serve decides nothing; a first round's pull meets it.
    if (remote.kind === 'hosted' && err instanceof RemoteUnavailable) return;
    throw err;
  }
  if (res.status === 404) switchKind(ctx, 'hosted');
  else if (ok(res.status) && Array.isArray((res.body as { data?: unknown } | null)?.data)) switchKind(ctx, 'finops');
}

/**
 * The pull: the change feed, or walks. A found Finops Desk remote whose feed is gone (started with `--spec-only`
 * since) is walked from this round on; a chosen one stops the round with what to do.
 */
async function pull(ctx: RoundContext): Promise<void> {
  if (!ctx.caps.feed) {
    await pullWalks(ctx);
    return;
  }
  if ((await pullFeed(ctx)) !== false) return;
  if (ctx.remote.kindSource === 'chosen') {
    throw new RemoteUnavailable(
      'GET /sync/changes answered 404: the remote has no change feed, so it is not a Finops Desk server with its extensions (connect it again without a kind, or as the hosted kind, to walk its lists)',
    );
  }
  switchKind(ctx, 'hosted');
  await pullWalks(ctx);
}

function switchKind(ctx: RoundContext, kind: SyncRemote['kind']): void {
  setFoundKind(ctx.db, ctx.remote.id, kind);
  ctx.remote = { ...ctx.remote, kind, kindSource: 'found' };
  ctx.caps = capabilitiesOf(kind);
}

/** Why two teams of different base currencies cannot sync (a round's error, the connection test's reason). */
export function baseCurrencyMismatch(remote: string, local: string): string {
  return `the remote team keeps its books in ${remote}, this one in ${local}: syncing would mix amounts of two base currencies. Set both teams to the same base currency first.`;
}

/**
 * Every round checks the remote team the credential belongs to keeps this team's base currency (it may change
 * there). `GET /teams` lists the teams the credential sees: the one found before, else the only one; a credential
 * that sees several teams names none of them, and is refused rather than guessed.
 */
async function checkBaseCurrency(ctx: RoundContext): Promise<void> {
  const res = await ctx.client.request<{ data?: { id: string; baseCurrency?: string; countryCode?: string | null }[] }>(
    'GET',
    '/teams',
  );
  const teams = ok(res.status) && Array.isArray(res.body?.data) ? res.body.data : undefined;
  if (!teams) throw new RemoteUnavailable(`GET /teams answered ${res.status}: cannot tell which team the credential belongs to`);
  const known = ctx.remote.remoteTeamId;
  const team = known ? teams.find((t) => t.id === known) : teams.length === 1 ? teams[0] : undefined;
  if (!team) {
    throw new BaseCurrencyMismatch(
      known
        ? `the credential no longer sees the remote team ${known} this team syncs with: connect again with a credential of that team`
        : `the credential sees ${teams.length} teams on the remote: use a credential (an API key) of the one team to sync with`,
    );
  }
  const local = getTeam(ctx.db, ctx.teamId);
  if (team.baseCurrency && local && team.baseCurrency !== local.baseCurrency) {
    throw new BaseCurrencyMismatch(baseCurrencyMismatch(team.baseCurrency, local.baseCurrency));
  }
  ctx.remoteTeam = team;
  if (!known) {
    setRemoteState(ctx.db, ctx.remote.id, { remoteTeamId: team.id });
    ctx.remote = { ...ctx.remote, remoteTeamId: team.id };
  }
}
