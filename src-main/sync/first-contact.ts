import type { SyncEntity } from '../../src-shared/domain/sync/fields';
import type { Projection } from '../../src-shared/domain/sync/merge';
import { ENTITIES } from '../store/entities';
import { readProjections } from '../store/sync/projections';
import { syncRecord, unlinkedLocalIds } from '../store/sync/records';
import type { RoundContext } from './context';
import { naturalKeyOf } from './natural';

/**
 * A first round with a remote (issue 34, 8): a team that disconnects and connects again, or connects a remote that
 * already holds its books, has no id map, and on a remote that takes no client ids (the hosted service) none of its
 * records shares an id with the remote's. Before anything is pushed, each record the remote holds is matched to a
 * local record not linked yet with the same natural fields (natural.ts): one to one, so two identical lines there
 * and one here end as two, not one. Only while no round has succeeded: afterwards, a record made on each side is two
 * records even when they look alike, and is never merged by fields that are not unique.
 */

type Index = Map<string, string[]>;

function indexOf(ctx: RoundContext, entity: SyncEntity): Index {
  const key = `first-contact:${entity}`;
  const cached = ctx.cache.get(key) as Index | undefined;
  if (cached) return cached;
  const ids = unlinkedLocalIds(ctx.db, ctx.teamId, ctx.remote.id, entity, ENTITIES[entity].table);
  const index: Index = new Map();
  for (const [id, p] of readProjections(ctx.db, ctx.teamId, entity, ids)) {
    const k = naturalKeyOf(entity, p);
    if (k === undefined) continue;
    const list = index.get(k);
    if (list) list.push(id);
    else index.set(k, [id]);
  }
  ctx.cache.set(key, index);
  return index;
}

/** The local record a remote one is on a first round (see above), if one with its natural fields is still free. */
export function firstContactTwin(ctx: RoundContext, entity: SyncEntity, remote: Projection): string | undefined {
  if (ctx.remote.lastSuccessAt) return undefined;
  const k = naturalKeyOf(entity, remote);
  if (k === undefined) return undefined;
  const ids = indexOf(ctx, entity).get(k);
  // Linked since the index was read (an earlier twin of this round took it): the next one is free.
  return ids?.find((id) => syncRecord(ctx.db, ctx.remote.id, entity, id)?.remoteRecordId == null);
}
