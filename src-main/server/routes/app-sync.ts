import type { FastifyInstance } from 'fastify';
import { appSyncRoutes, type SyncConflictInfo, type SyncStatusBody, syncStanding } from '../../../src-shared/contract/app-sync';
import { processSecretStore, type SecretStore, secretAccounts } from '../../infra/secret-store';
import { backgroundOf } from '../../runtime/background';
import type { Db } from '../../store/db';
import { Conflict, InvalidReference, NotFound } from '../../store/errors';
import { leaseHolder } from '../../store/leases';
import { listConflicts, type SyncConflict } from '../../store/sync/conflicts';
import {
  ensureRemote,
  normalizeBaseUrl,
  RemoteTaken,
  removeRemote,
  type SyncRemote,
  setRemoteState,
  teamRemote,
} from '../../store/sync/remotes';
import { syncStatus } from '../../store/sync/status';
import { isSingleTeam } from '../../store/teams/teams';
import { getMembership } from '../../store/users/users';
import { testConnection } from '../../sync/connection-test';
import { environmentToken, NoCredential, type OAuthGrant, remoteCredential, staticCredential } from '../../sync/credentials';
import { LoopbackSignIns } from '../../sync/oauth-loopback-sign-in';
import { authorizationSecrets, authorizeUrl, endpoints, exchangeCode, SignInFailed } from '../../sync/oauth-sign-in';
import { ForeignSignIn, type PendingSignIn, PendingSignIns, UnknownSignIn } from '../../sync/oauth-web-sign-in';
import { isNetworkFailure, type Credential as RemoteCredential } from '../../sync/remote-client';
import { resolveConflict } from '../../sync/resolve';
import { leaseNameOf, RoundBusy, runRound } from '../../sync/round';
import type { SchedulerOptions } from '../../sync/scheduler';
import type { Credential } from '../auth/credentials';
import { ApiError, conflict, forbidden, notFound, unprocessable } from '../errors';
import { registerRoute } from '../route';

/**
 * The Sync screen's API under /app (contract/app-sync.ts, docs/decisions/0145-sync-screen.md). The credential a
 * person enters is kept in this process's secret store — the OS keychain, or memory until the server stops when the
 * machine has none — under an entry of the team (`credentialRef`), shared with the scheduler; never in SQLite, never
 * in a log, never answered back. Without a scheduler (a server started without background sync), "sync now" runs
 * the round here, after the answer, and the app waits for it when it closes.
 */
export interface AppSyncOptions {
  db: Db;
  /** The server's sync settings: where credentials come from (the scheduler reads the same). */
  sync?: false | SchedulerOptions;
  /**
   * The server serves the desktop window (its own host only): an OAuth sign-in may wait for the system browser's
   * answer on a loopback listener of this machine. Never on `finops serve`, where the person's browser is elsewhere.
   */
  loopbackSignIn?: boolean;
}

export async function appSyncRoutesPlugin(app: FastifyInstance, opts: AppSyncOptions): Promise<void> {
  const { db } = opts;
  const settings = opts.sync || undefined;
  const env = () => settings?.credentials?.env ?? process.env;
  const secrets = (): Promise<SecretStore> =>
    settings?.secretStore ? Promise.resolve(settings.secretStore) : processSecretStore().then((o) => o.store);
  const rounds = runsHere(app, db);

  /** Where a round would take the credential from, without reading more than whether there is one. */
  async function credentialOf(remote: SyncRemote | undefined): Promise<SyncStatusBody['credential']> {
    if (!remote) return { present: false, from: null };
    const fromEnv = environmentToken(remote.baseUrl, env(), isSingleTeam(db));
    if (fromEnv && 'token' in fromEnv) return { present: true, from: 'environment' };
    const store = await secrets();
    return (await store.get(accountOf(remote))) ? { present: true, from: store.kind } : { present: false, from: null };
  }

  async function statusOf(auth: Credential): Promise<SyncStatusBody> {
    const s = syncStatus(db, auth.teamId);
    const remote = s.remote ? remoteView(db, s.remote) : null;
    return {
      remote,
      online: !(remote?.state === 'failed' && isNetworkFailure(remote.lastError)),
      pendingChanges: s.pendingChanges,
      openConflicts: s.openConflicts,
      // From the view: a round whose process ended reads as failed there, so it does here too.
      standing: syncStanding(remote, s.openConflicts),
      credential: await credentialOf(s.remote ?? undefined),
      secretStorage: (await secrets()).kind,
      scheduled: Boolean(backgroundOf(db)?.sync),
      canManage: mayManage(db, auth),
    };
  }

  const admin = (auth: Credential) => {
    if (!mayManage(db, auth)) {
      throw forbidden(
        'Only an owner of the team may change how it syncs',
        auth.userId
          ? 'Ask an owner of the team to connect the remote, sync or resolve conflicts.'
          : 'A credential without a person needs the apis.all scope for team administration.',
      );
    }
  };

  const remoteOf = (teamId: string): SyncRemote => {
    const remote = teamRemote(db, teamId);
    if (!remote) throw conflict('This team has no remote yet', 'Connect one first: PUT /app/sync/remote with its base URL.');
    return remote;
  };

  registerRoute(app, appSyncRoutes.status, ({ auth }) => statusOf(auth));

  registerRoute(app, appSyncRoutes.putRemote, ({ auth, body }) => {
    admin(auth);
    try {
      ensureRemote(db, auth.teamId, {
        baseUrl: body.baseUrl,
        kind: body.kind,
        name: body.name,
        authKind: 'api_key',
        credentialRef: secretAccounts.teamSyncToken(auth.teamId, normalizeBaseUrl(body.baseUrl)),
      });
    } catch (err) {
      if (err instanceof RemoteTaken) throw conflict(err.message, 'DELETE /app/sync/remote disconnects the current one.');
      throw err;
    }
    return statusOf(auth);
  });

  registerRoute(app, appSyncRoutes.deleteRemote, async ({ auth }) => {
    admin(auth);
    const remote = teamRemote(db, auth.teamId);
    if (!remote) throw notFound('This team has no remote');
    if (isRunning(db, remote)) throw conflict('A sync round is running', 'Disconnect when it has ended.');
    removeRemote(db, auth.teamId, remote.id);
    if (remote.credentialRef) await (await secrets()).delete(remote.credentialRef);
    return statusOf(auth);
  });

  registerRoute(app, appSyncRoutes.putCredential, async ({ auth, body }) => {
    admin(auth);
    const remote = remoteOf(auth.teamId);
    await (await secrets()).set(accountOf(remote), body.apiKey);
    // A round that stopped for want of a credential may go again.
    if (remote.state === 'credentials_expired') setRemoteState(db, remote.id, { state: 'idle', lastError: null });
    return statusOf(auth);
  });

  registerRoute(app, appSyncRoutes.test, async ({ auth, body }) => {
    admin(auth);
    let token = body.apiKey;
    if (!token) {
      const remote = teamRemote(db, auth.teamId);
      if (remote && remote.baseUrl === normalizeBaseUrl(body.baseUrl)) token = await keptToken(remote);
      if (!token) throw unprocessable('Enter the API key to test', 'No credential is kept for this address yet.');
    }
    return testConnection(db, auth.teamId, body.baseUrl, staticCredential(token));
  });

  registerRoute(app, appSyncRoutes.syncNow, async ({ auth }) => {
    admin(auth);
    const remote = remoteOf(auth.teamId);
    if (!(await credentialOf(remote)).present) {
      throw conflict('No credential for the remote', 'Enter an API key of the remote first (PUT /app/sync/credential).');
    }
    const scheduler = backgroundOf(db)?.sync;
    if (scheduler) scheduler.syncNow(auth.teamId);
    else {
      rounds.start(
        remote,
        await remoteCredential(remote, { credentials: { env: env() }, secretStore: await secrets() }, isSingleTeam(db), db),
      );
    }
    return statusOf(auth);
  });

  // OAuth sign-in from the screen (docs/decisions/0145-sync-screen.md, "OAuth sign-in").
  const signIns = new PendingSignIns();

  const loopbackSignIns = new LoopbackSignIns();
  app.addHook('onClose', async () => loopbackSignIns.closeAll());
  const whoOf = (auth: Credential) => ({ teamId: auth.teamId, credentialId: auth.id });

  registerRoute(app, appSyncRoutes.oauthStart, async ({ auth, body, request }) => {
    admin(auth);
    const baseUrl = normalizeBaseUrl(body.baseUrl);
    if (body.redirect === 'loopback') {
      if (!opts.loopbackSignIn) {
        throw forbidden(
          'A loopback sign-in is only for the desktop window',
          'The browser that signs in is not on this server’s machine; use the web sign-in (redirect: web).',
        );
      }
      notOtherRemote(auth.teamId, baseUrl);
      const ends = await endpoints(baseUrl);
      const { kind, clientId } = body;
      try {
        return await loopbackSignIns.start(whoOf(auth), { ends, clientId, scope: body.scope, port: body.port }, (grant) =>
          connectWithGrant(auth.teamId, { baseUrl, kind, clientId }, grant).catch((err: unknown) => {
            // Said to the person by the sign-in's progress, as the remote's refusals are.
            throw err instanceof ApiError ? new SignInFailed(err.message) : err;
          }),
        );
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE')
          throw conflict(`Port ${body.port} is taken on this machine`, 'Close what uses it, or sign in again later.');
        throw err;
      }
    }
    if (body.port !== undefined)
      throw unprocessable('A port is only for a loopback sign-in', 'Leave out port, or ask for redirect: loopback.');
    const ends = await endpoints(baseUrl);
    const { verifier, challenge, state } = authorizationSecrets();
    const redirectUri = `${request.protocol}://${request.host}/app/sync/oauth/callback`;
    try {
      signIns.add(state, {
        teamId: auth.teamId,
        credentialId: auth.id,
        baseUrl,
        kind: body.kind,
        clientId: body.clientId,
        redirectUri,
        verifier,
        ends,
      });
    } catch (err) {
      if (err instanceof SignInFailed) throw new ApiError(429, 'Too Many Requests', err.message, 'Try again in a few minutes.');
      throw err;
    }
    return {
      authorizeUrl: authorizeUrl(ends, { clientId: body.clientId, redirectUri, challenge, state, scope: body.scope }),
      redirectUri,
      state,
    };
  });

  /** A loopback sign-in's progress, for the credential that started it. */
  const followed = (auth: Credential, state: string, step: 'progress' | 'cancel') => {
    admin(auth);
    try {
      return loopbackSignIns[step](state, whoOf(auth));
    } catch (err) {
      if (err instanceof UnknownSignIn) throw notFound(err.message, 'Start the sign-in again from the Sync screen.');
      if (err instanceof ForeignSignIn) throw forbidden(err.message, 'Follow it in the window where it was started.');
      throw err;
    }
  };
  registerRoute(app, appSyncRoutes.oauthProgress, ({ auth, params }) => followed(auth, params.state, 'progress'));
  registerRoute(app, appSyncRoutes.oauthCancel, ({ auth, params }) => followed(auth, params.state, 'cancel'));

  registerRoute(app, appSyncRoutes.oauthCallback, ({ query, reply }) => {
    // Only the answer's own fields travel on, to the screen that finishes the sign-in with its session.
    const answer = new URLSearchParams();
    for (const k of ['state', 'code', 'error', 'error_description'] as const) {
      const v = query[k];
      if (v) answer.set(`oauth_${k}`, v);
    }
    return reply.redirect(`/sync?${answer}`, 303);
  });

  registerRoute(app, appSyncRoutes.oauthFinish, async ({ auth, body }) => {
    admin(auth);
    let pending: PendingSignIn;
    try {
      pending = signIns.take(body.state, { teamId: auth.teamId, credentialId: auth.id });
    } catch (err) {
      if (err instanceof UnknownSignIn) throw unprocessable(err.message, 'Start the sign-in again from the Sync screen.');
      if (err instanceof ForeignSignIn) throw forbidden(err.message, 'Finish it in the window where it was started.');
      throw err;
    }
    notOtherRemote(auth.teamId, pending.baseUrl);
    let grant: OAuthGrant;
    try {
      grant = await exchangeCode(pending.ends, {
        code: body.code,
        redirectUri: pending.redirectUri,
        clientId: pending.clientId,
        verifier: pending.verifier,
      });
    } catch (err) {
      if (err instanceof SignInFailed)
        throw conflict(`The remote did not complete the sign-in: ${err.message}`, 'Sign in again.');
      throw err;
    }
    await connectWithGrant(auth.teamId, pending, grant);
    return statusOf(auth);
  });

  function notOtherRemote(teamId: string, baseUrl: string): void {
    const current = teamRemote(db, teamId);
    if (current && current.baseUrl !== baseUrl) {
      throw conflict('This team syncs with another remote', 'DELETE /app/sync/remote disconnects the current one.');
    }
  }

  /** Keeps a signed-in grant in the secret store and connects (or reconnects) the team's remote with it. */
  async function connectWithGrant(
    teamId: string,
    signIn: { baseUrl: string; kind?: PendingSignIn['kind']; clientId: string },
    grant: OAuthGrant,
  ): Promise<void> {
    notOtherRemote(teamId, signIn.baseUrl);
    const account = secretAccounts.teamSyncToken(teamId, signIn.baseUrl);
    // The grant is kept before the remote names it, so a round never finds a remote without its credential.
    await (await secrets()).set(account, JSON.stringify(grant));
    const remote = ensureRemote(db, teamId, {
      baseUrl: signIn.baseUrl,
      kind: signIn.kind,
      authKind: 'oauth',
      credentialRef: account,
      oauthClientId: signIn.clientId,
    });
    if (remote.state === 'credentials_expired') setRemoteState(db, remote.id, { state: 'idle', lastError: null });
  }

  registerRoute(app, appSyncRoutes.conflicts, ({ auth, query }) => ({
    data: listConflicts(db, auth.teamId, { all: query.all }).map(conflictInfo),
  }));

  registerRoute(app, appSyncRoutes.resolve, ({ auth, params, body }) => {
    admin(auth);
    return conflictInfo(resolveConflict(db, auth.teamId, params.id, body.take));
  });

  registerRoute(app, appSyncRoutes.resolveMany, ({ auth, body }) => {
    admin(auth);
    const resolved: SyncConflictInfo[] = [];
    const failed: { id: string; message: string }[] = [];
    for (const id of new Set(body.ids)) {
      try {
        resolved.push(conflictInfo(resolveConflict(db, auth.teamId, id, body.take)));
      } catch (err) {
        // What a person would be told one by one; anything else is the server's fault and answers as such.
        if (!(err instanceof NotFound || err instanceof Conflict || err instanceof InvalidReference)) throw err;
        failed.push({ id, message: err.message });
      }
    }
    return { resolved, failed };
  });

  async function keptToken(remote: SyncRemote): Promise<string | undefined> {
    try {
      const credential = await remoteCredential(
        remote,
        { credentials: { env: env() }, secretStore: await secrets() },
        isSingleTeam(db),
        db,
      );
      return await credential.token();
    } catch (err) {
      if (err instanceof NoCredential) return undefined;
      throw err;
    }
  }
}

/** The keychain entry of a remote's credential: the team's own one (set by the app), else the remote server's. */
function accountOf(remote: SyncRemote): string {
  return remote.credentialRef ?? secretAccounts.syncToken(remote.baseUrl);
}

/**
 * Team administration: a person must be an owner of the team; a credential without a person (an API key, a
 * client's token) must be granted `apis.all`. A session holds every scope, so scopes alone cannot tell.
 */
export function mayManage(db: Db, auth: Credential): boolean {
  if (auth.userId) return getMembership(db, auth.teamId, auth.userId)?.role === 'owner';
  return auth.granted.includes('apis.all');
}

/** A round is running while its lease is held: a process killed mid-round leaves `running` behind, not a lease. */
function isRunning(db: Db, remote: SyncRemote): boolean {
  if (remote.state !== 'running') return false;
  const lease = leaseHolder(db, leaseNameOf(remote.teamId));
  return lease !== undefined && lease.expiresAt > new Date().toISOString();
}

function remoteView(db: Db, r: SyncRemote): NonNullable<SyncStatusBody['remote']> {
  const interrupted = r.state === 'running' && !isRunning(db, r);
  return {
    id: r.id,
    name: r.name,
    baseUrl: r.baseUrl,
    kind: r.kind,
    kindSource: r.kindSource,
    remoteTeamId: r.remoteTeamId,
    state: interrupted ? 'failed' : r.state,
    lastSuccessAt: r.lastSuccessAt,
    lastError: interrupted ? 'The last round was interrupted (its process ended); the next round resumes it.' : r.lastError,
    lastSummary: r.lastSummary,
    roundStartedAt: interrupted ? null : r.roundStartedAt,
    progress: r.progress,
  };
}

function conflictInfo(c: SyncConflict): SyncConflictInfo {
  return {
    id: c.id,
    entity: c.entity,
    recordId: c.localId,
    kind: c.kind,
    group: c.group,
    fields: c.fields,
    base: c.base,
    local: c.local,
    remote: c.remote,
    rule: c.rule,
    ruleCode: c.ruleCode,
    ruleParams: c.ruleParams,
    kept: c.winner,
    createdAt: c.createdAt,
    resolvedAt: c.resolvedAt,
    took: c.resolvedAt ? (c.outcome === 'kept_local' ? 'local' : 'remote') : null,
  };
}

/**
 * Rounds this app runs itself (no scheduler in the process): one per team at a time, after the answer; they stop
 * when the app closes (a round is resumable) and the app waits for them, so the database outlives them.
 */
function runsHere(app: FastifyInstance, db: Db) {
  const running = new Map<string, Promise<void>>();
  const closing = new AbortController();
  app.addHook('onClose', async () => {
    closing.abort(new Error('the server stopped during the round; the next round resumes it'));
    await Promise.allSettled(running.values());
  });
  return {
    start(remote: SyncRemote, credential: RemoteCredential): void {
      if (running.has(remote.teamId)) return;
      const round = runRound({ db, remote, credential, signal: closing.signal })
        .then(
          () => undefined,
          (err) => {
            // The outcome is in the remote's state for the status; a busy lease means another round is at it.
            if (!(err instanceof RoundBusy))
              app.log.warn({ teamId: remote.teamId, err: (err as Error).message }, 'sync round failed');
          },
        )
        .finally(() => running.delete(remote.teamId));
      running.set(remote.teamId, round);
    },
  };
}
