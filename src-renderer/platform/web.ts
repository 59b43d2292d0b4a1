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

/**
 * `scripts/demo.sh` prints the UI address with the demo key in the fragment (`/#key=finops_…`): a fragment never
 * reaches a server or a log. The key is moved into storage and the fragment wiped from the address bar at once.
 */
export function takeKeyFromFragment(location: Location | undefined, history: History | undefined): string | null {
  const match = /(?:^#|&)key=(finops_[0-9a-f]{64})(?:&|$)/.exec(location?.hash ?? '');
  if (!match?.[1]) return null;
  history?.replaceState(null, '', `${location?.pathname ?? '/'}${location?.search ?? ''}`);
  return match[1];
}

export const platform: Platform = {
  kind: 'web',
  async loadConnection(): Promise<Connection> {
    const s = storage();
    const fromFragment = takeKeyFromFragment(globalThis.location, globalThis.history);
    if (fromFragment) s?.setItem(STORAGE_KEYS.apiKey, fromFragment);
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
