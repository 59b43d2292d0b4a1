import type { OAuthGrant } from './credentials';
import {
  authorizationSecrets,
  authorizeUrl,
  type Endpoints,
  grantFromAnswer,
  listenForRedirect,
  SignInFailed,
} from './oauth-sign-in';
import { ForeignSignIn, UnknownSignIn } from './oauth-web-sign-in';

/**
 * Signing in to a sync remote from the desktop window's Sync screen (docs/decisions/0145-sync-screen.md, "OAuth
 * sign-in in the desktop window"): the window cannot show another site's page, so, as RFC 8252 asks of a native
 * app, the system browser opens the authorization URL and the answer comes back to a one-shot listener on
 * 127.0.0.1 that this server opens. The server exchanges the code itself (PKCE, state) and hands the grant on; the
 * screen follows the sign-in by its `state` until it is done, failed or cancelled. A sign-in belongs to the team
 * and the credential that started it; starting another one cancels the earlier one of the same credential, so at
 * most one listener per credential is open.
 */
export type LoopbackStatus = 'waiting' | 'done' | 'failed' | 'cancelled';

export interface LoopbackProgress {
  status: LoopbackStatus;
  /** Why it failed, said for people; null otherwise. */
  message: string | null;
}

interface Run {
  teamId: string;
  credentialId: string;
  progress: LoopbackProgress;
  close(): void;
  endedAt: number | null;
}

type Who = { teamId: string; credentialId: string };

/** How long the browser has to answer, and how long an ended sign-in can still be asked about. */
const TTL_MS = 10 * 60_000;

export class LoopbackSignIns {
  private readonly runs = new Map<string, Run>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Opens the listener (on `port`, 0 picks one) and answers the URL the browser must open; `connect` receives the
   * grant once the code is exchanged (it keeps it and connects the remote; a throw fails the sign-in).
   */
  async start(
    who: Who,
    request: { ends: Endpoints; clientId: string; scope?: string; port?: number },
    connect: (grant: OAuthGrant) => Promise<void>,
  ): Promise<{ state: string; authorizeUrl: string; redirectUri: string }> {
    this.sweep();
    for (const run of this.runs.values()) {
      if (run.teamId === who.teamId && run.credentialId === who.credentialId) this.end(run, 'cancelled', null);
    }
    const { verifier, challenge, state } = authorizationSecrets();
    const listener = await listenForRedirect(request.port ?? 0, TTL_MS);
    const redirectUri = `http://127.0.0.1:${listener.port}/callback`;
    const run: Run = { ...who, progress: { status: 'waiting', message: null }, close: listener.close, endedAt: null };
    this.runs.set(state, run);
    const { ends, clientId } = request;
    listener.result
      .then((answer) => grantFromAnswer(answer, { ends, state, redirectUri, clientId, verifier }, this.now))
      .then(connect)
      .then(
        () => this.end(run, 'done', null),
        (err: unknown) => {
          if (run.endedAt !== null) return; // cancelled: the listener's close ends the wait
          this.end(run, 'failed', err instanceof SignInFailed ? err.message : 'the sign-in could not be completed');
        },
      );
    return {
      state,
      authorizeUrl: authorizeUrl(ends, { clientId, redirectUri, challenge, state, scope: request.scope }),
      redirectUri,
    };
  }

  progress(state: string, who: Who): LoopbackProgress {
    this.sweep();
    return this.own(state, who).progress;
  }

  /** Stops waiting for the browser (a sign-in already ended keeps its outcome). */
  cancel(state: string, who: Who): LoopbackProgress {
    const run = this.own(state, who);
    if (run.endedAt === null) this.end(run, 'cancelled', null);
    return run.progress;
  }

  /** The server stops: every listener closes (a sign-in waiting for the browser ends as cancelled). */
  closeAll(): void {
    for (const run of this.runs.values()) this.end(run, 'cancelled', null);
  }

  private own(state: string, who: Who): Run {
    const run = this.runs.get(state);
    if (!run) throw new UnknownSignIn();
    if (run.teamId !== who.teamId || run.credentialId !== who.credentialId) throw new ForeignSignIn();
    return run;
  }

  private end(run: Run, status: LoopbackStatus, message: string | null): void {
    if (run.endedAt !== null) return;
    run.endedAt = this.now();
    run.progress = { status, message };
    run.close();
  }

  private sweep(): void {
    const now = this.now();
    for (const [state, run] of this.runs) if (run.endedAt !== null && run.endedAt + TTL_MS <= now) this.runs.delete(state);
  }
}
