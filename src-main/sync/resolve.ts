import type { SyncEntity, Winner } from '../../src-shared/domain/sync/fields';
import type { Json } from '../../src-shared/domain/sync/merge';
import type { Db } from '../store/db';
import { ENTITIES } from '../store/entities';
import { Conflict } from '../store/errors';
import { closeConflict, getConflict, type SyncConflict } from '../store/sync/conflicts';
import { createLocal, deleteLocal, updateLocal } from '../store/sync/local-writes';
import { readProjection, recordSeq } from '../store/sync/projections';
import { saveBase, syncRecordByRemoteId } from '../store/sync/records';
import { write } from '../store/write';

/**
 * A person's choice on a recorded conflict (docs/decisions/0140-sync-engine.md): the side taken is written as a
 * local edit (origin `local`), so the next round pushes it like any other edit. Every choice does what it says:
 * - the side the record holds already only closes the conflict — except "this side" of a change the remote refused
 *   or failed on, which sends it again (the record is marked changed);
 * - the other side's values are written; a side that had deleted the record deletes it;
 * - a record the local store refused to create (it is not here) is created from the remote's values and linked; a
 *   store that still refuses it answers with its reason (409) and the conflict stays open.
 */
export function resolveConflict(db: Db, teamId: string, conflictId: string, take: Winner): SyncConflict {
  const c = getConflict(db, teamId, conflictId);
  if (c.resolvedAt)
    throw new Conflict('This conflict is already resolved', `taken: ${c.outcome === 'kept_local' ? 'local' : 'remote'}`);
  const entity = c.entity as SyncEntity;
  write(db, teamId, (w) => {
    const current = readProjection(db, teamId, entity, c.localId);
    if (take !== c.winner) {
      const values = take === 'local' ? c.local : c.remote;
      if (values === null) {
        // The side taken had deleted the record (or never had it).
        if (current) deleteLocal(w, entity, c.localId);
      } else if (current) {
        const fields: Record<string, Json> =
          c.kind === 'delete' ? values : pick(values, c.fields.length ? c.fields : Object.keys(values));
        updateLocal(w, entity, c.localId, fields, { ...current, ...fields });
      } else {
        try {
          w.attempt(() => createLocal(w, entity, c.localId, values));
        } catch (err) {
          throw new Conflict(
            `The record cannot be made here: ${err instanceof Error ? err.message : String(err)}`,
            'The conflict stays open; once the cause is gone (here or on the remote), take the remote side again.',
          );
        }
        // A remote record refused before is its own copy there: linked, so the next round does not make it twice.
        if (c.kind === 'refused' && c.local === null && !syncRecordByRemoteId(db, c.remoteId, entity, c.localId)) {
          saveBase(db, {
            teamId,
            remoteId: c.remoteId,
            entity,
            localId: c.localId,
            remoteRecordId: c.localId,
            base: values,
            baseSeq: recordSeq(db, teamId, ENTITIES[entity].table, c.localId) ?? 0,
          });
        }
      }
    }
    // "This side" of a change the remote would not take: send it again.
    if (take === 'local' && c.kind === 'refused' && readProjection(db, teamId, entity, c.localId)) w.touch(entity, c.localId);
    closeConflict(db, teamId, conflictId, take);
  });
  return getConflict(db, teamId, conflictId);
}

function pick(values: Record<string, Json>, fields: readonly string[]): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const f of fields) if (Object.hasOwn(values, f)) out[f] = values[f] ?? null;
  return out;
}
