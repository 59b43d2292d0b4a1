/**
 * What differs between the two builds of the UI, behind one interface. The implementation is chosen at build time
 * (never by a runtime `if (isElectron)`): `platform/current` is the web one; the desktop build aliases it to
 * `platform/desktop` (electron.vite.config.ts).
 */
import type { DesktopAppInfo, DesktopConnection, ServerStatus } from '../../src-shared/desktop-bridge';

export interface Connection {
  /** Origin of the server; the API is at `${baseUrl}/v1`. */
  baseUrl: string;
  apiKey: string;
}

export interface Platform {
  kind: 'web' | 'desktop';
  loadConnection(): Promise<Connection>;
  /** Web only: the person enters the server and key in Settings. The desktop app manages both itself. */
  saveConnection?(connection: Connection): void;
  clearConnection?(): void;
  /** Desktop only. */
  desktop?: {
    keyStorage(): Promise<DesktopConnection['keyStorage']>;
    serverStatus(): Promise<ServerStatus>;
    onServerStatus(listener: (status: ServerStatus) => void): () => void;
    restartServer(): Promise<void>;
    appInfo(): Promise<DesktopAppInfo>;
  };
}
