/**
 * Keeps what the UI shows current while it is connected: follows the change stream and refreshes the queries of
 * the entities that changed. Events are gathered for a moment first, so an import of a thousand customers costs
 * a few refetches, not a thousand. Mounted once, by the app frame.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../lib/api';
import { followChanges } from './change-stream';
import { invalidateEntities } from './query-client';

/** How long changes are gathered before the affected queries refetch. */
export const CHANGE_BATCH_MS = 150;

/** `key` names the connection (server address and credential): a new one restarts the stream from the present. */
export function useChangeStream(enabled: boolean, key: string): void {
  const client = useQueryClient();
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` is read by the API client on each call; a new one must restart the stream
  useEffect(() => {
    if (!enabled) return;
    const pending = new Set<string>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      const entities = [...pending];
      pending.clear();
      void invalidateEntities(client, entities);
    };
    const stream = followChanges({
      client: api,
      onChange: (event) => {
        pending.add(event.entity);
        timer ??= setTimeout(flush, CHANGE_BATCH_MS);
      },
      onResync: () => void client.invalidateQueries(),
    });
    return () => {
      stream.stop();
      clearTimeout(timer);
    };
  }, [enabled, key, client]);
}
