/**
 * Messages between the desktop shell (Electron main) and the server host (the utility process that runs the v1
 * server). The shell starts the host, sends `start` once, and waits for `ready` or `failed`; `stop` asks for a
 * clean shutdown (in-flight requests finish, the database is checkpointed and closed) after which the host exits 0.
 *
 * Sync credentials: the shell owns the secret store (the keychain, or safeStorage, which exists only in Electron's
 * main process) while sync rounds run in the host, so the host asks for them (`secret`, answered by
 * `secret-reply`; secret-relay.ts), and the shell says when one was stored or removed (`credential-changed`) so a
 * team waiting for a credential is synced at once.
 *
 * The operator's settings (the app's user is its operator, docs/decisions/0176): the private addresses outbound
 * requests may reach go in `start` and, when the person changes them in Settings, in `operator-settings`, which the
 * host applies at once (private-hosts.ts, docs/decisions/0191).
 */
import type { SecretStorageKind } from '../../src-shared/desktop-bridge';

export interface StartRequest {
  type: 'start';
  dataDir: string;
  /** Port to listen on: 0 for a random free one; on a restart the previous port, so the window's origin survives. */
  port: number;
  /** The key from the keychain, if any; the host keeps it when still valid, else mints a new one. */
  apiKey: string | null;
  /** Folder of the built renderer to serve at `/`. */
  webRoot: string | null;
  /** Where the shell keeps the secrets the host asks for (for status reports). */
  secretStorage: SecretStorageKind;
  /** The private hosts saved in the app (the host adds `$FINOPS_ALLOW_PRIVATE_HOSTS`'s). */
  allowPrivateHosts: string[];
}

export interface OperatorSettingsRequest {
  type: 'operator-settings';
  allowPrivateHosts: string[];
}

export interface StopRequest {
  type: 'stop';
}

export interface SecretReply {
  type: 'secret-reply';
  id: number;
  /** get: the secret or null; set: null; delete: whether something was deleted. */
  value?: string | boolean | null;
  error?: string;
}

export interface CredentialChanged {
  type: 'credential-changed';
  baseUrl: string;
}

export type HostRequest = StartRequest | StopRequest | SecretReply | CredentialChanged | OperatorSettingsRequest;

export interface ReadyEvent {
  type: 'ready';
  url: string;
  apiKey: string;
  /** True when the key is new (the shell then stores it in the keychain). */
  keyCreated: boolean;
  teamId: string;
}

export interface FailedEvent {
  type: 'failed';
  message: string;
  /** False when a restart cannot help (the database is newer than the app, the data dir is not writable). */
  retryable: boolean;
}

/**
 * What the host is doing before the server can listen: `opening` the data dir (said before it starts, since the
 * backup of a database too large to check comes before any other word), then store/db.ts's OpenEvents (`checking`
 * the database, the `backup` made before a migration and where, each `migration` step before it runs, `migrated`),
 * then `listening` once the database is open. Each one starts the shell's ready timeout afresh; after `opening`,
 * `checking` and `migration` the host is inside synchronous SQLite work and cannot speak, so the shell allows it
 * much longer (supervisor.ts). The window shows them ("Updating the database (n of m)…", shell-page.ts).
 */
export interface ProgressEvent {
  type: 'progress';
  phase: 'opening' | 'checking' | 'backup' | 'migration' | 'migrated' | 'listening';
  /** One line for the person waiting, e.g. "migrating: step 1 of 2 (23 backups)". */
  message: string;
  /** The backup's path (phase backup). */
  path?: string;
  /** The step about to run, from 1, of how many (phase migration). */
  step?: number;
  steps?: number;
  /** Which migration that step is (phase migration), e.g. 29 `sync-conflict-rule-codes`. */
  version?: number;
  name?: string;
}

export interface SecretRequest {
  type: 'secret';
  id: number;
  op: 'get' | 'set' | 'delete';
  account: string;
  secret?: string;
}

export type HostEvent = ReadyEvent | FailedEvent | SecretRequest | ProgressEvent;

const typeOf = (value: unknown): unknown => (value as { type?: unknown } | null)?.type;

export function isHostRequest(value: unknown): value is HostRequest {
  const t = typeOf(value);
  return t === 'start' || t === 'stop' || t === 'secret-reply' || t === 'credential-changed' || t === 'operator-settings';
}

export function isHostEvent(value: unknown): value is HostEvent {
  const t = typeOf(value);
  return t === 'ready' || t === 'failed' || t === 'secret' || t === 'progress';
}
