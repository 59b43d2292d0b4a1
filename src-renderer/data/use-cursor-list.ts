/**
 * A cursor-paged list from any contract list route (`{ data: [...], meta: { cursor, hasNextPage } }`): the first page
 * for `query`, "load more" appending the next. A change of `query` is a new list (its own cache entry); answers for
 * a query no longer asked never reach the screen, the previous rows stay visible while the new ones load, and a
 * record that shows on two pages (a row inserted between page requests) is listed once.
 */
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { CallInput } from '../../src-shared/api-client';
import type { RouteContract, RouteResponse } from '../../src-shared/contract/route';
import { api } from '../lib/api';
import { queryKey } from './entities';

interface Page {
  data: readonly { id: string }[];
  meta: { cursor: string | null; hasNextPage: boolean };
}

/** A GET route whose answer is a page of records with ids. */
export type ListRoute = RouteContract & { method: 'GET' };
type Item<R extends ListRoute> = RouteResponse<R> extends { data: readonly (infer T)[] } ? T : never;
/** The route's query without the cursor, which the list manages. */
export type ListQuery<R extends ListRoute> = Omit<NonNullable<CallInput<R>['query']>, 'cursor'>;

export interface CursorList<T> {
  items: T[];
  /** No rows yet for this query (first load), or a new query still loading with the previous rows shown. */
  isLoading: boolean;
  isLoadingMore: boolean;
  hasNextPage: boolean;
  error: Error | null;
  loadMore(): void;
  refetch(): void;
}

export function useCursorList<R extends ListRoute>(
  route: R & (RouteResponse<R> extends Page ? unknown : never),
  query: ListQuery<R>,
  options: { enabled?: boolean } = {},
): CursorList<Item<R>> {
  const result = useInfiniteQuery({
    queryKey: queryKey(route, 'list', query),
    queryFn: ({ pageParam, signal }) =>
      api.call(route, { query: { ...query, cursor: pageParam }, signal } as unknown as CallInput<R>) as Promise<Page>,
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.meta.hasNextPage && last.meta.cursor ? last.meta.cursor : undefined),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
  const { data, fetchNextPage, hasNextPage, isFetchingNextPage, refetch } = result;

  const items = useMemo(() => {
    const seen = new Set<string>();
    const out: Item<R>[] = [];
    for (const page of data?.pages ?? []) {
      for (const row of page.data) {
        if (seen.has(row.id)) continue;
        seen.add(row.id);
        out.push(row as Item<R>);
      }
    }
    return out;
  }, [data]);

  return {
    items,
    isLoading: result.isPending || (result.isPlaceholderData && result.isFetching),
    isLoadingMore: isFetchingNextPage,
    hasNextPage: hasNextPage && !result.isPlaceholderData,
    error: result.error,
    loadMore: () => {
      if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
    },
    refetch: () => void refetch(),
  };
}
