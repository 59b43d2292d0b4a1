/**
 * The UI's one TanStack Query client (docs/decisions/0041-renderer-data-layer.md). It caches lists and records by
 * query key, drops answers to queries that are no longer asked, shares one request between callers of the same
 * key, and refetches what `invalidateEntities` marks. Freshness comes from invalidation (writes and the change
 * stream), so data is kept fresh for a while rather than refetched on every mount.
 */
import { type Query, QueryClient } from '@tanstack/react-query';
import { ApiClientError } from '../../src-shared/api-client';
import { keyShows } from './entities';

/** A client mistake or a refusal will not go away by asking again; a network failure or a 5xx may. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiClientError && error.status >= 400 && error.status < 500 && error.status !== 429) return false;
  return failureCount < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, retry: shouldRetry },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();

/** Marks every query that shows any of `entities` as stale and refetches those on screen. */
export function invalidateEntities(client: QueryClient, entities: Iterable<string>): Promise<void> {
  const names = [...new Set(entities)];
  if (names.length === 0) return Promise.resolve();
  return client.invalidateQueries({ predicate: (q: Query) => names.some((e) => keyShows(q.queryKey, e)) });
}
