import { CARRIED_OUT, IDEMPOTENCY_OUTCOME_HEADER } from '../../src-shared/contract/idempotency';
import { type CodedRule, codedRule } from '../../src-shared/domain/sync/conflict-rules';
import { assignedFields, SYNC_SPECS, type SyncEntity, type Winner } from '../../src-shared/domain/sync/fields';
import { changedFields, type Json, type Projection } from '../../src-shared/domain/sync/merge';
import { ENTITIES } from '../store/entities';
import { recordConflict } from '../store/sync/conflicts';
import { createLocal, findLocalByNaturalKey, updateLocal } from '../store/sync/local-writes';
import {
  enqueuePush,
  finishPush,
  isPending,
  lastCreateState,
  markSent,
  noteFailure,
  type OutboxEntry,
  type OutboxOp,
  pendingCreateOf,
  pendingPushes,
} from '../store/sync/outbox';
import { readProjection, recordSeq } from '../store/sync/projections';
import { forgetRecord, localIdOf, remoteIdOf, saveBase, syncRecord } from '../store/sync/records';
import { agree, applyRemoteUpsert, freezeCreate } from './apply';
import { pathFor } from './capabilities';
import { commit, count, LeaseLost, type RoundContext, roundWrite } from './context';
import { settleInvoiceNumber } from './invoice-numbers';
import { asHeldThere, withoutKeptLocal } from './kept-local';
import { lookupByNaturalKey, readBack, remoteRecord } from './lookups';
import { fileContent } from './record-files';
import { toLocalIds, toRemoteIds } from './refs';
import { isNetworkFailure, ok, RemoteUnavailable } from './remote-client';
import { createBody, fromApi, patchBody } from './wire';

/**
 * Sending, the second half of a push (docs/decisions/0140-sync-engine.md): entries oldest first, a record's
 * references before it. An entry's body is made at its first send (references rewritten to the remote's ids, which
 * by then exist) and stored with that attempt, so every retry sends the same bytes with the same Idempotency-Key.
 * Where the remote takes neither a client-chosen id nor a key (a hosted transaction create), a retry first reads back
 * by the fields sent: a record there with those fields and not linked yet is adopted — identical lines are
 * interchangeable — else it is created.
 *
 * What the remote holds after an answered push is what was sent: the base becomes the frozen projection, never the
 * answer (which may carry another field changed there meanwhile; the pull brings that one as the remote's change).
 * The record is agreed at the point it was frozen: an edit made here while the push waited stays to be pushed.
 *
 * An entry the remote fails on (5xx after the client's own retries) waits for the next round without holding up
 * the others; after FAILURE_CAP rounds it is given up and shown as a conflict (the record stays here as it is).
 */
const FAILURE_CAP = 5;

/** A referenced record's push failed this round: the entry waits for the next round. */
class Deferred extends Error {
  override name = 'Deferred';
}

/** Sends every waiting entry (`ops`: only these operations), oldest first. */
export async function sendOutbox(ctx: RoundContext, ops?: readonly OutboxOp[]): Promise<void> {
  let total = 0;
  const passed = new Set<string>();
  for (;;) {
    const entries = pendingPushes(ctx.db, ctx.remote.id, 200 + passed.size, ops).filter((e) => !passed.has(e.id));
    if (entries.length === 0) return;
    if (total === 0) ctx.progress.set('push', 0, entries.length);
    for (const [i, entry] of entries.entries()) {
      // Sent already in a batch of creates.
      if (passed.has(entry.id)) continue;
      passed.add(entry.id);
      // An entry may have been finished out of order (a reference sent first).
      if (!isPending(ctx.db, entry.id)) continue;
      const bulk =
        entry.op === 'create' && entry.attempts === 0 ? ctx.caps.entities[entry.entity as SyncEntity]?.create?.bulk : undefined;
      if (bulk) {
        // Fresh creates of one entity go together (a first round's thousands of entries in tens of requests).
        const batch = [entry];
        for (const e of entries.slice(i + 1)) {
          if (batch.length >= bulk.max) break;
          if (e.entity === entry.entity && e.op === 'create' && e.attempts === 0 && !passed.has(e.id)) batch.push(e);
        }
        for (const e of batch) passed.add(e.id);
        await sendCreates(ctx, batch, bulk.path);
        total += batch.length;
        ctx.progress.add(batch.length);
        continue;
      }
      await sendTracked(ctx, entry);
      total++;
      ctx.progress.add(1);
    }
  }
}

/**
 * Sends one entry; a failure that is the remote's answer to this entry (not an unreachable remote) is noted on it
 * and the round goes on. Returns whether the entry got through (answered, whatever the answer).
 */
async function sendTracked(ctx: RoundContext, entry: OutboxEntry): Promise<boolean> {
  if (ctx.failedEntries.has(entry.id)) return false;
  return tracked(ctx, entry, () => sendEntry(ctx, entry));
}

async function tracked(ctx: RoundContext, entry: OutboxEntry, send: () => Promise<void>): Promise<boolean> {
  try {
    await send();
    return true;
  } catch (err) {
    if (err instanceof Deferred) return false;
    if (!entrySpecific(err)) throw err;
    failed(ctx, entry, err as RemoteUnavailable);
    return false;
  }
}

/** The remote answered this request with a failure (5xx): about the entry, not about reaching the remote. */
function entrySpecific(err: unknown): boolean {
  return err instanceof RemoteUnavailable && !isNetworkFailure(err.message) && !/rate limited/.test(err.message);
}

/** Notes the remote's failure on an entry; after FAILURE_CAP rounds it is given up and shown as a conflict. */
function failed(ctx: RoundContext, entry: OutboxEntry, err: RemoteUnavailable): void {
  ctx.failedEntries.add(entry.id);
  ctx.counts.failed++;
  const failures = commit(ctx, () => noteFailure(ctx.db, entry.id, err.message));
  if (failures < FAILURE_CAP) return;
  commit(ctx, () => {
    finishPush(ctx.db, entry.id, 'conflict', `given up after ${failures} rounds: ${err.message}`);
    conflict(
      ctx,
      entry,
      'refused',
      `the remote failed on this change in ${failures} rounds in a row (${err.message}): it is no longer sent and stays here as it is; take this side to try again`,
      codedRule('given_up_after_failures', { failures, message: err.message }),
      null,
      'local',
    );
  });
}

function conflict(
  ctx: RoundContext,
  entry: OutboxEntry,
  kind: 'refused' | 'delete',
  rule: string,
  coded: CodedRule,
  remote: Projection | null,
  winner: Winner,
) {
  const entity = entry.entity as SyncEntity;
  const created = recordConflict(ctx.db, {
    teamId: ctx.teamId,
    remoteId: ctx.remote.id,
    entity,
    localId: entry.localId,
    kind,
    group: kind === 'delete' ? 'record' : entry.op,
    fields: entry.projection ? Object.keys(entry.projection) : [],
    base: null,
    local: (entry.projection as Record<string, Json>) ?? null,
    remote: (remote as Record<string, Json>) ?? null,
    rule,
    ...coded,
    winner,
  });
  if (created) ctx.counts.conflicts++;
}

function messageOf(body: unknown): string {
  if (body instanceof Error) return body.message;
  if (body && typeof body === 'object') {
    const b = body as { message?: unknown; description?: unknown };
    return [b.message, b.description].filter((x) => typeof x === 'string').join(': ') || JSON.stringify(body).slice(0, 300);
  }
  return String(body);
}

/** The remote's answer as the record it now holds (a create or update answers with the record). */
function answeredRecord(body: unknown): { id?: string; record: unknown } {
  const b = body as Record<string, unknown> | null;
  const record =
    b && typeof b === 'object' && 'data' in b && b.data && typeof b.data === 'object' && !Array.isArray(b.data) ? b.data : b;
  const id = record && typeof record === 'object' ? (record as { id?: unknown }).id : undefined;
  return { id: typeof id === 'string' ? id : undefined, record };
}

/**
 * The base after a create was answered: the record the remote answered with (a new record has no other writer yet:
 * its defaults, the number it gave), or what we sent when it answered with no record. Fields it does not hold
 * (createOnly facts it cannot take) stay as we have them.
 */
function agreedAfterCreate(ctx: RoundContext, entity: SyncEntity, sent: Projection, answer: unknown): Projection {
  if (answer === null || answer === undefined || typeof answer !== 'object') return sent;
  const { projection } = toLocalIds(ctx.db, ctx.remote.id, entity, fromApi(entity, answer));
  const merged: Record<string, Json> = { ...sent };
  for (const f of SYNC_SPECS[entity].fields) if (!f.createOnly) merged[f.name] = projection[f.name] ?? null;
  return merged;
}

/**
 * Saves the base after an answered push. The record is agreed at its current change only when it still holds what
 * was agreed; an edit made since the push was frozen keeps the record's older agreed point, so freezing reads it.
 */
function finishAgreed(ctx: RoundContext, entry: OutboxEntry, remoteRecordId: string, base: Projection): void {
  const entity = entry.entity as SyncEntity;
  commit(ctx, () => {
    const local = readProjection(ctx.db, ctx.teamId, entity, entry.localId);
    const previous = syncRecord(ctx.db, ctx.remote.id, entity, entry.localId);
    const unchanged = local !== undefined && Object.keys(changedFields(SYNC_SPECS[entity], base, local)).length === 0;
    saveBase(ctx.db, {
      teamId: ctx.teamId,
      remoteId: ctx.remote.id,
      entity,
      localId: entry.localId,
      remoteRecordId,
      base,
      baseSeq: unchanged ? (recordSeq(ctx.db, ctx.teamId, ENTITIES[entity].table, entry.localId) ?? 0) : (previous?.baseSeq ?? 0),
    });
    finishPush(ctx.db, entry.id, 'done');
  });
  count(ctx, entity, 'pushed');
}

async function sendEntry(ctx: RoundContext, entry: OutboxEntry): Promise<void> {
  if (entry.op === 'create') return sendCreate(ctx, entry);
  if (entry.op === 'update') return sendUpdate(ctx, entry);
  return sendDelete(ctx, entry);
}

/**
 * Sends the waiting create of a referenced record first (a tag before the customer that carries it). A referenced
 * record whose push failed this round, or was given up, holds the entry back (Deferred).
 */
async function sendReferences(ctx: RoundContext, entity: SyncEntity, p: Projection): Promise<Projection | undefined> {
  let rewritten = toRemoteIds(ctx.db, ctx.remote.id, entity, p);
  for (const m of rewritten.missing) {
    let waiting = pendingCreateOf(ctx.db, ctx.remote.id, m.entity, m.id);
    if (!waiting) {
      if (lastCreateState(ctx.db, ctx.remote.id, m.entity, m.id) === 'conflict') throw new Deferred();
      if (freezeCreate(ctx, m.entity, m.id)) waiting = pendingCreateOf(ctx.db, ctx.remote.id, m.entity, m.id);
    }
    if (waiting && !(await sendTracked(ctx, waiting))) throw new Deferred();
  }
  if (rewritten.missing.length > 0) rewritten = toRemoteIds(ctx.db, ctx.remote.id, entity, p);
  return rewritten.missing.length === 0 ? rewritten.projection : undefined;
}

/** A create's body as first sent, and the local record it came from; undefined when the entry was settled otherwise. */
interface PreparedCreate {
  entry: OutboxEntry;
  local: Projection;
  payload: string;
}

/**
 * The first send of a create: a record with the same unique natural key there is linked instead, an invoice's number
 * is settled, references are sent first; then the body, made once and stored with the attempt.
 */
async function prepareCreate(ctx: RoundContext, entry: OutboxEntry): Promise<PreparedCreate | undefined> {
  const entity = entry.entity as SyncEntity;
  const cap = ctx.caps.entities[entity]?.create;
  let local = readProjection(ctx.db, ctx.teamId, entity, entry.localId) ?? entry.projection;
  if (!cap || !local) {
    commit(ctx, () => finishPush(ctx.db, entry.id, 'done', 'nothing to create: the record is gone here'));
    return undefined;
  }
  const known = syncRecord(ctx.db, ctx.remote.id, entity, entry.localId);
  if (known?.remoteRecordId) {
    // Linked meanwhile (a pull matched it): what is left is an update.
    commit(ctx, () => finishPush(ctx.db, entry.id, 'done'));
    await pushDifference(ctx, entity, entry.localId, known.base, local);
    return undefined;
  }
  // After a complete pull an invoice's twin or number there is known here already: asked only before one (two
  // requests an invoice, a first round's hundreds), else met by the create's answer (409, below).
  if (entity !== 'invoice' || !ctx.pulled) {
    const match = await lookupByNaturalKey(ctx, entity, local);
    if (match) {
      commit(ctx, () => finishPush(ctx.db, entry.id, 'done'));
      linkAndMerge(ctx, entity, match.id, match.projection);
      return undefined;
    }
    if (entity === 'invoice') {
      const settled = await settleInvoiceNumber(ctx, entry, local);
      if (!settled) return undefined;
      local = settled;
    }
  }
  // What the remote cannot hold stays here (kept-local.ts): created there without it, as it will hold it.
  local = asHeldThere(ctx, entity, local, null);
  const remoteRefs = await sendReferences(ctx, entity, local);
  if (!remoteRefs) {
    commit(ctx, () => {
      finishPush(ctx.db, entry.id, 'conflict', 'references a record that cannot be sent to the remote');
      conflict(
        ctx,
        entry,
        'refused',
        'it refers to a record that stays local (a bank connection’s account, a local-only category)',
        codedRule('refers_to_local_only_record'),
        null,
        'local',
      );
    });
    return undefined;
  }
  const fields = cap.fields ? Object.fromEntries(cap.fields.map((f) => [f, remoteRefs[f] ?? null])) : remoteRefs;
  const body = {
    ...createBody(entity, fields),
    ...(await categoryParent(ctx, entity, fields)),
    ...fileContent(ctx, entity, local),
    ...(cap.clientId ? { id: entry.localId } : {}),
  };
  return { entry, local, payload: JSON.stringify(body) };
}

async function sendCreate(ctx: RoundContext, entry: OutboxEntry): Promise<void> {
  const entity = entry.entity as SyncEntity;
  const cap = ctx.caps.entities[entity]?.create;
  if (entry.attempts === 0) {
    const prepared = await prepareCreate(ctx, entry);
    if (!prepared) return;
    commit(ctx, () => markSent(ctx.db, entry.id, prepared.payload));
    return postCreate(ctx, prepared);
  }
  const local = readProjection(ctx.db, ctx.teamId, entity, entry.localId) ?? entry.projection;
  if (!cap || !local) {
    commit(ctx, () => finishPush(ctx.db, entry.id, 'done', 'nothing to create: the record is gone here'));
    return;
  }
  if (syncRecord(ctx.db, ctx.remote.id, entity, entry.localId)?.remoteRecordId) {
    // Linked meanwhile (a pull found it there: its answer had been lost).
    commit(ctx, () => finishPush(ctx.db, entry.id, 'done'));
    return;
  }
  if (!cap.clientId && !cap.idempotencyKey) {
    // The first send may have been created there although its answer was lost: look before sending again.
    const found = await readBack(ctx, entity, entry.projection ?? local, JSON.parse(entry.payload) as Record<string, unknown>);
    if (found.kind === 'one') {
      await finishCreated(ctx, entry, entity, local, found.id, found.record);
      return;
    }
  }
  commit(ctx, () => markSent(ctx.db, entry.id, entry.payload));
  return postCreate(ctx, { entry, local, payload: entry.payload });
}

/** Sends a create's stored bytes and takes the answer: the record there, a twin of it, or a refusal to show. */
async function postCreate(ctx: RoundContext, { entry, local, payload }: PreparedCreate): Promise<void> {
  const entity = entry.entity as SyncEntity;
  const cap = ctx.caps.entities[entity]!.create!;
  const res = await ctx.client.request('POST', cap.path, {
    rawBody: payload,
    idempotencyKey: cap.idempotencyKey ? entry.idempotencyKey : undefined,
    // A create with our own id is an upsert there: sending it twice makes one record.
    retrySafe: cap.clientId || cap.idempotencyKey,
  });
  if (res.status === 409) {
    // Already there? A create whose answer was lost and whose key the remote no longer holds, or a twin made there
    // meanwhile: take it instead of refusing.
    const existing = await existingTwin(ctx, entity, entry, local, cap.clientId);
    if (existing) {
      if (existing.id === (cap.clientId ? entry.localId : undefined))
        await finishCreated(ctx, entry, entity, local, existing.id, existing.record);
      else {
        commit(ctx, () => finishPush(ctx.db, entry.id, 'done'));
        linkAndMerge(ctx, entity, existing.id, existing.projection);
      }
      return;
    }
    if (entity === 'invoice' && typeof local.invoiceNumber === 'string') {
      // Its number is another invoice's there: settled as before a create (a draft gives it up, an issued one stays).
      const settled = await settleInvoiceNumber(ctx, entry, local);
      if (!settled) return;
      if (settled.invoiceNumber === null) {
        commit(ctx, () => {
          finishPush(ctx.db, entry.id, 'done', 'its number was taken there: sent again without one');
          freezeCreate(ctx, entity, entry.localId);
        });
        return;
      }
    }
  }
  if (!ok(res.status)) {
    commit(ctx, () => {
      finishPush(ctx.db, entry.id, 'conflict', `${res.status} ${messageOf(res.body)}`);
      conflict(
        ctx,
        entry,
        'refused',
        `the remote refused the new record (${res.status}): ${messageOf(res.body)}; it stays here only`,
        codedRule('refused_by_remote_create', { status: res.status, message: messageOf(res.body) }),
        null,
        'local',
      );
    });
    return;
  }
  const answer = answeredRecord(res.body);
  await finishCreated(ctx, entry, entity, local, answer.id ?? entry.localId, answer.record);
}

/**
 * Fresh creates of one entity in one request (the remote's bulk route: all or nothing, answered in order). An entry
 * a batch cannot carry (its reference failed) waits; a batch the remote refuses creates nothing there, so each of its
 * entries is then sent on its own and meets its own answer. A lost answer leaves every entry of the batch unanswered:
 * each is settled on its own next round (its id there, or read back).
 */
async function sendCreates(ctx: RoundContext, batch: readonly OutboxEntry[], path: string): Promise<void> {
  const prepared: PreparedCreate[] = [];
  for (const entry of batch) {
    if (ctx.failedEntries.has(entry.id)) continue;
    try {
      const p = await prepareCreate(ctx, entry);
      if (p) prepared.push(p);
    } catch (err) {
      if (!(err instanceof Deferred)) throw err;
    }
  }
  if (prepared.length === 0) return;
  const first = prepared[0]!;
  if (prepared.length === 1) {
    commit(ctx, () => markSent(ctx.db, first.entry.id, first.payload));
    await tracked(ctx, first.entry, () => postCreate(ctx, first));
    return;
  }
  const cap = ctx.caps.entities[first.entry.entity as SyncEntity]!.create!;
  commit(ctx, () => {
    for (const p of prepared) markSent(ctx.db, p.entry.id, p.payload);
  });
  let res: Awaited<ReturnType<typeof ctx.client.request>>;
  try {
    res = await ctx.client.request('POST', path, {
      rawBody: `[${prepared.map((p) => p.payload).join(',')}]`,
      idempotencyKey: cap.idempotencyKey ? `${first.entry.idempotencyKey}-bulk` : undefined,
      retrySafe: cap.clientId || cap.idempotencyKey,
    });
  } catch (err) {
    if (!entrySpecific(err)) throw err;
    for (const p of prepared) failed(ctx, p.entry, err as RemoteUnavailable);
    return;
  }
  const answers = (res.body as { data?: unknown[] } | null)?.data;
  if (ok(res.status) && Array.isArray(answers) && answers.length === prepared.length) {
    for (const [i, p] of prepared.entries()) {
      const answer = answeredRecord(answers[i]);
      await tracked(ctx, p.entry, () =>
        finishCreated(ctx, p.entry, p.entry.entity as SyncEntity, p.local, answer.id ?? p.entry.localId, answer.record),
      );
    }
    return;
  }
  if (ok(res.status))
    throw new RemoteUnavailable(`POST ${path}: an answer that does not list the ${prepared.length} records sent`);
  // Refused as a whole (one of them broke a rule there): nothing was made; each goes on its own.
  for (const p of prepared) await tracked(ctx, p.entry, () => postCreate(ctx, p));
}

/**
 * A category names its parent by slug in its projection, by id in the API: the remote's id of the parent with that
 * slug (through the id map, else the remote's own list). Nothing for other entities or when the parent is unchanged.
 */
async function categoryParent(
  ctx: RoundContext,
  entity: SyncEntity,
  fields: Readonly<Record<string, Json>>,
): Promise<{ parentId?: string | null }> {
  if (entity !== 'transaction_category' || !Object.hasOwn(fields, 'parentSlug')) return {};
  const slug = fields.parentSlug;
  if (typeof slug !== 'string') return { parentId: null };
  const localParent = findLocalByNaturalKey(ctx.db, ctx.teamId, 'transaction_category', { slug });
  const mapped = localParent ? remoteIdOf(ctx.db, ctx.remote.id, 'transaction_category', localParent) : undefined;
  if (mapped) return { parentId: mapped };
  const twin = await lookupByNaturalKey(ctx, 'transaction_category', { slug });
  return twin ? { parentId: twin.id } : {};
}

/** The remote record a refused create meant: ours by id (a chosen id), or the twin with the same natural key. */
async function existingTwin(
  ctx: RoundContext,
  entity: SyncEntity,
  entry: OutboxEntry,
  local: Projection,
  byId: boolean,
): Promise<{ id: string; record: unknown; projection: Projection } | undefined> {
  const get = ctx.caps.entities[entity]?.get;
  if (byId && get) {
    const res = await ctx.client.request('GET', pathFor(get, entry.localId));
    if (ok(res.status)) {
      return {
        id: entry.localId,
        record: res.body,
        projection: toLocalIds(ctx.db, ctx.remote.id, entity, fromApi(entity, res.body)).projection,
      };
    }
  }
  ctx.cache.delete(`list:${entity}`);
  const twin = await lookupByNaturalKey(ctx, entity, local);
  return twin ? { id: twin.id, record: null, projection: twin.projection } : undefined;
}

async function finishCreated(
  ctx: RoundContext,
  entry: OutboxEntry,
  entity: SyncEntity,
  local: Projection,
  remoteId: string,
  answer: unknown,
): Promise<void> {
  const other = localIdOf(ctx.db, ctx.remote.id, entity, remoteId);
  if (other !== undefined && other !== entry.localId) {
    // The remote answered with a record another local one is linked to: it merged the two (an upsert by a key
    // that is not unique). Two records here stay two; this one is not linked to the other's copy.
    commit(ctx, () => {
      finishPush(ctx.db, entry.id, 'conflict', `the remote answered with ${remoteId}, the copy of another record`);
      conflict(
        ctx,
        entry,
        'refused',
        'the remote took this new record for another one it holds (it answered with that one): both stay separate here, and this one is not on the remote',
        codedRule('remote_merged_records'),
        null,
        'local',
      );
    });
    return;
  }
  const agreed = agreedAfterCreate(ctx, entity, local, answer);
  const now = takeAssigned(ctx, entity, entry, local, agreed);
  finishAgreed(ctx, entry, remoteId, agreed);
  // What the create body could not carry (a transaction's review fields, tax override, reviewed flag; an invoice's
  // lifecycle) follows.
  await pushDifference(ctx, entity, entry.localId, agreed, now);
}

/**
 * What the remote gave the new record (an invoice's number) and the local one lacks is taken into it. A value this
 * store cannot take (the number is an issued invoice's here) is a conflict to show; the record stays linked.
 */
function takeAssigned(ctx: RoundContext, entity: SyncEntity, entry: OutboxEntry, local: Projection, agreed: Projection) {
  const given: Record<string, Json> = {};
  for (const f of assignedFields(SYNC_SPECS[entity])) {
    if ((local[f] ?? null) === null && (agreed[f] ?? null) !== null) given[f] = agreed[f]!;
  }
  if (Object.keys(given).length === 0) return local;
  const full = { ...local, ...given };
  try {
    roundWrite(ctx, (w) => updateLocal(w, entity, entry.localId, given, full));
    return full;
  } catch (err) {
    if (err instanceof LeaseLost) throw err;
    commit(ctx, () =>
      conflict(
        ctx,
        entry,
        'refused',
        `the local store refused what the remote gave the record: ${messageOf(err)}`,
        codedRule('local_refused_remote_answer', { message: messageOf(err) }),
        agreed,
        'local',
      ),
    );
    return local;
  }
}

/** The remote's answer to a retried Idempotency-Key whose first request was carried out but never answered. */
function carriedOut(res: { status: number; headers: Headers }): boolean {
  return res.status === 409 && res.headers.get(IDEMPOTENCY_OUTCOME_HEADER) === CARRIED_OUT;
}

/** Sends the groups in which `local` differs from `base` as an update of its own (frozen and sent now). */
async function pushDifference(
  ctx: RoundContext,
  entity: SyncEntity,
  localId: string,
  base: Projection | null,
  local: Projection,
) {
  if (!base || !ctx.caps.entities[entity]?.update) return;
  const diff = withoutKeptLocal(ctx, entity, local, changedFields(SYNC_SPECS[entity], base, local));
  if (Object.keys(diff).length === 0) return;
  const projection = asHeldThere(ctx, entity, local, base);
  const entry = commit(ctx, () =>
    enqueuePush(ctx.db, ctx.teamId, ctx.remote.id, { entity, localId, op: 'update', payload: diff, projection }),
  );
  await sendTracked(ctx, entry);
}

/**
 * Links a local record to the remote one with the same natural key and merges them like a pulled record (no base:
 * a value nobody chose gives way, real differences are conflicts); what the local side keeps is frozen as an update.
 */
function linkAndMerge(ctx: RoundContext, entity: SyncEntity, remoteId: string, remote: Projection): void {
  roundWrite(ctx, (w) => applyRemoteUpsert(ctx, w, entity, remoteId, remote));
}

async function sendUpdate(ctx: RoundContext, entry: OutboxEntry): Promise<void> {
  const entity = entry.entity as SyncEntity;
  const cap = ctx.caps.entities[entity]?.update;
  const rec = syncRecord(ctx.db, ctx.remote.id, entity, entry.localId);
  if (!cap || !rec?.remoteRecordId || !entry.projection) {
    commit(ctx, () => finishPush(ctx.db, entry.id, 'done', 'nothing to update: the remote does not hold this record'));
    return;
  }
  let payload = entry.payload;
  if (entry.attempts === 0) {
    const fields = JSON.parse(entry.payload) as Record<string, Json>;
    for (const f of cap.alwaysSend ?? []) if (!Object.hasOwn(fields, f)) fields[f] = entry.projection[f] ?? null;
    const full = await sendReferences(ctx, entity, entry.projection);
    const rewritten = toRemoteIds(ctx.db, ctx.remote.id, entity, fields);
    if (!full || rewritten.missing.length > 0) {
      commit(ctx, () => {
        finishPush(ctx.db, entry.id, 'conflict', 'references a record that cannot be sent to the remote');
        conflict(
          ctx,
          entry,
          'refused',
          'it refers to a record that stays local',
          codedRule('refers_to_local_only_record'),
          null,
          'local',
        );
      });
      return;
    }
    payload = JSON.stringify({
      ...patchBody(entity, rewritten.projection, full),
      ...(await categoryParent(ctx, entity, rewritten.projection)),
    });
  }
  commit(ctx, () => markSent(ctx.db, entry.id, payload));
  const res = await ctx.client.request(cap.method, pathFor(cap.path, rec.remoteRecordId), {
    rawBody: payload,
    idempotencyKey: cap.idempotencyKey ? entry.idempotencyKey : undefined,
  });
  if (res.status === 404) {
    // Deleted there while changed here: the edit survives; the record is created there again.
    commit(ctx, () => {
      forgetRecord(ctx.db, ctx.remote.id, entity, entry.localId);
      finishPush(ctx.db, entry.id, 'done', 'deleted on the remote');
      conflict(
        ctx,
        entry,
        'delete',
        'an edit survives a delete: the record was deleted on the remote and changed here, so it is created there again',
        codedRule('delete_against_edit_created_again'),
        null,
        'local',
      );
      freezeCreate(ctx, entity, entry.localId);
    });
    return;
  }
  // A 409 "carried out" (a retry after the remote's process stopped between its commit and its answer): the change
  // is made there, as if answered.
  if (!ok(res.status) && !carriedOut(res)) {
    commit(ctx, () => finishPush(ctx.db, entry.id, 'conflict', `${res.status} ${messageOf(res.body)}`));
    const remoteNow = await remoteRecord(ctx, entity, rec.remoteRecordId);
    const followed = remoteNow ? followRefusal(ctx, entity, entry.localId, rec.remoteRecordId, remoteNow) : false;
    commit(ctx, () =>
      conflict(
        ctx,
        entry,
        'refused',
        followed
          ? `the remote refused the change (${res.status}): ${messageOf(res.body)}; this side took the remote's values (its copy stands)`
          : `the remote refused the change (${res.status}): ${messageOf(res.body)}; this side keeps its values`,
        codedRule(followed ? 'refused_by_remote_change_followed' : 'refused_by_remote_change_kept', {
          status: res.status,
          message: messageOf(res.body),
        }),
        remoteNow,
        followed ? 'remote' : 'local',
      ),
    );
    return;
  }
  // What the remote holds now of this record, as far as this push goes: what was sent (never the answer).
  const base: Record<string, Json> = { ...(rec.base ?? {}) };
  for (const f of SYNC_SPECS[entity].fields) if (!f.createOnly) base[f.name] = entry.projection[f.name] ?? null;
  finishAgreed(ctx, entry, rec.remoteRecordId, base);
}

/**
 * The remote refused a change (its copy's state forbids it: an invoice settled there meanwhile): its copy stands,
 * and this side takes it where they differ, so both agree again; the conflict keeps the refused values for a person
 * to take with one action. Returns false when this store refuses the remote's values in turn (the record stays).
 */
function followRefusal(
  ctx: RoundContext,
  entity: SyncEntity,
  localId: string,
  remoteRecordId: string,
  remote: Projection,
): boolean {
  const local = readProjection(ctx.db, ctx.teamId, entity, localId);
  if (!local) return false;
  const diff = changedFields(SYNC_SPECS[entity], local, remote);
  try {
    roundWrite(ctx, (w) => {
      if (Object.keys(diff).length > 0) updateLocal(w, entity, localId, diff, { ...local, ...diff });
      agree(ctx, entity, localId, remoteRecordId, remote);
    });
    return true;
  } catch (err) {
    if (err instanceof LeaseLost) throw err;
    return false;
  }
}

async function sendDelete(ctx: RoundContext, entry: OutboxEntry): Promise<void> {
  const entity = entry.entity as SyncEntity;
  const path = ctx.caps.entities[entity]?.delete;
  const rec = syncRecord(ctx.db, ctx.remote.id, entity, entry.localId);
  if (!path || !rec?.remoteRecordId) {
    commit(ctx, () => finishPush(ctx.db, entry.id, 'done'));
    return;
  }
  commit(ctx, () => markSent(ctx.db, entry.id, entry.payload));
  const res = await ctx.client.request('DELETE', pathFor(path, rec.remoteRecordId));
  if (ok(res.status) || res.status === 404) {
    commit(ctx, () => {
      forgetRecord(ctx.db, ctx.remote.id, entity, entry.localId);
      finishPush(ctx.db, entry.id, 'done');
    });
    count(ctx, entity, 'pushed');
    return;
  }
  // Refused there (it holds records of its own that this side did not know): its copy stands and comes back here.
  commit(ctx, () => finishPush(ctx.db, entry.id, 'conflict', `${res.status} ${messageOf(res.body)}`));
  const remoteNow = await remoteRecord(ctx, entity, rec.remoteRecordId);
  let restored = false;
  if (remoteNow) {
    try {
      roundWrite(ctx, (w) => {
        createLocal(w, entity, entry.localId, remoteNow);
        agree(ctx, entity, entry.localId, rec.remoteRecordId!, remoteNow);
      });
      restored = true;
    } catch (err) {
      if (err instanceof LeaseLost) throw err;
    }
  }
  commit(ctx, () =>
    conflict(
      ctx,
      entry,
      'delete',
      restored
        ? `the remote refused the delete (${res.status}): ${messageOf(res.body)}; its copy stands, so the record was restored here`
        : `the remote refused the delete (${res.status}): ${messageOf(res.body)}; it is deleted here only`,
      codedRule(restored ? 'refused_by_remote_delete_restored' : 'refused_by_remote_delete_kept', {
        status: res.status,
        message: messageOf(res.body),
      }),
      remoteNow ?? rec.base,
      restored ? 'remote' : 'local',
    ),
  );
}
