/**
 * Where the UI's API lives, whether it answers, and who is signed in. The address (and, in the desktop app, the
 * key) come from the platform; the web build signs a person in with email and password (`POST /app/session`) and
 * from then on the browser sends the HttpOnly session cookie by itself, plus the CSRF token on writes
 * (docs/decisions/0110). A 401 from any call in the web build means the session ended: the sign-in form returns.
 */
import { create, type StoreApi, type UseBoundStore } from 'zustand';
import { type ApiClient, ApiClientError, createApiClient } from '../../src-shared/api-client';
import { appSessionRoutes, type SessionInfo } from '../../src-shared/contract/app-session';
import { healthRoutes } from '../../src-shared/contract/health';
import type { RouteResponse } from '../../src-shared/contract/route';
import { queryClient } from '../data/query-client';
import { t } from '../i18n';
import { platform } from '../platform/current';
import type { Connection } from '../platform/platform';

type Health = RouteResponse<typeof healthRoutes.get>;

export type SessionState = 'checking' | 'signed-out' | 'signed-in';

interface ConnectionState {
  connection: Connection;
  loaded: boolean;
  health: Health | null;
  healthError: string | null;
  /** Web build: the signed-in session (with its CSRF token); always null in the desktop app. */
  session: SessionInfo | null;
  sessionState: SessionState;
  /** Why the person is looking at the sign-in form again (their session ended), if they were signed in. */
  signedOutReason: string | null;
  load(): Promise<void>;
  checkHealth(): Promise<void>;
  signIn(email: string, password: string): Promise<SessionInfo>;
  signOut(): Promise<void>;
  /** A call was answered 401: the session is over (expired, revoked, signed out elsewhere). */
  sessionEnded(reason?: string): void;
}

const client = (): ApiClient => createApiClient({ baseUrl: () => useConnection.getState().connection.baseUrl });

export const useConnection: UseBoundStore<StoreApi<ConnectionState>> = create<ConnectionState>((set, get) => ({
  connection: { baseUrl: '', apiKey: '' },
  loaded: false,
  health: null,
  healthError: null,
  session: null,
  sessionState: platform.auth === 'session' ? 'checking' : 'signed-in',
  signedOutReason: null,
  async load() {
    const connection = await platform.loadConnection();
    set({ connection, loaded: true });
    void get().checkHealth();
    if (platform.auth !== 'session') return;
    try {
      const session: SessionInfo = await client().call(appSessionRoutes.current);
      set({ session, sessionState: 'signed-in' });
    } catch (err) {
      // 401: nobody is signed in in this browser. Anything else: the server is not there; the form says so on submit.
      set({ session: null, sessionState: 'signed-out', signedOutReason: null });
      if (!(err instanceof ApiClientError) || err.status !== 401) set({ healthError: (err as Error).message });
    }
  },
  async checkHealth() {
    try {
      const health = await client().call(healthRoutes.get);
      set({ health, healthError: null });
    } catch (err) {
      set({ health: null, healthError: (err as Error).message });
    }
  },
  async signIn(email, password) {
    const session: SessionInfo = await client().call(appSessionRoutes.signIn, { body: { email, password } });
    // Nothing cached for a previous person may show to this one.
    queryClient.clear();
    set({ session, sessionState: 'signed-in', signedOutReason: null });
    return session;
  },
  async signOut() {
    const csrf = get().session?.csrfToken;
    try {
      await client().call(appSessionRoutes.signOut, { headers: csrf ? { 'x-csrf-token': csrf } : {} });
    } catch (err) {
      // Already over on the server: signed out either way.
      if (!(err instanceof ApiClientError) || err.status !== 401) throw err;
    }
    queryClient.clear();
    set({ session: null, sessionState: 'signed-out', signedOutReason: null });
  },
  sessionEnded(reason) {
    if (platform.auth !== 'session' || get().sessionState !== 'signed-in') return;
    queryClient.clear();
    set({ session: null, sessionState: 'signed-out', signedOutReason: reason ?? t('signin:sessionEnded') });
  },
}));

/** True when calls can authenticate: the desktop key is there, or someone is signed in. */
export const isConnected = (s: ConnectionState) =>
  platform.auth === 'key' ? s.connection.apiKey.length > 0 : s.sessionState === 'signed-in';
