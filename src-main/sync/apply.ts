import { codedRule, groupRule } from '../../src-shared/domain/sync/conflict-rules';
import { SYNC_SPECS, type SyncEntity } from '../../src-shared/domain/sync/fields';
import { groupValue, type Json, mergeRecord, type Projection, sameJson } from '../../src-shared/domain/sync/merge';
import { ENTITIES } from '../store/entities';
import { recordConflict, settleConflicts } from '../store/sync/conflicts';
import {
  createLocal,
  createTransactionsLocal,
  deleteLocal,
  findLocalByNaturalKey,
  pushableRecord,
  updateLocal,
} from '../store/sync/local-writes';
import {
  enqueuePush,
  finishPush,
  type OutboxEntry,
  pendingCreateOf,
  pendingPushesOf,
  unansweredCreates,
} from '../store/sync/outbox';
import { readProjection, recordSeq } from '../store/sync/projections';
import { forgetRecord, saveBase, syncRecord, syncRecordByRemoteId, syncRecordsReferring } from '../store/sync/records';
import type { Writer } from '../store/write';
import type { RoundContext } from './context';
import { firstContactTwin } from './first-contact';
import { asHeldThere, withoutKeptLocal } from './kept-local';
import { sameNatural } from './natural';
import { unchosenValues } from './unchosen';

/**
 * Applying one pulled record (docs/decisions/0140-sync-engine.md), inside the round's write (origin `sync`):
 * 1. a record the id map does not know is linked to the local record it is: ours by id (a create of ours whose
 *    answer was lost, a replica of a Finops Desk remote found again after a reconnect), else one with the same
 *    unique natural key (tag name, category slug, an invoice's number with its content) — never by a key that is
 *    not unique (two customers may share an email) — except on a first round, when a record not linked yet with the
 *    same natural fields is matched one to one (first-contact.ts: a reconnect to a remote without our ids); else it
 *    is created locally with the remote's id. One that looks like one of our creates still waiting for an answer
 *    (a remote without ids) waits until that create is settled;
 * 2. a known record is merged three ways against its base (src-shared/domain/sync/merge.ts). Pushes of it frozen
 *    earlier and not yet answered are merged too, not resent blind: a group the remote now holds as such a push
 *    sent it is agreed (the push arrived, its answer did not); the rest meets the remote's value like any local edit.
 *    Those pushes are then superseded by what the merge leaves to send;
 * 3. a record that belongs to another (an entry to its project, a line to its account) brings its owner back if
 *    the owner was deleted here since the last agreement: a new or changed child there is an edit of the parent,
 *    and an edit survives a delete (with the children deleted along with it, and a conflict that says so);
 * 4. a change the local store refuses becomes a recorded conflict, not a failed round;
 * 5. the base becomes the remote's record, at the local record's new change sequence.
 * Each record runs in a savepoint of its own (Writer.attempt), so one refusal never undoes the rest of the batch.
 */

function tableOf(entity: SyncEntity): string {
  return ENTITIES[entity].table;
}

export function conflictOf(
  ctx: RoundContext,
  entity: SyncEntity,
  localId: string,
  c: Omit<Parameters<typeof recordConflict>[1], 'teamId' | 'remoteId' | 'entity' | 'localId'>,
): void {
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

/** Finishes a record's waiting pushes: a merge with the remote's newer copy decided what is left to send. */
export function supersedePending(ctx: RoundContext, entity: SyncEntity, localId: string, why: string): void {
  for (const e of pendingPushesOf(ctx.db, ctx.remote.id, entity, localId)) finishPush(ctx.db, e.id, 'done', why);
}

/**
 * The base to merge against when pushes of the record wait for an answer: each group the remote holds exactly as a
 * waiting push sent it is taken as agreed (the push arrived there), the others stay as last agreed.
 */
function baseWithPending(entity: SyncEntity, base: Projection, waiting: readonly OutboxEntry[], remote: Projection): Projection {
  const out: Record<string, Json> = { ...base };
  for (const e of waiting) {
    if (e.op !== 'update' || !e.projection) continue;
    for (const g of SYNC_SPECS[entity].groups) {
      const sent = groupValue(e.projection, g.fields);
      if (sameJson(groupValue(remote, g.fields), sent)) for (const f of g.fields) out[f] = sent[f] ?? null;
    }
  }
  return out;
}

/** The fields a create of this entity carries to the remote (the rest follows in an update). */
function createdFields(ctx: RoundContext, entity: SyncEntity): readonly string[] | undefined {
  return ctx.caps.entities[entity]?.create?.fields;
}

type Target =
  | { kind: 'new' }
  | { kind: 'wait' }
  | { kind: 'local'; localId: string; base: Projection | undefined; create?: OutboxEntry };

/** Which local record an unknown pulled record is (see 1. above). */
function linkTarget(ctx: RoundContext, entity: SyncEntity, remoteRecordId: string, remote: Projection): Target {
  const cap = ctx.caps.entities[entity]?.create;
  if (cap?.clientId) {
    // Ours by id: a create whose answer was lost. What it carried is agreed; what it did not is the remote's.
    const create = pendingCreateOf(ctx.db, ctx.remote.id, entity, remoteRecordId);
    if (create?.projection) {
      const carried = createdFields(ctx, entity);
      const base: Record<string, Json> = { ...remote };
      for (const f of carried ?? Object.keys(create.projection)) base[f] = create.projection[f] ?? null;
      return { kind: 'local', localId: remoteRecordId, base, create };
    }
  } else if (cap) {
    // A remote without our ids: one of our unanswered creates may be this record. It is settled (read back) first.
    const waiting = unansweredCreates(ctx.db, ctx.remote.id, entity);
    if (waiting.some((e) => e.projection && sameNatural(entity, e.projection, remote))) return { kind: 'wait' };
  }
  // The same id here and not linked: replicas of a Finops Desk remote share ids (a reconnect finds its records).
  if (recordSeq(ctx.db, ctx.teamId, tableOf(entity), remoteRecordId) !== undefined && !isLinked(ctx, entity, remoteRecordId)) {
    return { kind: 'local', localId: remoteRecordId, base: undefined };
  }
  const twin = findLocalByNaturalKey(ctx.db, ctx.teamId, entity, remote);
  if (twin && !isLinked(ctx, entity, twin)) return { kind: 'local', localId: twin, base: undefined };
  const found = firstContactTwin(ctx, entity, remote);
  if (found) return { kind: 'local', localId: found, base: undefined };
  return { kind: 'new' };
}

function isLinked(ctx: RoundContext, entity: SyncEntity, localId: string): boolean {
  return syncRecord(ctx.db, ctx.remote.id, entity, localId)?.remoteRecordId != null;
}

/**
 * Brings back the records `p` belongs to (its owner references) that were deleted here since both sides last
 * agreed on them, from that agreed copy, with the children deleted along with them; each with a conflict.
 */
function restoreOwners(ctx: RoundContext, w: Writer, entity: SyncEntity, p: Projection, depth = 0): void {
  if (depth > 3) return;
  for (const f of SYNC_SPECS[entity].fields) {
    if (f.kind.type !== 'ref' || !f.kind.owner) continue;
    const id = p[f.name];
    if (typeof id !== 'string') continue;
    const target = f.kind.entity;
    if (readProjection(ctx.db, ctx.teamId, target, id)) continue;
    const rec = syncRecord(ctx.db, ctx.remote.id, target, id);
    if (!rec?.base || !rec.remoteRecordId) continue;
    restoreOwners(ctx, w, target, rec.base, depth + 1);
    if (!restoreFromBase(ctx, w, target, id)) continue;
    conflictOf(ctx, target, id, {
      kind: 'delete',
      group: 'record',
      fields: [],
      base: rec.base as Record<string, Json>,
      local: null,
      remote: rec.base as Record<string, Json>,
      rule: 'an edit survives a delete: it was deleted here while the remote gave it a new or changed record of its own, so it was restored (with what was deleted along with it)',
      ...codedRule('delete_against_edit_restored_with_owners'),
      winner: 'remote',
    });
    restoreChildren(ctx, w, target, id);
  }
}

/** Restores a record deleted here from its base (what both sides last agreed); false when the store refuses. */
function restoreFromBase(ctx: RoundContext, w: Writer, entity: SyncEntity, localId: string): boolean {
  const rec = syncRecord(ctx.db, ctx.remote.id, entity, localId);
  if (!rec?.base || !rec.remoteRecordId) return false;
  try {
    w.attempt(() => createLocal(w, entity, localId, rec.base!));
  } catch {
    return false;
  }
  agree(ctx, entity, localId, rec.remoteRecordId, rec.base);
  supersedePending(ctx, entity, localId, 'restored: its delete lost to an edit on the remote');
  return true;
}

/** The records that belong to a restored one and were deleted here with it (their deletes not sent yet). */
function restoreChildren(ctx: RoundContext, w: Writer, entity: SyncEntity, localId: string): void {
  for (const [child, spec] of Object.entries(SYNC_SPECS) as [SyncEntity, (typeof SYNC_SPECS)[SyncEntity]][]) {
    for (const f of spec.fields) {
      if (f.kind.type !== 'ref' || !f.kind.owner || f.kind.entity !== entity) continue;
      for (const rec of syncRecordsReferring(ctx.db, ctx.remote.id, child, f.name, localId)) {
        if (readProjection(ctx.db, ctx.teamId, child, rec.localId)) continue;
        if (restoreFromBase(ctx, w, child, rec.localId)) restoreChildren(ctx, w, child, rec.localId);
      }
    }
  }
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
  restoreOwners(ctx, w, entity, remote);
  if (!rec) {
    const target = linkTarget(ctx, entity, remoteRecordId, remote);
    if (target.kind === 'wait') return false;
    if (target.kind === 'new') {
      try {
        const id = w.attempt(() => createLocal(w, entity, remoteRecordId, remote));
        agree(ctx, entity, id, remoteRecordId, remote);
        // Refused by an earlier round and taken now: that conflict is over.
        settleConflicts(ctx.db, ctx.remote.id, entity, remoteRecordId, 'refused');
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
          ...codedRule('local_refused_remote_create', { message: describe(err) }),
          winner: 'local',
        });
        return false;
      }
    }
    localId = target.localId;
    base = target.base;
    if (target.create) {
      finishPush(ctx.db, target.create.id, 'done', 'found on the remote: its answer had been lost');
      // Linked now: the merge below sees it as a known record.
      saveBase(ctx.db, {
        teamId: ctx.teamId,
        remoteId: ctx.remote.id,
        entity,
        localId,
        remoteRecordId,
        base: base!,
        baseSeq: 0,
      });
    }
  }
  const id = localId as string;
  const local = readProjection(ctx.db, ctx.teamId, entity, id);
  const waiting = pendingPushesOf(ctx.db, ctx.remote.id, entity, id);
  if (!local) {
    // Deleted here. An edit there since we last agreed survives the delete: the record comes back, and the
    // conflict says so. Without one, the local delete stands and the push sends it.
    if (base && sameJson(base as Json, remote as Json)) return false;
    let recreated: string;
    try {
      recreated = w.attempt(() => createLocal(w, entity, id, remote));
    } catch (err) {
      conflictOf(ctx, entity, id, {
        kind: 'refused',
        group: 'record',
        fields: [],
        base: (base as Record<string, Json>) ?? null,
        local: null,
        remote: remote as Record<string, Json>,
        rule: `changed on the remote after it was deleted here, but the local store cannot restore it: ${describe(err)}`,
        ...codedRule('local_cannot_restore', { message: describe(err) }),
        winner: 'local',
      });
      return false;
    }
    conflictOf(ctx, entity, recreated, {
      kind: 'delete',
      group: 'record',
      fields: [],
      base: (base as Record<string, Json>) ?? null,
      local: null,
      remote: remote as Record<string, Json>,
      rule: 'an edit survives a delete: the record was deleted here and changed on the remote, so it was restored',
      ...codedRule('delete_against_edit_restored'),
      winner: 'remote',
    });
    supersedePending(ctx, entity, id, 'restored: the delete lost to an edit on the remote');
    agree(ctx, entity, recreated, remoteRecordId, remote);
    return true;
  }
  const mergeBase = base && waiting.length > 0 ? baseWithPending(entity, base, waiting, remote) : base;
  const m = mergeRecord(spec, mergeBase, local, remote, mergeBase ? {} : unchosenValues(ctx, entity, local, remote));
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
        ...codedRule('local_refused_remote_change', { message: describe(err) }),
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
      ...groupRule(c.rule),
      winner: c.winner,
    });
  }
  agree(ctx, entity, id, remoteRecordId, remote);
  if (waiting.length > 0) supersedePending(ctx, entity, id, "merged again with the remote's newer copy");
  const toRemote = withoutKeptLocal(ctx, entity, m.merged, m.toRemote);
  if (Object.keys(toRemote).length > 0 && ctx.caps.entities[entity]?.update) {
    enqueuePush(ctx.db, ctx.teamId, ctx.remote.id, {
      entity,
      localId: id,
      op: 'update',
      payload: toRemote,
      projection: asHeldThere(ctx, entity, m.merged, remote),
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
      recordSeq(ctx.db, ctx.teamId, 'transactions', i.id) === undefined &&
      // Its account is here: a line whose account was deleted here goes the record-by-record way (restored).
      typeof i.record.bankAccountId === 'string' &&
      readProjection(ctx.db, ctx.teamId, 'bank_account', i.record.bankAccountId) !== undefined &&
      // A first round's line already here under another id is linked to it, one by one.
      firstContactTwin(ctx, 'transaction', i.record) === undefined,
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
  // Whatever waited to be sent for it met the delete here: a kept record is created there again instead.
  supersedePending(ctx, entity, rec.localId, 'deleted on the remote');
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
        ...codedRule('local_keeps_remote_delete', { message: describe(err) }),
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
    ...codedRule('delete_against_edit_kept'),
    winner: 'local',
  });
  return false;
}

/**
 * Freezes the create of a local record the remote does not know yet, when it may go there (records that only flow
 * down — a bank connection's accounts, a running timer, notifications — stay). Returns whether an entry was made.
 */
export function freezeCreate(ctx: RoundContext, entity: SyncEntity, localId: string, projection?: Projection): boolean {
  const cap = ctx.caps.entities[entity];
  if (!cap?.create) return false;
  if (pendingCreateOf(ctx.db, ctx.remote.id, entity, localId)) return false;
  const p = projection ?? readProjection(ctx.db, ctx.teamId, entity, localId);
  if (!p || !pushableRecord(ctx.db, ctx.teamId, ctx.remote.id, entity, p)) return false;
  enqueuePush(ctx.db, ctx.teamId, ctx.remote.id, { entity, localId, op: 'create', payload: null, projection: p });
  return true;
}

function pick(p: Projection, fields: readonly string[]): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const f of fields) out[f] = p[f] ?? null;
  return out;
}
