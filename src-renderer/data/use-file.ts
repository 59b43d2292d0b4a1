/**
 * A file the API serves (an invoice's PDF) as a Blob. `version` (the record's `updatedAt`) keys the file to the
 * record it was made from, so a changed record fetches its new file; other changes of the entity (which refresh its
 * reads) leave the file alone: it is large and the same as long as its record is.
 */
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import type { CallInput } from '../../src-shared/api-client';
import type { RouteContract } from '../../src-shared/contract/route';
import { api } from '../lib/api';

export function useFile<R extends RouteContract & { method: 'GET' }>(
  route: R,
  params: CallInput<R>['params'],
  version: string,
): UseQueryResult<Blob, Error> {
  return useQuery({
    queryKey: ['file', route.path, params, version],
    queryFn: ({ signal }) => api.file(route, { params, signal } as unknown as CallInput<R>),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
