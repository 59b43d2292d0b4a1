import { SYNC_ORDER, type SyncEntity } from '../../src-shared/domain/sync/fields';
import { type Json, type Projection, sameJson } from '../../src-shared/domain/sync/merge';
import { cursorOf, setCursor } from '../store/sync/cursors';
import { countMisses, markSeen, projectionHash, syncRecordByRemoteId } from '../store/sync/records';
import { write } from '../store/write';
import { applyRemoteDelete, applyRemoteUpsert } from './apply';
import { type EntityCapability, type ListCapability, pathFor } from './capabilities';
import { checkLease, commit, count, type RoundContext } from './context';
import { categorySlugs } from './lookups';
import { toLocalIds } from './refs';
import { ok, RemoteUnavailable } from './remote-client';
import { fromApi } from './wire';

/**
 * The pull half of a round against a remote without a change feed (the hosted service, a `--spec-only` server):
 * complete walks of its lists with filters that leave nothing out (every transaction status: a default list hides
 * excluded and archived rows), each record compared with its base by content hash, changed ones merged
 * (docs/decisions/0140-sync-engine.md). A walk resumes after a crash from the page it reached. A record is gone
 * there only after a 404 on its own read, or absence from two complete walks in a row (an offset-paged list can
 * skip a row while the remote changes; a walk cut short proves nothing).
 */

type Api = Record<string, unknown>;

/** Fields a spec transaction list item carries; a change to these is seen without reading the record in full. */
const TX_LIST_FIELDS = ['name', 'date', 'description', 'counterpartyName', 'amountMinor', 'categorySlug', 'currency', 'status'];

export async function pullWalks(ctx: RoundContext): Promise<number> {
  let applied = 0;
  for (const entity of SYNC_ORDER) {
    const cap = ctx.caps.entities[entity];
    if (!cap?.list) continue;
    applied += await walkEntity(ctx, entity, cap, cap.list);
  }
  return applied;
}

interface Page {
  records: Api[];
  next: string | null;
  /** The value of the partition this page belongs to (partitioned lists), for the records' partition field. */
  partition?: string;
}

/** A partitioned list's cursor is `index|page cursor`: the partition walked and where in it. */
async function fetchPage(ctx: RoundContext, list: ListCapability, cursor: string | null): Promise<Page> {
  const parts = list.partitions;
  if (!parts) return fetchPlain(ctx, list, cursor, {});
  const bar = cursor ? cursor.indexOf('|') : -1;
  let index = bar >= 0 ? Number(cursor!.slice(0, bar)) : 0;
  let inner: string | null = bar >= 0 ? cursor!.slice(bar + 1) || null : null;
  for (;;) {
    const value = parts.values[index]!;
    const page = await fetchPlain(ctx, list, inner, { [parts.param]: value });
    const next = page.next ? `${index}|${page.next}` : index + 1 < parts.values.length ? `${index + 1}|` : null;
    if (page.records.length > 0 || next === null) return { records: page.records, next, partition: value };
    index++;
    inner = null;
  }
}

async function fetchPlain(
  ctx: RoundContext,
  list: ListCapability,
  cursor: string | null,
  extra: Record<string, string>,
): Promise<Page> {
  if (list.paging === 'range') return fetchRange(ctx, list, cursor);
  const query: Record<string, string | number | readonly string[]> = { ...(list.query ?? {}), ...extra };
  if (list.paging === 'page') {
    query.pageSize = list.pageSize ?? 100;
    if (cursor) query.cursor = cursor;
  }
  const res = await ctx.client.request<{
    data?: Api[];
    meta?: { cursor?: string | null; hasNextPage?: boolean };
    cursor?: string | null;
  }>('GET', list.path, { query });
  if (!ok(res.status) || !Array.isArray(res.body?.data)) throw new RemoteUnavailable(`GET ${list.path} answered ${res.status}`);
  const next = list.paging === 'page' ? (res.body.meta?.cursor ?? res.body.cursor ?? null) : null;
  return { records: res.body.data, next: next && res.body.data.length > 0 ? next : null };
}

/** Tracker entries are listed by date range only: a year at a time, from six years back to one ahead. */
const RANGE_DAYS = 366;
const RANGE_FROM_YEARS = 6;

async function fetchRange(ctx: RoundContext, list: ListCapability, cursor: string | null): Promise<Page> {
  const today = new Date();
  const start = cursor ? new Date(`${cursor}T00:00:00Z`) : new Date(Date.UTC(today.getUTCFullYear() - RANGE_FROM_YEARS, 0, 1));
  const end = new Date(start.getTime() + (RANGE_DAYS - 1) * 86_400_000);
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const res = await ctx.client.request<{ result?: Record<string, Api[]> }>('GET', list.path, {
    query: { from: day(start), to: day(end) },
  });
  if (!ok(res.status)) throw new RemoteUnavailable(`GET ${list.path} answered ${res.status}`);
  const records = Object.values(res.body?.result ?? {}).flat();
  const nextStart = new Date(end.getTime() + 86_400_000);
  const last = new Date(Date.UTC(today.getUTCFullYear() + 1, 11, 31));
  return { records, next: nextStart > last ? null : day(nextStart) };
}

async function walkEntity(ctx: RoundContext, entity: SyncEntity, cap: EntityCapability, list: ListCapability): Promise<number> {
  const { db, teamId, remote } = ctx;
  const at = cursorOf(db, remote.id, entity);
  const inProgress = at.walkStartedAt !== null;
  const walk = inProgress ? at.walkNo : at.walkNo + 1;
  if (!inProgress)
    setCursor(db, teamId, remote.id, entity, { walkNo: walk, walkCursor: null, walkStartedAt: new Date().toISOString() });
  let cursor = inProgress ? at.walkCursor : null;
  let applied = 0;
  const slugOf = entity === 'transaction_category' ? await categorySlugs(ctx) : undefined;
  ctx.progress.set(`walk ${entity}`, 0, 0);
  for (;;) {
    const page = await fetchPage(ctx, list, cursor);
    const prepared: { id: string; projection: Projection | null; partial: boolean }[] = [];
    for (const r of page.records) {
      const id = String(r.id);
      const partial = entity === 'transaction' && Object.hasOwn(r, 'counterparty_name') && !Object.hasOwn(r, 'note');
      // A partitioned walk knows the field its filter selected (a transaction's stored status).
      const known = page.partition !== undefined && list.partitions ? { ...r, [list.partitions.field]: page.partition } : r;
      prepared.push({
        id,
        projection: toLocalIds(db, remote.id, entity, fromApi(entity, known, { slugOfCategory: slugOf })).projection,
        partial,
      });
    }
    // List items of transactions carry a few fields: when those agree with the base, the record counts as seen;
    // otherwise (or when new) it is read in full.
    for (const p of prepared) {
      if (!p.partial) continue;
      const rec = syncRecordByRemoteId(db, remote.id, entity, p.id);
      if (rec?.base && TX_LIST_FIELDS.every((f) => sameJson(rec.base![f] as Json, p.projection![f] as Json))) {
        p.projection = rec.base;
        continue;
      }
      const res = cap.get ? await ctx.client.request<Api>('GET', pathFor(cap.get, p.id)) : undefined;
      p.projection = res && ok(res.status) ? toLocalIds(db, remote.id, entity, fromApi(entity, res.body)).projection : null;
    }
    write(
      db,
      teamId,
      (w) => {
        checkLease(ctx);
        const seen: string[] = [];
        for (const p of prepared) {
          if (!p.projection) continue;
          const rec = syncRecordByRemoteId(db, remote.id, entity, p.id);
          if (rec?.baseHash !== projectionHash(p.projection)) {
            if (applyRemoteUpsert(ctx, w, entity, p.id, p.projection)) {
              applied++;
              count(ctx, entity, 'pulled');
            }
          }
          const now = syncRecordByRemoteId(db, remote.id, entity, p.id);
          if (now) seen.push(now.localId);
        }
        markSeen(db, remote.id, entity, seen, walk);
        setCursor(db, teamId, remote.id, entity, { walkCursor: page.next });
      },
      { origin: 'sync' },
    );
    ctx.progress.add(page.records.length);
    if (!page.next) break;
    cursor = page.next;
  }
  await finishWalk(ctx, entity, cap, walk);
  return applied;
}

/** A complete walk: records missed by two walks in a row are gone there (after a 404 on their own read, if it has one). */
async function finishWalk(ctx: RoundContext, entity: SyncEntity, cap: EntityCapability, walk: number): Promise<void> {
  const { db, teamId, remote } = ctx;
  const missed = commit(ctx, () => countMisses(db, remote.id, entity, walk));
  const gone: string[] = [];
  const back: { id: string; projection: Projection }[] = [];
  for (const rec of missed) {
    if (!rec.remoteRecordId) continue;
    if (cap.get) {
      const res = await ctx.client.request<Api>('GET', pathFor(cap.get, rec.remoteRecordId));
      if (ok(res.status)) {
        back.push({
          id: rec.remoteRecordId,
          projection: toLocalIds(db, remote.id, entity, fromApi(entity, res.body)).projection,
        });
        continue;
      }
      if (res.status !== 404) continue;
    }
    gone.push(rec.remoteRecordId);
  }
  write(
    db,
    teamId,
    (w) => {
      checkLease(ctx);
      for (const b of back) applyRemoteUpsert(ctx, w, entity, b.id, b.projection);
      for (const id of gone) if (applyRemoteDelete(ctx, w, entity, id)) count(ctx, entity, 'pulled');
      setCursor(db, teamId, remote.id, entity, {
        walkCursor: null,
        walkStartedAt: null,
        lastCompleteWalkAt: new Date().toISOString(),
      });
    },
    { origin: 'sync' },
  );
}
