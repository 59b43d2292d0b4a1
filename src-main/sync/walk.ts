import { SYNC_ORDER, type SyncEntity } from '../../src-shared/domain/sync/fields';
import { type Json, type Projection, sameJson } from '../../src-shared/domain/sync/merge';
import { cursorOf, setCursor } from '../store/sync/cursors';
import { countMisses, localIdOf, markSeen, projectionHash, syncRecordByRemoteId } from '../store/sync/records';
import { linkedRecordsOf, trackerEntryYears } from '../store/sync/walk-ranges';
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
async function fetchPage(
  ctx: RoundContext,
  list: ListCapability,
  cursor: string | null,
  years: readonly number[],
): Promise<Page> {
  const parts = list.partitions;
  if (!parts) return fetchPlain(ctx, list, cursor, {}, years);
  const bar = cursor ? cursor.indexOf('|') : -1;
  let index = bar >= 0 ? Number(cursor!.slice(0, bar)) : 0;
  let inner: string | null = bar >= 0 ? cursor!.slice(bar + 1) || null : null;
  for (;;) {
    const value = parts.values[index]!;
    const page = await fetchPlain(ctx, list, inner, { [parts.param]: value }, years);
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
  years: readonly number[],
): Promise<Page> {
  if (list.paging === 'range') {
    // The cursor is the year to walk next (a date in walks begun before: its year).
    const year = cursor ? Number(cursor.slice(0, 4)) : years[0]!;
    const next = years.find((y) => y > year);
    return { records: await fetchYear(ctx, list, year), next: next === undefined ? null : String(next) };
  }
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

/**
 * Tracker entries are listed by date range only (at most a year a request), and a date can be any day: a walk
 * covers the calendar years from six back to one ahead, and every year an entry is dated in here or as last agreed
 * with the remote (docs/decisions/0181). Entries the remote dated elsewhere are found by the projects' totals:
 * a project whose finished entries seen do not add up to its total has entries outside the walk, so years further
 * out are read, nearest first, a budget a round (the search goes on where it stopped next round), and no entry of
 * such a project is taken as absent meanwhile.
 */
const RANGE_BACK_YEARS = 6;
const RANGE_AHEAD_YEARS = 1;
const FAR_PROBES_PER_ROUND = 24;
const FAR_BACK_LIMIT = 1970;
const FAR_AHEAD_YEARS = 50;
/** The cursor row keeping how far from this year the search for entries outside the walk has gone. */
const FAR_CURSOR = 'tracker_entry:far';
/** The remote's projects' totals (seconds of finished entries) by id, read by the round's walk of projects. */
const PROJECT_TOTALS = 'totals:tracker_project';

function rangeYears(ctx: RoundContext): number[] {
  const year = new Date().getUTCFullYear();
  const years = new Set<number>();
  for (let y = year - RANGE_BACK_YEARS; y <= year + RANGE_AHEAD_YEARS; y++) years.add(y);
  for (const y of trackerEntryYears(ctx.db, ctx.teamId, ctx.remote.id)) {
    if (Number.isInteger(y) && y >= 0 && y <= 9999) years.add(y);
  }
  return [...years].sort((a, b) => a - b);
}

async function fetchYear(ctx: RoundContext, list: ListCapability, year: number): Promise<Api[]> {
  const y = String(year).padStart(4, '0');
  const res = await ctx.client.request<{ result?: Record<string, Api[]> }>('GET', list.path, {
    query: { from: `${y}-01-01`, to: `${y}-12-31` },
  });
  if (!ok(res.status)) throw new RemoteUnavailable(`GET ${list.path} answered ${res.status}`);
  return Object.values(res.body?.result ?? {}).flat();
}

/** Adds the seconds of finished entries of these records to their project's (the remote's ids). */
function addDurations(sums: Map<string, number>, records: readonly Api[]): void {
  for (const r of records) {
    if (r.stop === null || r.stop === undefined || typeof r.projectId !== 'string') continue;
    const d = typeof r.duration === 'number' ? r.duration : 0;
    sums.set(r.projectId, (sums.get(r.projectId) ?? 0) + d);
  }
}

/** The remote's projects whose total the entries seen do not make up (no totals known: none). */
function incompleteProjects(ctx: RoundContext, sums: ReadonlyMap<string, number>): string[] {
  const totals = ctx.cache.get(PROJECT_TOTALS) as Map<string, number> | undefined;
  if (!totals) return [];
  return [...totals].filter(([id, total]) => (sums.get(id) ?? 0) !== total).map(([id]) => id);
}

/**
 * Reads years beyond the walk, nearest to this year first, while a project's total says entries lie outside it;
 * returns the projects still not made up when the round's budget or the bounds are reached.
 */
async function probeFarYears(
  ctx: RoundContext,
  walked: WalkOf,
  years: readonly number[],
  sums: Map<string, number>,
): Promise<string[]> {
  let incomplete = incompleteProjects(ctx, sums);
  const thisYear = new Date().getUTCFullYear();
  const planned = new Set(years);
  const from = Number(cursorOf(ctx.db, ctx.remote.id, FAR_CURSOR).walkCursor ?? 0);
  let distance = incomplete.length === 0 ? 0 : from;
  let probes = 0;
  const maxDistance = Math.max(thisYear - FAR_BACK_LIMIT, FAR_AHEAD_YEARS);
  while (incomplete.length > 0 && probes < FAR_PROBES_PER_ROUND && distance < maxDistance) {
    distance++;
    for (const y of [thisYear - distance, thisYear + distance]) {
      if (planned.has(y) || y < FAR_BACK_LIMIT || y > thisYear + FAR_AHEAD_YEARS) continue;
      const records = await fetchYear(ctx, walked.list, y);
      probes++;
      addDurations(sums, records);
      walked.applied += applyProbed(ctx, walked, records);
    }
    incomplete = incompleteProjects(ctx, sums);
  }
  // Made up, or searched to the bounds: the next search starts near this year again.
  const reached = incomplete.length === 0 || distance >= maxDistance ? null : String(distance);
  if (reached !== (from === 0 ? null : String(from))) {
    commit(ctx, () => setCursor(ctx.db, ctx.teamId, ctx.remote.id, FAR_CURSOR, { walkCursor: reached }));
  }
  return incomplete;
}

/** One walk of one entity's list: what every page is applied with. */
interface WalkOf {
  entity: SyncEntity;
  cap: EntityCapability;
  list: ListCapability;
  walk: number;
  slugOf?: (id: string) => string | null;
  applied: number;
}

async function walkEntity(ctx: RoundContext, entity: SyncEntity, cap: EntityCapability, list: ListCapability): Promise<number> {
  const { db, teamId, remote } = ctx;
  const at = cursorOf(db, remote.id, entity);
  const inProgress = at.walkStartedAt !== null;
  const walk = inProgress ? at.walkNo : at.walkNo + 1;
  if (!inProgress)
    setCursor(db, teamId, remote.id, entity, { walkNo: walk, walkCursor: null, walkStartedAt: new Date().toISOString() });
  let cursor = inProgress ? at.walkCursor : null;
  const walked: WalkOf = {
    entity,
    cap,
    list,
    walk,
    slugOf: entity === 'transaction_category' ? await categorySlugs(ctx) : undefined,
    applied: 0,
  };
  const years = list.paging === 'range' ? rangeYears(ctx) : [];
  const sums = new Map<string, number>();
  ctx.progress.set(`walk ${entity}`, 0, 0);
  for (;;) {
    const page = await fetchPage(ctx, list, cursor, years);
    if (entity === 'tracker_project') keepTotals(ctx, page.records);
    if (list.paging === 'range') addDurations(sums, page.records);
    walked.applied += await prepareAndApply(ctx, walked, page);
    ctx.progress.add(page.records.length);
    if (!page.next) break;
    cursor = page.next;
  }
  let unsure: string[] = [];
  if (list.paging === 'range') {
    unsure = await probeFarYears(ctx, walked, years, sums);
    // A resumed walk did not see the pages before it stopped: its sums prove no project whole.
    if (inProgress) unsure = [...((ctx.cache.get(PROJECT_TOTALS) as Map<string, number> | undefined)?.keys() ?? [])];
  }
  await finishWalk(ctx, entity, cap, walk, unsure);
  return walked.applied;
}

/** Keeps the remote projects' totals of the round's walk (the walk of entries checks it saw them all). */
function keepTotals(ctx: RoundContext, records: readonly Api[]): void {
  let totals = ctx.cache.get(PROJECT_TOTALS) as Map<string, number> | undefined;
  if (!totals) {
    totals = new Map();
    ctx.cache.set(PROJECT_TOTALS, totals);
  }
  for (const r of records) if (typeof r.totalDuration === 'number') totals.set(String(r.id), r.totalDuration);
}

interface Prepared {
  id: string;
  projection: Projection | null;
}

/** Reads a page's records as projections (a transaction list item in full when it differs) and applies them. */
async function prepareAndApply(ctx: RoundContext, walked: WalkOf, page: Page): Promise<number> {
  const { db, remote } = ctx;
  const { entity, cap, list } = walked;
  const prepared: (Prepared & { partial: boolean })[] = [];
  for (const r of page.records) {
    const id = String(r.id);
    const partial = entity === 'transaction' && Object.hasOwn(r, 'counterparty_name') && !Object.hasOwn(r, 'note');
    // A partitioned walk knows the field its filter selected (a transaction's stored status).
    const known = page.partition !== undefined && list.partitions ? { ...r, [list.partitions.field]: page.partition } : r;
    prepared.push({
      id,
      projection: toLocalIds(db, remote.id, entity, fromApi(entity, known, { slugOfCategory: walked.slugOf })).projection,
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
  return applyPrepared(ctx, walked, prepared, page.next);
}

/** Records of a far year probed (no walk cursor to move): applied like a walked page. */
function applyProbed(ctx: RoundContext, walked: WalkOf, records: readonly Api[]): number {
  const prepared = records.map((r) => ({
    id: String(r.id),
    projection: toLocalIds(ctx.db, ctx.remote.id, walked.entity, fromApi(walked.entity, r)).projection,
  }));
  return applyPrepared(ctx, walked, prepared, undefined);
}

/** Applies records in one write, marks them seen by the walk, and moves its cursor to `next` (undefined: stays). */
function applyPrepared(
  ctx: RoundContext,
  walked: WalkOf,
  prepared: readonly Prepared[],
  next: string | null | undefined,
): number {
  const { db, teamId, remote } = ctx;
  const { entity, walk } = walked;
  let applied = 0;
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
      if (next !== undefined) setCursor(db, teamId, remote.id, entity, { walkCursor: next });
    },
    { origin: 'sync' },
  );
  return applied;
}

/**
 * A complete walk: records missed by two walks in a row are gone there (after a 404 on their own read, if it has one);
 * entries of projects it did not see whole are not missed.
 */
async function finishWalk(
  ctx: RoundContext,
  entity: SyncEntity,
  cap: EntityCapability,
  walk: number,
  unsureProjects: readonly string[] = [],
): Promise<void> {
  const { db, teamId, remote } = ctx;
  const missed = commit(ctx, () => {
    // Entries of a project the walk did not see whole may lie where it did not read: none of them counts as missed.
    if (unsureProjects.length > 0) {
      const projects = unsureProjects
        .map((id) => localIdOf(db, remote.id, 'tracker_project', id))
        .filter((id): id is string => id !== undefined);
      markSeen(db, remote.id, entity, linkedRecordsOf(db, remote.id, entity, 'projectId', projects), walk);
    }
    return countMisses(db, remote.id, entity, walk);
  });
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
