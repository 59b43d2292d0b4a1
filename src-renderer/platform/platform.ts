/**
 * What differs between the two builds of the UI, behind one interface. The implementation is chosen at build time
 * (never by a runtime `if (isElectron)`): `platform/current` is the web one; the desktop build aliases it to
 * `platform/desktop` (electron.vite.config.ts).
 *
 * - desktop: the shell's preload hands over the local server's address and a per-install key (`auth: 'key'`).
 * - web: the page is served by the server it talks to; a person signs in with email and password and the browser
 *   holds an HttpOnly session cookie (`auth: 'session'`, docs/decisions/0110). No key is ever in the page.
 */
import type { DesktopAppInfo, DesktopConnection, DesktopOperatorSettings, ServerStatus } from '../../src-shared/desktop-bridge';

export interface Connection {
  /** Origin of the server; the API is at `${baseUrl}/v1`. */
  baseUrl: string;
  /** The bearer key (desktop only); empty in the web build, which authenticates by its session cookie. */
  apiKey: string;
}

export interface Platform {
  kind: 'web' | 'desktop';
  /** How requests authenticate: a bearer key from the platform, or the signed-in session's cookie. */
  auth: 'key' | 'session';
  loadConnection(): Promise<Connection>;
  /**
   * How the Sync screen's OAuth sign-in reaches the remote's page (docs/decisions/0145-sync-screen.md): the web
   * page goes there and comes back to the server's callback; the desktop window keeps to its own origin, so the
   * system browser opens it and the answer reaches the local server on a loopback redirect (RFC 8252).
   */
  oauthSignIn: { redirect: 'web' | 'loopback'; open(authorizeUrl: string, remoteBaseUrl: string): Promise<void> };
  /** Desktop only. */
  desktop?: {
    keyStorage(): Promise<DesktopConnection['keyStorage']>;
    serverStatus(): Promise<ServerStatus>;
    onServerStatus(listener: (status: ServerStatus) => void): () => void;
    restartServer(): Promise<void>;
    appInfo(): Promise<DesktopAppInfo>;
    /**
     * The private addresses the app's user, its operator, lets outbound requests reach (docs/decisions/0191); absent
     * when the shell's bridge does not offer them.
     */
    privateHosts?: DesktopOperatorSettings;
  };
}
