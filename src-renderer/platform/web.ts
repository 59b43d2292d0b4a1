/** The web build: the server URL and API key are entered in Settings and kept in this browser's localStorage. */
import type { Connection, Platform } from './platform';

export const STORAGE_KEYS = { serverUrl: 'finops.serverUrl', apiKey: 'finops.apiKey' } as const;

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export const platform: Platform = {
  kind: 'web',
  async loadConnection(): Promise<Connection> {
    const s = storage();
    return {
      baseUrl: s?.getItem(STORAGE_KEYS.serverUrl) || globalThis.location?.origin || '',
      apiKey: s?.getItem(STORAGE_KEYS.apiKey) ?? '',
    };
  },
  saveConnection(connection) {
    const s = storage();
    if (!s) return;
    const sameOrigin = connection.baseUrl === globalThis.location?.origin;
    if (sameOrigin || !connection.baseUrl) s.removeItem(STORAGE_KEYS.serverUrl);
    else s.setItem(STORAGE_KEYS.serverUrl, connection.baseUrl);
    if (connection.apiKey) s.setItem(STORAGE_KEYS.apiKey, connection.apiKey);
    else s.removeItem(STORAGE_KEYS.apiKey);
  },
  clearConnection() {
    storage()?.removeItem(STORAGE_KEYS.apiKey);
    storage()?.removeItem(STORAGE_KEYS.serverUrl);
  },
};
