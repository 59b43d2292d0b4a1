/**
 * Messages between the desktop shell (Electron main) and the server host (the utility process that runs the v1
 * server). The shell starts the host, sends `start` once, and waits for `ready` or `failed`; `stop` asks for a
 * clean shutdown (in-flight requests finish, the database is checkpointed and closed) after which the host exits 0.
 */

export interface StartRequest {
  type: 'start';
  dataDir: string;
  /** Port to listen on: 0 for a random free one; on a restart the previous port, so the window's origin survives. */
  port: number;
  /** The key from the keychain, if any; the host keeps it when still valid, else mints a new one. */
  apiKey: string | null;
  /** Folder of the built renderer to serve at `/`. */
  webRoot: string | null;
}

export interface StopRequest {
  type: 'stop';
}

export type HostRequest = StartRequest | StopRequest;

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

export type HostEvent = ReadyEvent | FailedEvent;

export function isHostRequest(value: unknown): value is HostRequest {
  const t = (value as { type?: unknown } | null)?.type;
  return t === 'start' || t === 'stop';
}

export function isHostEvent(value: unknown): value is HostEvent {
  const t = (value as { type?: unknown } | null)?.type;
  return t === 'ready' || t === 'failed';
}
