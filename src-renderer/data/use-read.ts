/**
 * A read through a contract GET route that is not cursor-paged (those use useCursorList): one record
 * (`useRecord(customerRoutes.get, { id })`) or a short whole list (`useRead(tagRoutes.list)`). Cached under the
 * route's entity, so writes and change events refresh it.
 */
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import type { CallInput } from '../../src-shared/api-client';
import type { RouteContract, RouteResponse } from '../../src-shared/contract/route';
import { api } from '../lib/api';
import { type QueryKind, queryKey } from './entities';

type GetRoute = RouteContract & { method: 'GET' };
type ReadInput<R extends GetRoute> = Pick<CallInput<R>, 'params' | 'query'>;

function useGet<R extends GetRoute>(
  route: R,
  kind: QueryKind,
  input: ReadInput<R> | undefined,
  enabled: boolean,
): UseQueryResult<RouteResponse<R>, Error> {
  return useQuery({
    queryKey: queryKey(route, kind, input),
    queryFn: ({ signal }) => api.call(route, { ...input, signal } as CallInput<R>),
    enabled,
  });
}

export function useRead<R extends GetRoute>(
  route: R,
  input?: ReadInput<R>,
  options: { enabled?: boolean } = {},
): UseQueryResult<RouteResponse<R>, Error> {
  return useGet(route, 'list', input, options.enabled ?? true);
}

export function useRecord<R extends GetRoute>(
  route: R,
  params: CallInput<R>['params'],
  options: { enabled?: boolean } = {},
): UseQueryResult<RouteResponse<R>, Error> {
  return useGet(route, 'record', { params } as ReadInput<R>, options.enabled ?? true);
}
