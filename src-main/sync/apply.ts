import { SYNC_SPECS, type SyncEntity } from '../../src-shared/domain/sync/fields';
import { type Json, mergeRecord, type Projection, sameJson } from '../../src-shared/domain/sync/merge';
import { ENTITIES } from '../store/entities';
import { recordConflict } from '../store/sync/conflicts';
import {
  createLocal,
  createTransactionsLocal,
  deleteLocal,
  findLocalByNaturalKey,
  updateLocal,
} from '../store/sync/local-writes';
import { enqueuePush } from '../store/sync/outbox';
import { readProjection, recordSeq } from '../store/sync/projections';
import { forgetRecord, saveBase, syncRecordByRemoteId } from '../store/sync/records';
import type { Writer } from '../store/write';
import type { RoundContext } from './context';
import { freezeCreate } from './freeze';

/**
 * Applying one pulled record (docs/decisions/0140-sync-engine.md), inside the round's write (origin `sync`):
 * 1. a record the id map does not know is linked to a local one with the same natural key, else created locally
 *    with the remote's id (so replicas of a Finops Desk remote share ids);
 * 2. a known record is merged three ways against its base (src-shared/domain/sync/merge.ts): remote changes are
 *    written locally, conflicts recorded with both values, and what the merge keeps of the local side is frozen into
 *    the outbox for the push;
 * 3. a change the local store refuses (a reconciled transaction, a closed invoice) becomes a recorded conflict, not a
 *    failed round: the local record stays and is pushed back;
 * 4. the base becomes the remote's record, at the local record's new change sequence.
 * Each record runs in a savepoint of its own (Writer.attempt), so one refusal never undoes the rest of the batch.
 */

function tableOf(entity: SyncEntity): string {
  return ENTITIES[entity].table;
}

function conflictOf(
  ctx: RoundContext,
  entity: SyncEntity,
  localId: string,
  c: Omit<Parameters<typeof recordConflict>[1], 'teamId' | 'remoteId' | 'entity' | 'localId'>,
) {
  if (recordConflict(ctx.db, { teamId: ctx.teamId, remoteId: ctx.remote.id, entity, localId, ...c })) ctx.counts.conflicts++;
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Saves the remote's record as the base at the local record's current change sequence. */
export function agree(ctx: RoundContext, entity: SyncEntity, localId: string, remoteRecordId: string, remote: Projection): void {
  saveBase(ctx.db, {
    teamId: ctx.teamId,
    remoteId: ctx.remote.id,
    entity,
    localId,
    remoteRecordId,
    base: remote,
    baseSeq: recordSeq(ctx.db, ctx.teamId, tableOf(entity), localId) ?? 0,
  });
}

/**
 * Applies a pulled upsert. `remote` holds local ids already (refs.ts); `remoteRecordId` is the record's id there.
 * Returns whether anything changed locally.
 */
export function applyRemoteUpsert(
  ctx: RoundContext,
  w: Writer,
  entity: SyncEntity,
  remoteRecordId: string,
  remote: Projection,
): boolean {
  const spec = SYNC_SPECS[entity];
  const rec = syncRecordByRemoteId(ctx.db, ctx.remote.id, entity, remoteRecordId);
  let localId = rec?.localId;
  let base: Projection | undefined = rec?.base ?? undefined;
  if (!rec) {
    localId = findLocalByNaturalKey(ctx.db, ctx.teamId, entity, remote);
    base = undefined;
    if (!localId) {
      try {
        const id = w.attempt(() => createLocal(w, entity, remoteRecordId, remote));
        agree(ctx, entity, id, remoteRecordId, remote);
        return true;
      } catch (err) {
        conflictOf(ctx, entity, remoteRecordId, {
          kind: 'refused',
          group: 'record',
          fields: spec.fields.map((f) => f.name),
          base: null,
          local: null,
          remote: remote as Record<string, Json>,
          rule: `the local store refused the remote's new record: ${describe(err)}`,
          winner: 'local',
        });
        return false;
      }
    }
  }
  const id = localId as string;
  const local = readProjection(ctx.db, ctx.teamId, entity, id);
  if (!local) {
    // Deleted here. An edit there since we last agreed survives the delete: the record comes back, and the
    // conflict says so. Without one, the local delete stands and the push sends it.
    if (base && sameJson(base as Json, remote as Json)) return false;
    const recreated = w.attempt(() => createLocal(w, entity, id, remote));
    conflictOf(ctx, entity, recreated, {
      kind: 'delete',
      group: 'record',
      fields: [],
      base: (base as Record<string, Json>) ?? null,
      local: null,
      remote: remote as Record<string, Json>,
      rule: 'an edit survives a delete: the record was deleted here and changed on the remote, so it was restored',
      winner: 'remote',
    });
    agree(ctx, entity, recreated, remoteRecordId, remote);
    return true;
  }
  const m = mergeRecord(spec, base, local, remote);
  let changed = false;
  if (Object.keys(m.toLocal).length > 0) {
    try {
      w.attempt(() => updateLocal(w, entity, id, m.toLocal, { ...local, ...m.toLocal }));
      changed = true;
    } catch (err) {
      // The local store refuses the remote's values (a reconciled or payment-held transaction…): the local record
      // stands and is pushed back; the conflict keeps both values for a person to decide.
      conflictOf(ctx, entity, id, {
        kind: 'refused',
        group: Object.keys(m.toLocal).join(', '),
        fields: Object.keys(m.toLocal),
        base: (base as Record<string, Json>) ?? null,
        local: pick(local, Object.keys(m.toLocal)),
        remote: pick(remote, Object.keys(m.toLocal)),
        rule: `the local store refused the remote's change: ${describe(err)}`,
        winner: 'local',
      });
      for (const f of Object.keys(m.toLocal)) {
        m.merged[f] = local[f] ?? null;
        if (!sameJson(local[f], remote[f])) m.toRemote[f] = local[f] ?? null;
      }
    }
  }
  for (const c of m.conflicts) {
    conflictOf(ctx, entity, id, {
      kind: 'fields',
      group: c.group,
      fields: c.fields,
      base: c.base,
      local: c.local,
      remote: c.remote,
      rule: c.rule,
      winner: c.winner,
    });
  }
  agree(ctx, entity, id, remoteRecordId, remote);
  if (Object.keys(m.toRemote).length > 0 && ctx.caps.entities[entity]?.update) {
    enqueuePush(ctx.db, ctx.teamId, ctx.remote.id, {
      entity,
      localId: id,
      op: 'update',
      payload: m.toRemote,
      projection: m.merged,
    });
  }
  return changed;
}

/**
 * Creates in one go the pulled transactions this replica has never seen (no id map entry, no record with that id):
 * the bulk of a first round. Returns the remote ids it created; on any refusal it creates none of them and the
 * caller applies them one by one (each refusal then becomes its own conflict).
 */
export function applyFreshTransactions(
  ctx: RoundContext,
  w: Writer,
  items: readonly { id: string; record: Projection }[],
): Set<string> {
  const fresh = items.filter(
    (i) =>
      !syncRecordByRemoteId(ctx.db, ctx.remote.id, 'transaction', i.id) &&
      recordSeq(ctx.db, ctx.teamId, 'transactions', i.id) === undefined,
  );
  if (fresh.length < 2) return new Set();
  try {
    w.attempt(() =>
      createTransactionsLocal(
        w,
        fresh.map((i) => ({ id: i.id, projection: i.record })),
      ),
    );
  } catch {
    return new Set();
  }
  for (const i of fresh) agree(ctx, 'transaction', i.id, i.id, i.record);
  return new Set(fresh.map((i) => i.id));
}

/** Applies a pulled delete: the local record goes unless it was edited since the last agreement (then it stays). */
export function applyRemoteDelete(ctx: RoundContext, w: Writer, entity: SyncEntity, remoteRecordId: string): boolean {
  const rec = syncRecordByRemoteId(ctx.db, ctx.remote.id, entity, remoteRecordId);
  if (!rec) return false;
  forgetRecord(ctx.db, ctx.remote.id, entity, rec.localId);
  const local = readProjection(ctx.db, ctx.teamId, entity, rec.localId);
  if (!local) return false;
  if (rec.base && sameJson(rec.base as Json, local as Json)) {
    try {
      w.attempt(() => deleteLocal(w, entity, rec.localId));
      return true;
    } catch (err) {
      conflictOf(ctx, entity, rec.localId, {
        kind: 'refused',
        group: 'record',
        fields: [],
        base: rec.base as Record<string, Json>,
        local: local as Record<string, Json>,
        remote: null,
        rule: `deleted on the remote, but the local store keeps it: ${describe(err)}; it will be created there again`,
        winner: 'local',
      });
      freezeCreate(ctx, entity, rec.localId);
      return false;
    }
  }
  freezeCreate(ctx, entity, rec.localId);
  conflictOf(ctx, entity, rec.localId, {
    kind: 'delete',
    group: 'record',
    fields: [],
    base: (rec.base as Record<string, Json>) ?? null,
    local: local as Record<string, Json>,
    remote: null,
    rule: 'an edit survives a delete: the record was deleted on the remote and changed here, so it is kept and sent again',
    winner: 'local',
  });
  return false;
}

function pick(p: Projection, fields: readonly string[]): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const f of fields) out[f] = p[f] ?? null;
  return out;
}
