import { type DefaultCategory, defaultCategories } from '../../src-shared/domain/categories';
import type { GroupSpec, SyncEntity, Winner } from '../../src-shared/domain/sync/fields';
import { type Json, type MergeOptions, type Projection, sameJson } from '../../src-shared/domain/sync/merge';
import { getTeam } from '../store/teams/teams';
import type { RoundContext } from './context';

/**
 * Values nobody chose (issue 34): when a record is matched without a base — a default category of a new remote
 * linked by its slug to this team's, a record found again by its id after a reconnect — a value one side holds only
 * because the record was made with it never beats a value a person set on the other side. Empty values count as
 * unchosen everywhere (merge.ts); here, what a default category is made with on each side: the default taxonomy
 * resolved for that side's team country (src-shared/domain/categories.ts), so a German team's 19 % VAT is never
 * replaced by the empty rate of a remote team that has no country yet.
 */

const DEFAULT_FIELD: Readonly<Record<string, (d: DefaultCategory) => Json>> = {
  name: (d) => d.name,
  color: (d) => d.color,
  description: (d) => d.description,
  taxRate: (d) => d.taxRate,
  taxType: (d) => d.taxType,
  taxReportingCode: () => null,
  excluded: (d) => d.excluded,
  parentSlug: (d) => d.parentSlug,
};

function defaultsOf(country: string | null | undefined): Map<string, DefaultCategory> {
  return new Map(defaultCategories(country).map((d) => [d.slug, d]));
}

/** The merge's notion of "nobody chose this" for an entity, for one record's two sides. */
export function unchosenValues(ctx: RoundContext, entity: SyncEntity, local: Projection, remote: Projection): MergeOptions {
  if (entity !== 'transaction_category') return {};
  const slug = typeof local.slug === 'string' ? local.slug : typeof remote.slug === 'string' ? remote.slug : null;
  if (!slug) return {};
  const localCountry = getTeam(ctx.db, ctx.teamId)?.countryCode ?? null;
  const here = defaultsOf(localCountry).get(slug);
  const there = defaultsOf(ctx.remoteTeam?.countryCode ?? null).get(slug);
  return {
    unchosen: (side: Winner, group: GroupSpec, value: Record<string, Json>) => {
      const d = side === 'local' ? here : there;
      if (!d) return false;
      return group.fields.every((f) => DEFAULT_FIELD[f] !== undefined && sameJson(value[f], DEFAULT_FIELD[f]!(d)));
    },
  };
}
