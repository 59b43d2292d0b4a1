/** Where the UI's API lives and whether it answers: loaded from the platform, edited in Settings (web build). */
import { create } from 'zustand';
import { createApiClient } from '../../src-shared/api-client';
import { healthRoutes } from '../../src-shared/contract/health';
import type { RouteResponse } from '../../src-shared/contract/route';
import { queryClient } from '../data/query-client';
import { platform } from '../platform/current';
import type { Connection } from '../platform/platform';

type Health = RouteResponse<typeof healthRoutes.get>;

interface ConnectionState {
  connection: Connection;
  loaded: boolean;
  health: Health | null;
  healthError: string | null;
  load(): Promise<void>;
  save(connection: Connection): void;
  checkHealth(): Promise<void>;
}

export const useConnection = create<ConnectionState>((set, get) => ({
  connection: { baseUrl: '', apiKey: '' },
  loaded: false,
  health: null,
  healthError: null,
  async load() {
    const connection = await platform.loadConnection();
    set({ connection, loaded: true });
    void get().checkHealth();
  },
  save(connection) {
    platform.saveConnection?.(connection);
    set({ connection });
    // Another server or key: nothing cached from the previous one may show.
    void queryClient.resetQueries();
    void get().checkHealth();
  },
  async checkHealth() {
    const client = createApiClient({ baseUrl: get().connection.baseUrl });
    try {
      const health = await client.call(healthRoutes.get);
      set({ health, healthError: null });
    } catch (err) {
      set({ health: null, healthError: (err as Error).message });
    }
  },
}));

export const hasApiKey = (s: ConnectionState) => s.connection.apiKey.length > 0;
