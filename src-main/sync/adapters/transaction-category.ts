import type { SyncAdapter } from './adapter';
import { ALL_PAGES, crud } from './capability';
import { boolOr, num, str } from './values';

export const transactionCategory: SyncAdapter<'transaction_category'> = {
  entity: 'transaction_category',
  fromApi: (r, ctx) => ({
    slug: str(r.slug) ?? '',
    name: str(r.name) ?? '',
    color: str(r.color) ?? '',
    description: str(r.description),
    taxRate: num(r.taxRate),
    taxType: str(r.taxType),
    taxReportingCode: str(r.taxReportingCode),
    excluded: boolOr(r.excluded, false),
    parentSlug: str(r.parentSlug) ?? (str(r.parentId) && ctx.slugOfCategory ? ctx.slugOfCategory(str(r.parentId)!) : null),
  }),
  body: (fields) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(fields)) if (k !== 'parentSlug') out[k] = v;
    return out;
  },
  natural: ['slug'],
  finops: crud({ path: '/transaction-categories', list: ALL_PAGES, clientId: true, key: true, naturalKey: 'slug' }),
  // No category routes there: categories stay local; transactions name them by slug, which both sides share.
  hosted: null,
};
