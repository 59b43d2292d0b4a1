/**
 * The team's sync status, kept current although `sync_remotes` is not in the change stream: polled every second
 * while a round runs (or was just asked for and has not shown yet), otherwise every half minute and when the window
 * gets the focus back; the change events of synced entities refresh it too (pending changes move with every edit,
 * src-renderer/data/entities.ts). The screen and the app frame's indicator share the one query.
 */
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { appSyncRoutes, type SyncStatusBody } from '../../../src-shared/contract/app-sync';
import { queryKey } from '../../data/entities';
import { api } from '../../lib/api';

export const RUNNING_POLL_MS = 1000;
export const IDLE_POLL_MS = 30_000;
/** After "sync now", how long to poll fast for a round that a scheduler starts a moment later. */
export const KICK_MS = 8000;

let kickedUntil = 0;

/** Polls fast for a while: a round was just asked for. */
export function expectRound(now = Date.now()): void {
  kickedUntil = now + KICK_MS;
}

export function pollInterval(status: SyncStatusBody | undefined, now = Date.now()): number {
  return status?.remote?.state === 'running' || now < kickedUntil ? RUNNING_POLL_MS : IDLE_POLL_MS;
}

export const syncStatusKey = queryKey(appSyncRoutes.status, 'list', null);

export function useSyncStatus(enabled = true): UseQueryResult<SyncStatusBody, Error> {
  return useQuery({
    queryKey: syncStatusKey,
    queryFn: ({ signal }) => api.call(appSyncRoutes.status, { signal }),
    enabled,
    staleTime: 500,
    refetchOnWindowFocus: true,
    refetchInterval: (q) => pollInterval(q.state.data),
  });
}
