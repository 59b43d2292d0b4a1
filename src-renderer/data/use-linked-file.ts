/**
 * A file the API hands out through a short-lived link (a `presigned-url` route, docs/decisions/0082): the link is
 * asked for, then the file fetched from it (the link is its own credential), as a Blob. Asked only when `enabled`
 * (a preview someone opened); kept as long as the record is the same (`version`).
 */
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import type { CallInput } from '../../src-shared/api-client';
import type { RouteContract } from '../../src-shared/contract/route';
import { api } from '../lib/api';

type LinkRoute = RouteContract & { method: 'POST' };

export function useLinkedFile<R extends LinkRoute>(
  route: R,
  params: CallInput<R>['params'],
  version: string,
  options: { enabled: boolean },
): UseQueryResult<Blob, Error> {
  return useQuery({
    queryKey: ['file', route.path, params, version],
    queryFn: async ({ signal }) => {
      const link = (await api.call(route, { params, body: {}, signal } as unknown as CallInput<R>)) as { url: string };
      const response = await globalThis.fetch(link.url, { signal });
      if (!response.ok) throw new Error(`The file could not be fetched (${response.status})`);
      return response.blob();
    },
    enabled: options.enabled,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
