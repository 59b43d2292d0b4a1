import { DEFAULT_TAXONOMY } from '../../src-shared/domain/categories';
import { SYNC_SPECS, type SyncEntity } from '../../src-shared/domain/sync/fields';
import type { Json, Projection } from '../../src-shared/domain/sync/merge';
import type { RoundContext } from './context';

/**
 * What a remote cannot hold of a record, decided field by field (issue 34, 11), kept here only: never sent, and never
 * taken back from the remote's copy, which holds what it held before. The hosted service has no category routes, so
 * it knows the default taxonomy's slugs and no team's own: a transaction's category group (its slug with the tax
 * that comes with it) naming a category of this team's own stays local; every other field of the line syncs. The
 * remote keeps its earlier category, and a later change of it there meets the local one in the merge as any edit.
 * A Finops Desk remote holds every category: nothing is kept back there.
 */
const DEFAULT_SLUGS = new Set(DEFAULT_TAXONOMY.map((c) => c.slug));

export function keptLocalFields(ctx: RoundContext, entity: SyncEntity, p: Projection | null | undefined): readonly string[] {
  if (ctx.caps.feed || entity !== 'transaction' || !p) return [];
  const slug = p.categorySlug;
  if (typeof slug !== 'string' || DEFAULT_SLUGS.has(slug)) return [];
  return SYNC_SPECS.transaction.groups.find((g) => g.name === 'category')!.fields;
}

/** `fields` without the ones kept local for the record `p`. */
export function withoutKeptLocal(
  ctx: RoundContext,
  entity: SyncEntity,
  p: Projection | null | undefined,
  fields: Readonly<Record<string, Json>>,
): Record<string, Json> {
  const kept = keptLocalFields(ctx, entity, p);
  const out: Record<string, Json> = { ...fields };
  for (const f of kept) delete out[f];
  return out;
}

/** The record as the remote will hold it once `p` is sent: the kept-local fields as `held` has them (null if none). */
export function asHeldThere(
  ctx: RoundContext,
  entity: SyncEntity,
  p: Projection,
  held: Projection | null | undefined,
): Projection {
  const kept = keptLocalFields(ctx, entity, p);
  if (kept.length === 0) return p;
  const out: Record<string, Json> = { ...p };
  for (const f of kept) out[f] = held?.[f] ?? null;
  return out;
}
