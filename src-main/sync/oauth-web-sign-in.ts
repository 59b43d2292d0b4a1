import { type Endpoints, SignInFailed } from './oauth-sign-in';

/**
 * Signing in to a sync remote from the Sync screen (docs/decisions/0145-sync-screen.md, "OAuth sign-in"): the same
 * authorization code + PKCE flow as `finops sync connect --oauth`, with this server's
 * `/app/sync/oauth/callback` as the redirect. The PKCE verifier never leaves the server; the `state` names one
 * pending sign-in, is single-use, expires after ten minutes, and is tied to the team and the credential (the web
 * session) that started it: the remote's redirect reaches the callback without the session cookie (it is
 * SameSite=Strict), so the callback only hands the answer to the Sync screen, and the screen finishes it with the
 * session that started it. A code obtained for another person's sign-in cannot connect this team, and a code from
 * this sign-in cannot be finished by another session.
 */
export interface PendingSignIn {
  teamId: string;
  credentialId: string;
  baseUrl: string;
  kind?: 'finops' | 'hosted';
  clientId: string;
  redirectUri: string;
  verifier: string;
  ends: Endpoints;
  expiresAt: number;
}

const TTL_MS = 10 * 60_000;
/** At most this many sign-ins wait at once (each is a person's open browser tab). */
const MAX_PENDING = 100;

export class PendingSignIns {
  private readonly pending = new Map<string, PendingSignIn>();

  constructor(private readonly now: () => number = Date.now) {}

  add(state: string, signIn: Omit<PendingSignIn, 'expiresAt'>): void {
    this.sweep();
    if (this.pending.size >= MAX_PENDING) throw new SignInFailed('too many sign-ins are waiting; try again in a few minutes');
    this.pending.set(state, { ...signIn, expiresAt: this.now() + TTL_MS });
  }

  /** The pending sign-in of this state, once; refused for another team or credential than the one that started it. */
  take(state: string, who: { teamId: string; credentialId: string }): PendingSignIn {
    this.sweep();
    const p = this.pending.get(state);
    if (!p) throw new UnknownSignIn();
    if (p.teamId !== who.teamId || p.credentialId !== who.credentialId) throw new ForeignSignIn();
    this.pending.delete(state);
    return p;
  }

  private sweep(): void {
    const now = this.now();
    for (const [state, p] of this.pending) if (p.expiresAt <= now) this.pending.delete(state);
  }
}

export class UnknownSignIn extends Error {
  override name = 'UnknownSignIn';
  constructor() {
    super('This sign-in is unknown or has expired (ten minutes), or was finished already');
  }
}

export class ForeignSignIn extends Error {
  override name = 'ForeignSignIn';
  constructor() {
    super('This sign-in was started by another session');
  }
}
