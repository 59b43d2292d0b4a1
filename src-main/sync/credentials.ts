import { openSecretStore, processSecretStore, type SecretStore, secretAccounts } from '../infra/secret-store';
import { outboundFetch } from '../outbound/fetch';
import { environmentSecretUse, httpTarget } from '../outbound/secret-binding';
import type { Db } from '../store/db';
import type { SyncRemote } from '../store/sync/remotes';
import { type RefreshTurns, refreshTurns } from './refresh-turns';
import type { Credential } from './remote-client';

/**
 * Where a round's credential for a remote comes from (docs/decisions/0140-sync-engine.md), never from SQLite or a
 * log: a command's `--token`, else `$FINOPS_REMOTE_TOKEN`, else the OS keychain (keytar; the desktop app keeps it
 * there). A keychain entry holds an API key, or an OAuth grant as JSON (access and refresh token, expiry, client id
 * and token URL): its access token is refreshed when it expires or the remote answers 401, one process at a time
 * (refresh-turns.ts: a lease per keychain entry, the entry read again inside it), and the new tokens are saved to
 * the keychain before they are used (a rotating refresh token must never be lost between its use and its storage).
 * `$FINOPS_REMOTE_TOKEN` is the operator's: it is used only for the host `$FINOPS_REMOTE_TOKEN_HOST` names, or by a
 * data dir of a single team (outbound/secret-binding.ts) — never for a remote another team chose. An OAuth grant is
 * refreshed only at a token endpoint on the remote's own origin.
 */
export class NoCredential extends Error {
  override name = 'NoCredential';
}

export interface OAuthGrant {
  kind: 'oauth';
  accessToken: string;
  refreshToken: string | null;
  /** Epoch ms. */
  expiresAt: number;
  clientId: string;
  tokenUrl: string;
}

export function parseStoredSecret(secret: string): { kind: 'api_key'; token: string } | OAuthGrant {
  if (secret.startsWith('{')) {
    try {
      const g = JSON.parse(secret) as Partial<OAuthGrant>;
      if (
        g.kind === 'oauth' &&
        typeof g.accessToken === 'string' &&
        typeof g.tokenUrl === 'string' &&
        typeof g.clientId === 'string'
      ) {
        return {
          kind: 'oauth',
          accessToken: g.accessToken,
          refreshToken: g.refreshToken ?? null,
          expiresAt: Number(g.expiresAt ?? 0),
          clientId: g.clientId,
          tokenUrl: g.tokenUrl,
        };
      }
    } catch {
      // not JSON: an API key that happens to start with a brace
    }
  }
  return { kind: 'api_key', token: secret };
}

export function staticCredential(token: string): Credential {
  return { token: async () => token };
}

/**
 * An OAuth grant kept in a secret store: refreshed when it expires (a minute early) or after a 401. With `turns`,
 * refreshes take turns with every other process on the data dir; inside its turn the credential first reads the
 * store again, and a grant saved there meanwhile (another process refreshed, or the person signed in again) is
 * taken instead of spending a refresh token that is no longer the live one.
 */
export function oauthCredential(
  store: SecretStore,
  account: string,
  grant: OAuthGrant,
  now: () => number = Date.now,
  /** The remote's origin: a refresh token is sent to a token endpoint there only. */
  origin?: string,
  turns?: RefreshTurns,
): Credential {
  let current = grant;
  const fresh = (g: OAuthGrant) => g.expiresAt - 60_000 > now();
  /** `rejected`: the access token the remote refused (a 401), or undefined when refreshing an expired one. */
  const refreshNow = async (rejected: string | undefined): Promise<boolean> => {
    const stored = await storedGrant(store, account);
    if (stored && stored.accessToken !== current.accessToken) {
      current = stored;
      if (fresh(stored) && stored.accessToken !== rejected) return true;
    }
    if (!current.refreshToken) return false;
    if (origin !== undefined && !sameOrigin(current.tokenUrl, origin)) return false;
    const { res, t } = await postTokenForm(current.tokenUrl, {
      grant_type: 'refresh_token',
      refresh_token: current.refreshToken,
      client_id: current.clientId,
    });
    if (!res.ok || !t.access_token) return false;
    const next: OAuthGrant = {
      ...current,
      accessToken: t.access_token,
      refreshToken: t.refresh_token ?? current.refreshToken,
      expiresAt: now() + (t.expires_in ?? 3600) * 1000,
    };
    // Saved before it is used: the old refresh token is spent once the remote rotated it.
    await store.set(account, JSON.stringify(next));
    current = next;
    return true;
  };
  const refresh = (rejected: string | undefined) => (turns ? turns.take(() => refreshNow(rejected)) : refreshNow(rejected));
  return {
    async token() {
      if (!fresh(current)) await refresh(undefined);
      return current.accessToken;
    },
    refresh: () => refresh(current.accessToken),
  };
}

async function storedGrant(store: SecretStore, account: string): Promise<OAuthGrant | undefined> {
  const secret = await store.get(account);
  if (!secret) return undefined;
  const parsed = parseStoredSecret(secret);
  return parsed.kind === 'oauth' ? parsed : undefined;
}

/** The token endpoint's answer (RFC 6749 §5). */
export interface TokenAnswer {
  access_token?: string;
  refresh_token?: string;
  expires_in?: number;
  error?: string;
  error_description?: string;
}

function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

/**
 * A form POST to an OAuth token endpoint (a code exchange, a refresh), through the outbound policy (no redirect
 * followed, 64 KiB read); a body that is not JSON reads as empty.
 */
export async function postTokenForm(
  url: string,
  form: Record<string, string>,
): Promise<{ res: { ok: boolean; status: number }; t: TokenAnswer }> {
  const res = await outboundFetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(form),
    maxBytes: 64 * 1024,
    signal: AbortSignal.timeout(30_000),
  });
  let t: TokenAnswer = {};
  try {
    t = JSON.parse(await res.text()) as TokenAnswer;
  } catch {
    // not JSON (or too large): no token
  }
  return { res: { ok: res.ok, status: res.status }, t };
}

export interface CredentialSources {
  /** `--token` */
  token?: string;
  env?: NodeJS.ProcessEnv;
  /** The keychain; opened on demand when not given. */
  store?: SecretStore;
  /**
   * The keychain entry to read (a remote's `credentialRef`, set when the app keeps a team's key); default the entry
   * of the remote's server (`secretAccounts.syncToken`).
   */
  account?: string | null;
  /** Whether the data dir holds one team only (`$FINOPS_REMOTE_TOKEN` without a bound host serves only such a one). */
  singleTeam?: boolean;
  /** The data dir's database: an OAuth grant's refreshes take turns with the other processes on it. */
  db?: Db;
}

export const REMOTE_TOKEN_ENV = { secret: 'FINOPS_REMOTE_TOKEN', binding: 'FINOPS_REMOTE_TOKEN_HOST' } as const;

/** `$FINOPS_REMOTE_TOKEN` when it may be sent to this remote, else why not (undefined when none is set). */
export function environmentToken(
  baseUrl: string,
  env: NodeJS.ProcessEnv,
  singleTeam: boolean,
): { token: string } | { ignored: string } | undefined {
  const token = env[REMOTE_TOKEN_ENV.secret];
  if (!token) return undefined;
  const use = environmentSecretUse(env, REMOTE_TOKEN_ENV, httpTarget(baseUrl), singleTeam);
  return use.use ? { token } : { ignored: use.reason };
}

/** The credential for a remote: the flag, the environment, or the keychain, in that order. */
export async function resolveCredential(
  baseUrl: string,
  sources: CredentialSources = {},
): Promise<{ credential: Credential; from: string }> {
  if (sources.token) return { credential: staticCredential(sources.token), from: '--token' };
  const fromEnv = environmentToken(baseUrl, sources.env ?? process.env, sources.singleTeam ?? false);
  if (fromEnv && 'token' in fromEnv) return { credential: staticCredential(fromEnv.token), from: '$FINOPS_REMOTE_TOKEN' };
  const store = sources.store ?? (await openSecretStore()).store;
  const account = sources.account ?? secretAccounts.syncToken(baseUrl);
  const secret = await store.get(account);
  if (!secret) {
    throw new NoCredential(
      `no credential for ${baseUrl}: pass --token, set $FINOPS_REMOTE_TOKEN, or store one in the keychain (finops sync connect)${
        fromEnv && 'ignored' in fromEnv ? ` (${fromEnv.ignored})` : ''
      }`,
    );
  }
  const parsed = parseStoredSecret(secret);
  if (parsed.kind === 'api_key') return { credential: staticCredential(parsed.token), from: 'keychain' };
  const turns = sources.db ? refreshTurns(sources.db, account) : undefined;
  return {
    credential: oauthCredential(store, account, parsed, Date.now, new URL(baseUrl).origin, turns),
    from: 'keychain (OAuth)',
  };
}

/** Where a server finds its teams' remote credentials: its sync settings (tests give an environment or a store). */
export interface ServerCredentialSources {
  credentials?: { env?: NodeJS.ProcessEnv };
  secretStore?: SecretStore;
}

/**
 * The credential of a team's remote as the server's routes use it: `$FINOPS_REMOTE_TOKEN`, else the entry the team's
 * credential was kept under (`credentialRef`, set by the Sync screen) in the process's secret store — the one the
 * sync scheduler reads, so a key entered once serves rounds and relayed calls alike. NoCredential when none is kept.
 */
export async function remoteCredential(
  remote: SyncRemote,
  sources: ServerCredentialSources = {},
  singleTeam = false,
  db?: Db,
): Promise<Credential> {
  const { credential } = await resolveCredential(remote.baseUrl, {
    singleTeam,
    db,
    env: sources.credentials?.env ?? process.env,
    store: sources.secretStore ?? (await processSecretStore()).store,
    account: remote.credentialRef ?? secretAccounts.syncToken(remote.baseUrl),
  });
  return credential;
}
