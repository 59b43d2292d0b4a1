import type { SyncEntity } from '../../src-shared/domain/sync/fields';
import { sameInvoice } from '../../src-shared/domain/sync/invoices';
import type { Projection } from '../../src-shared/domain/sync/merge';
import { localIdOf } from '../store/sync/records';
import { pathFor } from './capabilities';
import type { RoundContext } from './context';
import { hasNaturalFields, sameNatural } from './natural';
import { toLocalIds } from './refs';
import { ok } from './remote-client';
import { fromApi } from './wire';

/**
 * Reads of the remote that decide a push (docs/decisions/0140-sync-engine.md): a record with the same natural key
 * (tag name, category slug, an invoice's number with its content) is looked up before a create — look up, never upsert blind — and an
 * unanswered create on a remote without ids or keys is read back by the fields it sent before it is sent again.
 */

type Api = Record<string, unknown>;

/** A remote list, every page (once per round: kept in the round's cache). */
async function listAll(ctx: RoundContext, entity: SyncEntity): Promise<Api[]> {
  const key = `list:${entity}`;
  const cached = ctx.cache.get(key) as Api[] | undefined;
  if (cached) return cached;
  const cap = ctx.caps.entities[entity]?.list;
  if (!cap || cap.paging === 'range') return [];
  const data: Api[] = [];
  let cursor: string | null = null;
  for (;;) {
    const query: Record<string, string | number | readonly string[]> = { ...(cap.query ?? {}) };
    if (cap.paging === 'page') query.pageSize = cap.pageSize ?? 100;
    if (cursor) query.cursor = cursor;
    const res: { status: number; body: { data?: Api[]; meta?: { cursor?: string | null }; cursor?: string | null } } =
      await ctx.client.request('GET', cap.path, { query });
    const page = ok(res.status) && Array.isArray(res.body?.data) ? res.body.data : [];
    data.push(...page);
    cursor = cap.paging === 'page' ? (res.body?.meta?.cursor ?? res.body?.cursor ?? null) : null;
    if (!cursor || page.length === 0) break;
  }
  ctx.cache.set(key, data);
  return data;
}

/** A remote category's slug by its id (categories name their parent by id in the API). */
export async function categorySlugs(ctx: RoundContext): Promise<(id: string) => string | null> {
  const all = await listAll(ctx, 'transaction_category');
  const byId = new Map(all.map((c) => [String(c.id), String(c.slug)]));
  return (id) => byId.get(id) ?? null;
}

export interface Found {
  id: string;
  /** The remote record as a projection with local ids. */
  projection: Projection;
}

function found(ctx: RoundContext, entity: SyncEntity, record: Api, slugOf?: (id: string) => string | null): Found {
  const p = fromApi(entity, record, { slugOfCategory: slugOf });
  return { id: String(record.id), projection: toLocalIds(ctx.db, ctx.remote.id, entity, p).projection };
}

/**
 * Reads the whole lists of the entities matched by a natural key through their list (tags, categories), once per
 * round, so freezing can link a new local record to its remote twin at once instead of sending a create for it (a
 * new replica's default taxonomy is the remote's, slug by slug).
 */
export async function prefetchNaturalKeys(ctx: RoundContext): Promise<void> {
  for (const entity of ['tag', 'transaction_category'] as const) {
    if (ctx.caps.entities[entity]?.naturalKey) await listAll(ctx, entity);
  }
}

/** The remote twin of a local record among the prefetched lists (see prefetchNaturalKeys); undefined if none. */
export function prefetchedTwin(ctx: RoundContext, entity: SyncEntity, local: Projection): Found | undefined {
  const key = ctx.caps.entities[entity]?.naturalKey;
  const all = ctx.cache.get(`list:${entity}`) as Api[] | undefined;
  const wanted = key ? local[key] : undefined;
  if (!all || typeof wanted !== 'string' || wanted === '') return undefined;
  const hit = all.find(
    (r) =>
      typeof r[key!] === 'string' &&
      (r[key!] as string).toLowerCase() === wanted.toLowerCase() &&
      localIdOf(ctx.db, ctx.remote.id, entity, String(r.id)) === undefined,
  );
  if (!hit) return undefined;
  const slugs = entity === 'transaction_category' ? new Map(all.map((c) => [String(c.id), String(c.slug)])) : undefined;
  return found(ctx, entity, hit, slugs ? (id) => slugs.get(id) ?? null : undefined);
}

export async function lookupByNaturalKey(ctx: RoundContext, entity: SyncEntity, local: Projection): Promise<Found | undefined> {
  const key = ctx.caps.entities[entity]?.naturalKey;
  if (!key) return undefined;
  const wanted = local[key];
  if (typeof wanted !== 'string' || wanted === '') return undefined;
  const same = (v: unknown) => typeof v === 'string' && v.toLowerCase() === wanted.toLowerCase();
  // A remote record already linked to another local record is not a match for this one.
  const free = (r: Api) => localIdOf(ctx.db, ctx.remote.id, entity, String(r.id)) === undefined;
  if (entity === 'invoice') {
    // The same number and the same content: a twin (a reconnected replica's invoice). The same number alone is a
    // collision, which the push of a numbered invoice settles (invoice-numbers.ts).
    const hits = (await remoteInvoices(ctx, { q: wanted })).filter((r) => same(r.invoiceNumber) && free(r));
    return hits.map((r) => found(ctx, entity, r)).find((f) => sameInvoice(f.projection, local));
  }
  const all = await listAll(ctx, entity);
  const hit = all.find((r) => same(r[key]) && free(r));
  if (!hit) return undefined;
  return found(ctx, entity, hit, entity === 'transaction_category' ? await categorySlugs(ctx) : undefined);
}

/**
 * The remote's invoices a list query gives, every page (filters the remote may not know, like `q` on the hosted
 * service, then only cost a longer walk: callers match exactly on what they read).
 */
export async function remoteInvoices(ctx: RoundContext, query: Record<string, string | readonly string[]>): Promise<Api[]> {
  const out: Api[] = [];
  let cursor: string | null = null;
  for (;;) {
    const res: { status: number; body: { data?: Api[]; meta?: { cursor?: string | null } } | undefined } =
      await ctx.client.request('GET', '/invoices', { query: { ...query, pageSize: 100, ...(cursor ? { cursor } : {}) } });
    const data = ok(res.status) && Array.isArray(res.body?.data) ? res.body.data : [];
    out.push(...data);
    cursor = res.body?.meta?.cursor ?? null;
    if (!cursor || data.length === 0) return out;
  }
}

export type ReadBack = { kind: 'none' } | { kind: 'one'; id: string; record: Api };

/**
 * Looks on the remote for the record an unanswered create may have made (a remote that takes neither our id nor a
 * key): a record there with the natural fields of what was sent (natural.ts) and not linked to any local record yet.
 * Identical records are interchangeable, so the first one not linked is ours: two identical lines sent, each
 * answered or not, end as two there; one made there meanwhile by someone else stays theirs once ours is adopted.
 * `sent` is the frozen projection (local ids), `body` the bytes sent.
 */
export async function readBack(
  ctx: RoundContext,
  entity: SyncEntity,
  sent: Projection,
  body: Record<string, unknown>,
): Promise<ReadBack> {
  if (entity === 'invoice') return readBackInvoice(ctx, body);
  const free = (r: Api) => localIdOf(ctx.db, ctx.remote.id, entity, String(r.id)) === undefined;
  const mine = (r: Api) =>
    free(r) && sameNatural(entity, sent, toLocalIds(ctx.db, ctx.remote.id, entity, fromApi(entity, r)).projection);
  let candidates: Api[];
  if (entity === 'transaction') {
    const day = String(sent.date);
    const res = await ctx.client.request<{ data?: Api[] }>('GET', '/transactions', {
      query: {
        start: day,
        end: day,
        accounts: [String(body.bankAccountId)],
        statuses: ['posted', 'pending', 'excluded', 'completed', 'archived', 'exported'],
        pageSize: 1000,
      },
    });
    candidates = res.body?.data ?? [];
  } else if (entity === 'tracker_entry') {
    const day = String(sent.date);
    const res = await ctx.client.request<{ result?: Record<string, Api[]> }>('GET', '/tracker-entries', {
      query: { from: day, to: day },
    });
    candidates = Object.values(res.body?.result ?? {}).flat();
  } else {
    if (!hasNaturalFields(entity)) return { kind: 'none' };
    ctx.cache.delete(`list:${entity}`);
    candidates = await listAll(ctx, entity);
  }
  const hit = candidates.find(mine);
  if (!hit) return { kind: 'none' };
  if (entity !== 'transaction') return { kind: 'one', id: String(hit.id), record: hit };
  // A list item carries a few fields: the record in full becomes the base.
  const detail = await ctx.client.request<Api>('GET', pathFor('/transactions/:id', String(hit.id)));
  return { kind: 'one', id: String(hit.id), record: ok(detail.status) ? detail.body : hit };
}

/** The remote's current record as a projection with local ids; null when it is gone or cannot be read. */
export async function remoteRecord(ctx: RoundContext, entity: SyncEntity, remoteId: string): Promise<Projection | null> {
  if (ctx.caps.feed) {
    const res = await ctx.client.request<{ data?: { id: string; record: Projection }[] }>('GET', '/sync/records', {
      query: { entity, ids: [remoteId] },
    });
    const rec = res.body?.data?.[0]?.record;
    return rec ? toLocalIds(ctx.db, ctx.remote.id, entity, rec).projection : null;
  }
  const get = ctx.caps.entities[entity]?.get;
  if (!get) return null;
  const res = await ctx.client.request<Api>('GET', pathFor(get, remoteId));
  if (!ok(res.status)) return null;
  const slugOf = entity === 'transaction_category' ? await categorySlugs(ctx) : undefined;
  return toLocalIds(ctx.db, ctx.remote.id, entity, fromApi(entity, res.body, { slugOfCategory: slugOf })).projection;
}

/**
 * An unanswered invoice create, read back: the remote's invoices of that customer and issue day, not linked yet,
 * with the content sent (its number too, when one was sent). The create body has the API's names, so it reads as a
 * projection like the remote's records do.
 */
async function readBackInvoice(ctx: RoundContext, body: Record<string, unknown>): Promise<ReadBack> {
  const sent = fromApi('invoice', body);
  const day = String(sent.issueDate);
  const query: Record<string, string | string[]> = { start: day, end: day };
  if (typeof body.customerId === 'string') query.customers = [body.customerId];
  const hits = (await remoteInvoices(ctx, query)).filter(
    (r) =>
      localIdOf(ctx.db, ctx.remote.id, 'invoice', String(r.id)) === undefined &&
      (typeof body.invoiceNumber !== 'string' || r.invoiceNumber === body.invoiceNumber) &&
      sameInvoice(fromApi('invoice', r), sent),
  );
  return hits.length === 0 ? { kind: 'none' } : { kind: 'one', id: String(hits[0]!.id), record: hits[0]! };
}
