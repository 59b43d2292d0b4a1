import type { SyncEntity, Winner } from '../../src-shared/domain/sync/fields';
import type { Json } from '../../src-shared/domain/sync/merge';
import type { Db } from '../store/db';
import { Conflict } from '../store/errors';
import { closeConflict, getConflict, type SyncConflict } from '../store/sync/conflicts';
import { deleteLocal, updateLocal } from '../store/sync/local-writes';
import { readProjection } from '../store/sync/projections';
import { write } from '../store/write';

/**
 * A person's choice on a recorded conflict (docs/decisions/0140-sync-engine.md): take the side the stated default
 * did not keep. The taken value is written as a local edit (origin `local`), so the next round pushes it like any
 * other edit; taking the side already in place only closes the conflict.
 */
export function resolveConflict(db: Db, teamId: string, conflictId: string, take: Winner): SyncConflict {
  const c = getConflict(db, teamId, conflictId);
  if (c.resolvedAt)
    throw new Conflict('This conflict is already resolved', `taken: ${c.outcome === 'kept_local' ? 'local' : 'remote'}`);
  const entity = c.entity as SyncEntity;
  write(db, teamId, (w) => {
    if (take !== c.winner) {
      const values = take === 'local' ? c.local : c.remote;
      const current = readProjection(db, teamId, entity, c.localId);
      if (values === null) {
        // The side taken had deleted the record.
        if (current) deleteLocal(w, entity, c.localId);
      } else if (current) {
        const fields: Record<string, Json> =
          c.kind === 'delete' ? values : pick(values, c.fields.length ? c.fields : Object.keys(values));
        updateLocal(w, entity, c.localId, fields, { ...current, ...fields });
      }
    }
    closeConflict(db, teamId, conflictId, take);
  });
  return getConflict(db, teamId, conflictId);
}

function pick(values: Record<string, Json>, fields: readonly string[]): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const f of fields) if (Object.hasOwn(values, f)) out[f] = values[f] ?? null;
  return out;
}
