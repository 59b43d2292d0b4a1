import type { Json } from '../../../src-shared/domain/sync/merge';
import type { SyncAdapter } from './adapter';
import { crud } from './capability';
import { type Api, boolOr, day, major, minor, num, str, tagIds, tagRefs } from './values';

const TX_CREATE_FIELDS = [
  'bankAccountId',
  'name',
  'amountMinor',
  'currency',
  'date',
  'categorySlug',
  'note',
  'internal',
  'description',
  'counterpartyName',
  'method',
  'tags',
  'splits',
] as const;

const ALL_STATUSES = ['posted', 'pending', 'excluded', 'completed', 'archived', 'exported'] as const;

const TRANSACTION_LIST = {
  paging: 'page',
  pageSize: 500,
  partitions: { param: 'statuses', values: ALL_STATUSES, field: 'status' },
} as const;

export const transaction: SyncAdapter<'transaction'> = {
  entity: 'transaction',
  fromApi: (r) => {
    const currency = str(r.currency) ?? '';
    const category = r.category && typeof r.category === 'object' ? (r.category as Api) : null;
    // The detailed record shows the effective tax; only an override belongs to the transaction itself. A Finops
    // Desk server says which (ownTaxRate, ownTaxType); otherwise a rate other than the category's is taken for one.
    const overridden = typeof r.taxOverridden === 'boolean' ? r.taxOverridden : num(r.taxRate) !== num(category?.taxRate);
    const own = (x: Api, field: 'Rate' | 'Type', effective: () => Json) =>
      Object.hasOwn(x, `ownTax${field}`) ? ((x[`ownTax${field}`] ?? null) as Json) : effective();
    const splits = Array.isArray(r.splits)
      ? (r.splits as Api[]).map((s) => ({
          amountMinor: minor(s.amount, currency) ?? 0,
          categorySlug: str(s.category) ?? str(s.categorySlug),
          taxRate: own(s, 'Rate', () => num(s.taxRate)),
          taxType: own(s, 'Type', () => str(s.taxType)),
          note: str(s.note),
        }))
      : [];
    return {
      bankAccountId: str(r.bankAccountId) ?? str((r.account as Api | undefined)?.id) ?? str(r.accountId) ?? '',
      currency,
      manual: boolOr(r.manual, true),
      method: str(r.method) ?? 'other',
      name: str(r.name) ?? '',
      date: day(r.date) ?? '',
      description: str(r.description),
      counterpartyName: str(r.counterpartyName) ?? str(r.counterparty_name),
      amountMinor: minor(r.amount, currency) ?? 0,
      splits,
      categorySlug: category ? str(category.slug) : (str(r.categorySlug) ?? (typeof r.category === 'string' ? r.category : null)),
      taxRate: own(r, 'Rate', () => (overridden ? num(r.taxRate) : null)),
      taxType: own(r, 'Type', () => (overridden ? str(r.taxType) : null)),
      status: str(r.status) ?? 'posted',
      note: str(r.note),
      internal: boolOr(r.internal, false),
      recurring: boolOr(r.recurring, false),
      frequency: str(r.frequency),
      reviewed: typeof r.reviewedAt === 'string',
      tags: tagIds(r.tags),
    };
  },
  body: (fields, full, forCreate) => {
    const out: Record<string, unknown> = {};
    const currency = full.currency;
    for (const [k, v] of Object.entries(fields)) {
      if (k === 'amountMinor') out.amount = major(v, currency);
      else if (k === 'splits') {
        // A create has no split to remove (it takes none or at least two parts); an update sends null to remove.
        if (forCreate && (!Array.isArray(v) || v.length === 0)) continue;
        out.splits =
          Array.isArray(v) && v.length > 0
            ? (v as Record<string, Json>[]).map((s) => ({
                amount: major(s.amountMinor, currency),
                categorySlug: s.categorySlug ?? null,
                taxRate: s.taxRate ?? null,
                taxType: s.taxType ?? null,
                note: s.note ?? null,
              }))
            : null;
      } else if (k === 'tags') out.tags = tagRefs(v);
      else out[k] = v;
    }
    if (Object.hasOwn(fields, 'taxRate') && fields.taxRate === null && fields.categorySlug === undefined) out.taxRate = null;
    return out;
  },
  natural: ['bankAccountId', 'date', 'amountMinor', 'name'],
  finops: crud({
    path: '/transactions',
    list: TRANSACTION_LIST,
    clientId: true,
    key: true,
    createFields: [...TX_CREATE_FIELDS, 'manual'],
    bulk: 100,
  }),
  // No id and no Idempotency-Key there: after an unanswered create, read back by the fields sent before retrying.
  hosted: crud({
    path: '/transactions',
    list: TRANSACTION_LIST,
    clientId: false,
    key: false,
    createFields: TX_CREATE_FIELDS,
    bulk: 100,
  }),
};
