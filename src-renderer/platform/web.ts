/**
 * The web build: the UI talks to the server that served it (same origin, `connect-src 'self'`), authenticated by
 * the session cookie set at sign-in (docs/decisions/0110). No API key is read from or written to the browser's
 * storage or address bar.
 */
import type { Connection, Platform } from './platform';

export const platform: Platform = {
  kind: 'web',
  auth: 'session',
  async loadConnection(): Promise<Connection> {
    return { baseUrl: globalThis.location?.origin ?? '', apiKey: '' };
  },
  oauthSignIn: {
    redirect: 'web',
    open: async (authorizeUrl) => window.location.assign(authorizeUrl),
  },
};
