/**
 * The one object the desktop preload exposes to the renderer (`window.finops`), and the IPC channel names behind it.
 * Shared by src-main/electron/preload.ts (which implements it with ipcRenderer.invoke) and the renderer (which only
 * sees this interface). No raw IPC reaches the page.
 */

/**
 * Where the desktop app keeps secrets (its local key, sync credentials): the OS keychain; else a file of its own
 * whose entries the OS encrypts (Electron's safeStorage); else memory, for this session only.
 */
export type SecretStorageKind = 'os-keychain' | 'encrypted-file' | 'session-only';

/** Where the renderer reaches the local v1 server and with which key. */
export interface DesktopConnection {
  /** Origin of the local server, e.g. `http://127.0.0.1:41873`; the API is at `${baseUrl}/v1`. */
  baseUrl: string;
  apiKey: string;
  /** Where the key is kept between launches. */
  keyStorage: SecretStorageKind;
}

export type ServerStatus =
  | { state: 'starting'; attempt: number }
  | { state: 'ready'; url: string }
  | { state: 'restarting'; attempt: number; inMs: number; reason: string }
  | { state: 'failed'; reason: string }
  | { state: 'stopped' };

export interface DesktopAppInfo {
  appVersion: string;
  electronVersion: string;
  chromeVersion: string;
  nodeVersion: string;
  platform: string;
  dataDir: string;
}

/**
 * Credentials of sync remotes, kept by the shell (OS keychain, else the safeStorage file, else this session) and
 * handed to the local server's sync rounds, never back to a page. A bad URL or secret rejects with a message.
 */
export interface DesktopSyncCredentials {
  /**
   * Stores the credential for the remote at `baseUrl` (https, or http to this machine): an API key, or an OAuth
   * grant as JSON (`{"kind":"oauth","accessToken",…}`, sync/credentials.ts). A team waiting for it syncs at once.
   */
  setCredential(baseUrl: string, secret: string): Promise<void>;
  /** Removes it; true when there was one. */
  clearCredential(baseUrl: string): Promise<boolean>;
  hasCredential(baseUrl: string): Promise<boolean>;
  /** Where credentials are kept (say "this session only" when it is so). */
  storage(): Promise<SecretStorageKind>;
}

/**
 * The private network addresses the app's user, its operator, lets outbound requests reach (workflows, sync, mail;
 * docs/decisions/0191-desktop-private-hosts.md). Kept by the shell, never over HTTP.
 */
export interface DesktopPrivateHosts {
  /** The entries saved in the app: an address, a CIDR range or a host name, each optionally `:port`. */
  entries: string[];
  /** Entries of `$FINOPS_ALLOW_PRIVATE_HOSTS`, allowed as well (changed only where the variable is set). */
  fromEnvironment: string[];
}

/** An entry that is not one, in the words of `finops serve --allow-private-hosts` (English). */
export interface RefusedPrivateHost {
  entry: string;
  message: string;
}

export type SavePrivateHostsResult = { ok: true; saved: DesktopPrivateHosts } | { ok: false; refused: RefusedPrivateHost[] };

export interface DesktopOperatorSettings {
  getPrivateHosts(): Promise<DesktopPrivateHosts>;
  /** Saves the whole list and applies it to the running server at once; nothing is saved if an entry is refused. */
  setPrivateHosts(entries: string[]): Promise<SavePrivateHostsResult>;
}

export interface FinopsDesktopBridge {
  getConnection(): Promise<DesktopConnection>;
  getServerStatus(): Promise<ServerStatus>;
  /** Subscribes to server status changes; returns the unsubscribe function. */
  onServerStatus(listener: (status: ServerStatus) => void): () => void;
  restartServer(): Promise<void>;
  getAppInfo(): Promise<DesktopAppInfo>;
  sync: DesktopSyncCredentials;
  /**
   * Opens the authorization URL of a loopback OAuth sign-in (POST /app/sync/oauth/start, redirect: loopback) in the
   * system browser, when it lies on the origin of the remote signed in to (`remoteBaseUrl`); any other URL rejects.
   */
  openSignIn(url: string, remoteBaseUrl: string): Promise<void>;
  operator: DesktopOperatorSettings;
}

export const IPC = {
  getConnection: 'finops:get-connection',
  getServerStatus: 'finops:get-server-status',
  serverStatus: 'finops:server-status',
  restartServer: 'finops:restart-server',
  getAppInfo: 'finops:get-app-info',
  syncSetCredential: 'finops:sync-set-credential',
  syncClearCredential: 'finops:sync-clear-credential',
  syncHasCredential: 'finops:sync-has-credential',
  syncStorage: 'finops:sync-storage',
  openSignIn: 'finops:open-sign-in',
  getPrivateHosts: 'finops:get-private-hosts',
  setPrivateHosts: 'finops:set-private-hosts',
} as const;
