/**
 * Secrets of the desktop app — the local server's API key and remote sync tokens — kept in the OS keychain
 * (Keychain on macOS, Credential Vault on Windows, the Secret Service on Linux) through keytar, which the CLI reads
 * too (docs/decisions/0042-desktop-secrets.md).
 *
 * `openSecretStore` probes the keychain once. When keytar does not load or answer, the caller's fallback serves
 * (the desktop app: secrets encrypted by Electron's safeStorage in a file of its own, encrypted-file-store.ts);
 * without one, a `session-only` store keeps secrets in memory until quit, so the local key is minted again on the
 * next launch (see desktop-key.ts) and a sync token must be entered again. Secrets are never written in clear.
 */
import path from 'node:path';
import type { SecretStorageKind } from '../../src-shared/desktop-bridge';

export const KEYCHAIN_SERVICE = 'Finops Desk';

export interface SecretStore {
  readonly kind: SecretStorageKind;
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  /** True when something was deleted. */
  delete(account: string): Promise<boolean>;
}

/**
 * Account names: one local key per data dir, one sync token per remote server (a command's), and one per team and
 * remote server for a token entered in the app — a server holds several teams, and one team's key must never
 * serve another team's rounds.
 */
export const secretAccounts = {
  localApiKey: (dataDir: string) => `local-api-key:${path.resolve(dataDir)}`,
  syncToken: (remoteUrl: string) => `sync-token:${new URL(remoteUrl).origin}`,
  teamSyncToken: (teamId: string, remoteUrl: string) => `sync-token:${new URL(remoteUrl).origin}:team:${teamId}`,
};

/** The part of keytar's API used here (an interface so tests can run it against a real Secret Service). */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export function keychainSecretStore(keytar: KeytarLike, service = KEYCHAIN_SERVICE): SecretStore {
  return {
    kind: 'os-keychain',
    get: (account) => keytar.getPassword(service, account),
    set: (account, secret) => keytar.setPassword(service, account, secret),
    delete: (account) => keytar.deletePassword(service, account),
  };
}

export function sessionSecretStore(): SecretStore {
  const secrets = new Map<string, string>();
  return {
    kind: 'session-only',
    get: async (account) => secrets.get(account) ?? null,
    set: async (account, secret) => {
      secrets.set(account, secret);
    },
    delete: async (account) => secrets.delete(account),
  };
}

export interface OpenedSecretStore {
  store: SecretStore;
  /** Why the keychain is not used, when it is not. */
  fallbackReason: string | null;
}

/**
 * The OS keychain when keytar loads and answers a probe read; else `fallback()` (null when it has none to offer),
 * else the session-only store, with the reason. `loadKeytar` is injectable so the fallback path is testable
 * without breaking the real module.
 */
export async function openSecretStore(
  loadKeytar: () => KeytarLike = () => require('keytar') as KeytarLike,
  service = KEYCHAIN_SERVICE,
  fallback: () => SecretStore | null = () => null,
): Promise<OpenedSecretStore> {
  const instead = (reason: string): OpenedSecretStore => ({ store: fallback() ?? sessionSecretStore(), fallbackReason: reason });
  let keytar: KeytarLike;
  try {
    keytar = loadKeytar();
  } catch (err) {
    return instead(`keytar could not be loaded: ${(err as Error).message}`);
  }
  try {
    await keytar.getPassword(service, 'probe');
    return { store: keychainSecretStore(keytar, service), fallbackReason: null };
  } catch (err) {
    return instead(`no OS keychain available: ${(err as Error).message}`);
  }
}

let opened: Promise<OpenedSecretStore> | undefined;

/**
 * The secret store of this process, opened once: the server's routes that keep a sync credential and its sync
 * scheduler that uses it must share one (a session-only store lives in the memory of the object that holds it).
 */
export function processSecretStore(): Promise<OpenedSecretStore> {
  opened ??= openSecretStore();
  return opened;
}
