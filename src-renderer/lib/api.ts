/**
 * The one API client of the UI. It reads the connection from the store on every call: the desktop build sends its
 * key as a bearer token; the web build relies on the session cookie the browser sends by itself, adds the session's
 * CSRF token to every request that changes something, and treats a 401 as the end of the session.
 */
import { createApiClient } from '../../src-shared/api-client';
import { platform } from '../platform/current';
import { useConnection } from '../stores/connection';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

const sessionFetch: typeof fetch = async (input, init) => {
  const method = (init?.method ?? 'GET').toUpperCase();
  const csrf = useConnection.getState().session?.csrfToken;
  const headers = new Headers(init?.headers);
  if (!SAFE.has(method) && csrf) headers.set('x-csrf-token', csrf);
  const response = await globalThis.fetch(input, { ...init, headers, credentials: 'same-origin' });
  if (response.status === 401) useConnection.getState().sessionEnded();
  return response;
};

export const api = createApiClient({
  baseUrl: () => useConnection.getState().connection.baseUrl,
  token: () => useConnection.getState().connection.apiKey,
  ...(platform.auth === 'session' ? { fetch: sessionFetch } : {}),
});
