/**
 * A write through a contract route (create, update, delete). Idempotent routes get a fresh Idempotency-Key per
 * call, so a retried request never writes twice. After it succeeds, every query that shows the route's entity
 * (lists, records, and what embeds it) is refreshed at once; the change stream would do it too, a moment later.
 */
import { type UseMutationResult, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CallInput } from '../../src-shared/api-client';
import type { RouteContract, RouteResponse } from '../../src-shared/contract/route';
import { api } from '../lib/api';
import { entityOf } from './entities';
import { invalidateEntities } from './query-client';

const newKey = () => globalThis.crypto.randomUUID();

export function useWrite<R extends RouteContract>(route: R): UseMutationResult<RouteResponse<R>, Error, CallInput<R>> {
  const client = useQueryClient();
  const entity = entityOf(route);
  return useMutation({
    mutationFn: (input: CallInput<R>) =>
      api.call(route, route.idempotent && !input.idempotencyKey ? { ...input, idempotencyKey: newKey() } : input),
    onSuccess: () => invalidateEntities(client, [entity]),
  });
}
