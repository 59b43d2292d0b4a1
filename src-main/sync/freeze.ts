import { SYNC_ORDER, SYNC_SPECS, type SyncEntity } from '../../src-shared/domain/sync/fields';
import { changedFields } from '../../src-shared/domain/sync/merge';
import { currentSeq } from '../store/changes';
import { cursorOf, setCursor } from '../store/sync/cursors';
import { changesBetween, type LocalChange } from '../store/sync/local-changes';
import { enqueuePush, latestPendingProjection } from '../store/sync/outbox';
import { readProjection, readProjections } from '../store/sync/projections';
import { syncRecord, syncRecords } from '../store/sync/records';
import { type Writer, write } from '../store/write';
import { applyRemoteUpsert, freezeCreate } from './apply';
import { checkLease, type RoundContext } from './context';
import { asHeldThere, withoutKeptLocal } from './kept-local';
import { prefetchedTwin } from './lookups';

/**
 * Freezing, the first half of a push (docs/decisions/0140-sync-engine.md): what to push is decided by state, not by
 * who made the last change. Every record of a synced entity whose change is past the pushed sequence is read as a
 * projection and compared with what the remote holds (its base, or the newest push still waiting); a difference
 * becomes an outbox entry — a create, the changed groups of an update, or a delete for a tombstone. A record whose
 * twin the remote already holds (a tag of the same name, a default category) is linked instead of created. Freezing
 * and moving the pushed sequence are one transaction, so a crash never loses a change nor freezes it twice.
 */
const CHUNK = 1000;

/** Freezes every local change since the pushed sequence into the outbox; returns the entries made. */
export function freezeLocalChanges(ctx: RoundContext): number {
  const { db, teamId, remote } = ctx;
  const pushable = SYNC_ORDER.filter((e) => ctx.caps.entities[e] !== null);
  return write(
    db,
    teamId,
    (w) => {
      checkLease(ctx);
      const from = cursorOf(db, remote.id).pushedSeq;
      const to = currentSeq(db, teamId);
      let made = 0;
      let after = from;
      for (;;) {
        const changes = changesBetween(db, teamId, after, to, pushable, CHUNK);
        if (changes.length === 0) break;
        after = changes[changes.length - 1]!.seq;
        made += freezeChunk(ctx, w, changes);
      }
      setCursor(db, teamId, remote.id, '*', { pushedSeq: to });
      return made;
    },
    { origin: 'sync' },
  );
}

function freezeChunk(ctx: RoundContext, w: Writer, changes: readonly LocalChange[]): number {
  const { db, teamId, remote } = ctx;
  let made = 0;
  const rank = (e: SyncEntity) => SYNC_ORDER.indexOf(e);
  const upserts = changes.filter((c) => c.op === 'upsert').sort((a, b) => rank(a.entity) - rank(b.entity) || a.seq - b.seq);
  const deletes = changes.filter((c) => c.op === 'delete').sort((a, b) => rank(b.entity) - rank(a.entity) || a.seq - b.seq);
  for (const entity of SYNC_ORDER) {
    const group = upserts.filter((c) => c.entity === entity);
    if (group.length === 0) continue;
    const ids = group.map((c) => c.id);
    const recs = syncRecords(db, remote.id, entity, ids);
    // Records agreed at exactly their current change (a pull applied them, nothing since) need no read.
    const toRead = group.filter((c) => recs.get(c.id)?.baseSeq !== c.seq).map((c) => c.id);
    const projections = readProjections(db, teamId, entity, toRead);
    for (const id of toRead) {
      const p = projections.get(id);
      if (!p) continue;
      const rec = recs.get(id);
      if (!rec) {
        // Its twin is there already (a tag of the same name, the same category slug): linked and merged, not created.
        const twin = prefetchedTwin(ctx, entity, p);
        if (twin) applyRemoteUpsert(ctx, w, entity, twin.id, twin.projection);
        else if (freezeCreate(ctx, entity, id, p)) made++;
        continue;
      }
      const expected = latestPendingProjection(db, remote.id, entity, id) ?? rec.base;
      if (!expected || !rec.remoteRecordId) continue;
      const diff = withoutKeptLocal(ctx, entity, p, changedFields(SYNC_SPECS[entity], expected, p));
      if (Object.keys(diff).length === 0 || !ctx.caps.entities[entity]?.update) continue;
      const projection = asHeldThere(ctx, entity, p, expected);
      enqueuePush(db, teamId, remote.id, { entity, localId: id, op: 'update', payload: diff, projection });
      made++;
    }
  }
  for (const c of deletes) {
    const rec = syncRecord(db, remote.id, c.entity, c.id);
    if (!rec?.remoteRecordId || !ctx.caps.entities[c.entity]?.delete) continue;
    if (readProjection(db, teamId, c.entity, c.id)) continue;
    enqueuePush(db, teamId, remote.id, { entity: c.entity, localId: c.id, op: 'delete', payload: null, projection: null });
    made++;
  }
  return made;
}
