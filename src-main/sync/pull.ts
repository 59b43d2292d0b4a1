import type { SyncChangesPage } from '../../src-shared/contract/sync';
import { isSyncEntity, SYNC_ORDER, SYNC_SPECS, type SyncEntity } from '../../src-shared/domain/sync/fields';
import type { Projection } from '../../src-shared/domain/sync/merge';
import { cursorOf, setCursor } from '../store/sync/cursors';
import { localCategorySlugs } from '../store/sync/local-writes';
import { localIdOf } from '../store/sync/records';
import { type Writer, write } from '../store/write';
import { applyFreshTransactions, applyRemoteDelete, applyRemoteUpsert } from './apply';
import { checkLease, count, type RoundContext } from './context';
import { categorySlugs } from './lookups';
import { fetchRecordFiles, recordFetchedFiles } from './record-files';
import { toLocalIds } from './refs';
import { ok, RemoteUnavailable } from './remote-client';
import { fromApi } from './wire';

/**
 * The pull half of a round against a Finops Desk remote (docs/decisions/0140-sync-engine.md): its change feed,
 * page by page from the cursor this replica keeps. Each page is applied in dependency order (a tag before the
 * customer that carries it; deletes children first), with the records it refers to but does not hold fetched first,
 * and committed together with the cursor that covers it: a round killed after any page resumes after that page and
 * applies nothing twice.
 */

interface Item {
  entity: SyncEntity;
  id: string;
  op: 'upsert' | 'delete';
  record: Projection | null;
}

const rank = (e: SyncEntity) => SYNC_ORDER.indexOf(e);

/** Upserts parents first, then deletes children first. */
export function dependencyOrder<T extends { entity: SyncEntity; op: 'upsert' | 'delete' }>(items: readonly T[]): T[] {
  const upserts = items.filter((i) => i.op === 'upsert').sort((a, b) => rank(a.entity) - rank(b.entity));
  const deletes = items.filter((i) => i.op === 'delete').sort((a, b) => rank(b.entity) - rank(a.entity));
  return [...upserts, ...deletes];
}

/**
 * Pulls the remote's feed until it has nothing more; returns the records applied, or false when the remote has no
 * feed (it answers 404: not a Finops Desk server with its extensions, or no longer one).
 */
export async function pullFeed(ctx: RoundContext): Promise<number | false> {
  let since = Number(cursorOf(ctx.db, ctx.remote.id).pullCursor ?? 0);
  let applied = 0;
  let first = true;
  for (;;) {
    const res = await ctx.client.request<SyncChangesPage>('GET', '/sync/changes', { query: { since, limit: ctx.pageSize } });
    if (res.status === 404 && first) return false;
    if (!ok(res.status) || !res.body || !Array.isArray(res.body.data)) {
      throw new RemoteUnavailable(
        `GET /sync/changes answered ${res.status}: the remote has no change feed (is it a Finops Desk server with extensions on?)`,
      );
    }
    const page = res.body;
    if (first) {
      ctx.progress.set('pull', 0, Math.max(0, page.currentSeq - since));
      first = false;
    }
    const items: Item[] = page.data
      .filter((c) => isSyncEntity(c.entity))
      .map((c) => ({ entity: c.entity as SyncEntity, id: c.id, op: c.op, record: c.record as Projection | null }));
    const extra = await fetchUnknownReferences(ctx, items);
    const { files, gone } = await fetchRecordFiles(ctx, items);
    const present = gone.size === 0 ? items : items.filter((i) => !gone.has(`${i.entity}:${i.id}`));
    write(
      ctx.db,
      ctx.teamId,
      (w) => {
        checkLease(ctx);
        recordFetchedFiles(ctx, w, files);
        applied += applyPage(ctx, w, dependencyOrder([...extra, ...present]));
        setCursor(ctx.db, ctx.teamId, ctx.remote.id, '*', { pullCursor: String(page.cursor) });
      },
      { origin: 'sync' },
    );
    ctx.progress.add(page.data.length);
    since = page.cursor;
    if (!page.hasMore) {
      ctx.progress.set('pull', ctx.progress.total, ctx.progress.total);
      return applied;
    }
  }
}

/**
 * Applies one page in dependency order. The page's transactions this replica has never seen (a first round's bulk)
 * are created in one ledger write, once the records they refer to are in; everything else record by record.
 */
function applyPage(ctx: RoundContext, w: Writer, ordered: readonly Item[]): number {
  const txRank = SYNC_ORDER.indexOf('transaction');
  const parents = ordered.filter((i) => i.op === 'upsert' && SYNC_ORDER.indexOf(i.entity) < txRank);
  let applied = 0;
  for (const item of parents) if (applyItem(ctx, w, item)) applied++;
  const txs = ordered
    .filter((i) => i.entity === 'transaction' && i.op === 'upsert' && i.record)
    .map((i) => ({ id: i.id, record: toLocalIds(ctx.db, ctx.remote.id, 'transaction', i.record!).projection }));
  const created = applyFreshTransactions(ctx, w, txs);
  for (const _ of created) count(ctx, 'transaction', 'pulled');
  applied += created.size;
  const done = new Set<Item>(parents);
  for (const item of ordered) {
    if (done.has(item) || (item.entity === 'transaction' && item.op === 'upsert' && created.has(item.id))) continue;
    if (applyItem(ctx, w, item)) applied++;
  }
  return applied;
}

function applyItem(ctx: RoundContext, w: Writer, item: Item): boolean {
  let changed = false;
  if (item.op === 'delete') changed = applyRemoteDelete(ctx, w, item.entity, item.id);
  else if (item.record) {
    const { projection } = toLocalIds(ctx.db, ctx.remote.id, item.entity, item.record);
    changed = applyRemoteUpsert(ctx, w, item.entity, item.id, projection);
  }
  if (changed) count(ctx, item.entity, 'pulled');
  return changed;
}

/**
 * Records a page refers to that this replica does not know and the page does not hold (the feed is in commit
 * order, not dependency order: a transaction can come before the tag it carries, renamed later): fetched by id from
 * the remote, and their own references in turn. Categories are named by slug: unknown slugs fetch the category list.
 */
async function fetchUnknownReferences(ctx: RoundContext, items: readonly Item[]): Promise<Item[]> {
  const have = new Set(items.map((i) => `${i.entity}\u0000${i.id}`));
  const fetched: Item[] = [];
  let pending = items;
  for (let depth = 0; depth < 4 && pending.length > 0; depth++) {
    const wanted = new Map<SyncEntity, Set<string>>();
    for (const item of pending) {
      if (!item.record) continue;
      for (const f of SYNC_SPECS[item.entity].fields) {
        if (f.kind.type === 'value') continue;
        const target = f.kind.entity;
        const raw = item.record[f.name];
        const ids = f.kind.type === 'ref' ? (typeof raw === 'string' ? [raw] : []) : Array.isArray(raw) ? (raw as string[]) : [];
        for (const id of ids) {
          if (have.has(`${target}\u0000${id}`) || localIdOf(ctx.db, ctx.remote.id, target, id) !== undefined) continue;
          let set = wanted.get(target);
          if (!set) {
            set = new Set();
            wanted.set(target, set);
          }
          set.add(id);
        }
      }
    }
    const next: Item[] = [];
    for (const [entity, ids] of wanted) {
      const list = [...ids];
      for (let i = 0; i < list.length; i += 500) {
        const res = await ctx.client.request<{ data?: { id: string; record: Projection }[] }>('GET', '/sync/records', {
          query: { entity, ids: list.slice(i, i + 500) },
        });
        for (const r of res.body?.data ?? []) {
          const item: Item = { entity, id: r.id, op: 'upsert', record: r.record };
          have.add(`${entity}\u0000${r.id}`);
          next.push(item);
        }
      }
    }
    fetched.push(...next);
    pending = next;
  }
  return [...(await missingCategories(ctx, [...items, ...fetched])), ...fetched];
}

/** Categories named by slug in these records (a transaction's, its split parts', a category's parent) that are not here. */
async function missingCategories(ctx: RoundContext, items: readonly Item[]): Promise<Item[]> {
  if (!ctx.caps.entities.transaction_category) return [];
  const local = localCategorySlugs(ctx.db, ctx.teamId);
  const inPage = new Set(items.filter((i) => i.entity === 'transaction_category').map((i) => String(i.record?.slug)));
  const wanted = new Set<string>();
  for (const i of items) {
    const r = i.record;
    if (!r) continue;
    const slugs = [
      r.categorySlug,
      r.parentSlug,
      ...(Array.isArray(r.splits) ? (r.splits as { categorySlug?: unknown }[]).map((s) => s.categorySlug) : []),
    ];
    for (const s of slugs) if (typeof s === 'string' && !local.has(s) && !inPage.has(s)) wanted.add(s);
  }
  if (wanted.size === 0) return [];
  const slugOf = await categorySlugs(ctx);
  const all = (ctx.cache.get('list:transaction_category') as Record<string, unknown>[] | undefined) ?? [];
  return all
    .filter((c) => wanted.has(String(c.slug)) || (typeof c.id === 'string' && [...wanted].includes(slugOf(c.id) ?? '')))
    .map((c) => ({
      entity: 'transaction_category' as const,
      id: String(c.id),
      op: 'upsert' as const,
      record: fromApi('transaction_category', c, { slugOfCategory: slugOf }),
    }));
}
