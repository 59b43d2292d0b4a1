import { SYNC_SPECS, type SyncEntity } from '../../src-shared/domain/sync/fields';
import type { Json, Projection } from '../../src-shared/domain/sync/merge';
import type { Db } from '../store/db';
import { localIdOf, remoteIdOf } from '../store/sync/records';

/**
 * References between records travel as ids, and each side has its own: the id map (sync_records) links them. A
 * pulled record's references are rewritten to local ids before it is merged; a pushed one's to the remote's ids
 * when it is sent. A reference the map does not know is reported, so the caller fetches (pull) or sends (push) the
 * referenced record first.
 */
export interface Missing {
  entity: SyncEntity;
  id: string;
}

type Lookup = (db: Db, remoteId: string, entity: string, id: string) => string | undefined;

function rewrite(
  db: Db,
  remoteId: string,
  entity: SyncEntity,
  p: Readonly<Record<string, Json>>,
  lookup: Lookup,
): { projection: Record<string, Json>; missing: Missing[] } {
  const out: Record<string, Json> = { ...p };
  const missing: Missing[] = [];
  for (const f of SYNC_SPECS[entity].fields) {
    if (!Object.hasOwn(p, f.name)) continue;
    if (f.kind.type === 'ref') {
      const id = p[f.name];
      if (typeof id !== 'string') continue;
      const mapped = lookup(db, remoteId, f.kind.entity, id);
      if (mapped === undefined) missing.push({ entity: f.kind.entity, id });
      out[f.name] = mapped ?? id;
    } else if (f.kind.type === 'refs') {
      const ids = Array.isArray(p[f.name]) ? (p[f.name] as string[]) : [];
      const mapped: string[] = [];
      for (const id of ids) {
        const m = lookup(db, remoteId, f.kind.entity, id);
        if (m === undefined) missing.push({ entity: f.kind.entity, id });
        mapped.push(m ?? id);
      }
      out[f.name] = mapped.sort();
    }
  }
  return { projection: out, missing };
}

/** A remote record's references as local ids (unknown ones reported and left as they are). */
export function toLocalIds(db: Db, remoteId: string, entity: SyncEntity, p: Projection) {
  return rewrite(db, remoteId, entity, p, localIdOf);
}

/** A local record's references as the remote's ids (unknown ones reported and left as they are). */
export function toRemoteIds(db: Db, remoteId: string, entity: SyncEntity, p: Readonly<Record<string, Json>>) {
  return rewrite(db, remoteId, entity, p, remoteIdOf);
}
