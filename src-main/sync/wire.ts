import { SYNC_SPECS, type SyncEntity } from '../../src-shared/domain/sync/fields';
import { apiLineItems } from '../../src-shared/domain/sync/invoices';
import type { Json, Projection } from '../../src-shared/domain/sync/merge';
import { toUnitPrice } from '../../src-shared/domain/unit-price';
import { currencyExponent, toMajor, toMinor } from '../../src-shared/money';

/**
 * Between sync projections and the v1 API's bodies (docs/decisions/0140-sync-engine.md). `fromApi` turns a record
 * as a remote's API answers it into a projection (references still in the remote's ids); `createBody` and
 * `patchBody` turn a projection (references already rewritten to the remote's ids) into what the remote's create
 * and update routes take: major units, the API's field names, no derived fields. The hosted service and a Finops
 * Desk server share these shapes; where they differ the capability table (capabilities.ts) says so.
 */

type Api = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const boolOr = (v: unknown, fallback: boolean): boolean => (typeof v === 'boolean' ? v : fallback);
const day = (v: unknown): string | null => (typeof v === 'string' ? v.slice(0, 10) : null);
const tagIds = (v: unknown): string[] =>
  Array.isArray(v)
    ? v
        .map((t) => (t && typeof t === 'object' ? str((t as Api).id) : str(t)))
        .filter((x): x is string => x !== null)
        .sort()
    : [];
const minor = (amount: unknown, currency: string | null): number | null => {
  const n = num(amount);
  if (n === null || !currency) return null;
  return toMinor(n, currency);
};
/** A unit price (unit-price.ts): `priceScale` only where the price has decimals beyond the currency's. */
const unitPrice = (amount: unknown, currency: string | null): { priceMinor: number; priceScale?: number } => {
  const n = num(amount);
  return n === null || !currency ? { priceMinor: 0 } : toUnitPrice(n, currency);
};
const major = (amountMinor: Json | undefined, currency: Json | undefined): number | null =>
  typeof amountMinor === 'number' && typeof currency === 'string' ? toMajor(amountMinor, currency) : null;

/** Category parent ids of a remote, by id → slug (a remote's category record names its parent by id). */
export type SlugOfId = (remoteCategoryId: string) => string | null;

export interface FromApiContext {
  slugOfCategory?: SlugOfId;
}

const FROM_API: { readonly [E in SyncEntity]: (r: Api, ctx: FromApiContext) => Projection } = {
  tag: (r) => ({ name: str(r.name) ?? '' }),
  transaction_category: (r, ctx) => ({
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
  bank_account: (r) => ({
    name: str(r.name) ?? '',
    type: str(r.type) ?? 'depository',
    currency: str(r.currency) ?? '',
    enabled: boolOr(r.enabled, true),
    manual: boolOr(r.manual, true),
  }),
  customer: (r) => {
    const p: Record<string, Json> = {};
    for (const f of SYNC_SPECS.customer.fields) {
      if (f.name === 'tags') continue;
      const value = r[f.name];
      p[f.name] = value === undefined ? null : (value as Json);
    }
    p.tags = tagIds(r.tags);
    return p;
  },
  invoice: (r) => {
    const currency = str(r.currency) ?? '';
    const {
      currency: _c,
      timezone,
      deliveryType: _d,
      ...template
    } = (r.template && typeof r.template === 'object' ? r.template : {}) as Api;
    const status = str(r.status) ?? 'draft';
    return {
      invoiceNumber: str(r.invoiceNumber) || null,
      // A deleted customer's id stays on its invoices (shown with `customer: null`): no reference to follow.
      customerId: r.customer === null ? null : str(r.customerId),
      customerName: str(r.customerName),
      currency,
      lineItems: Array.isArray(r.lineItems)
        ? (r.lineItems as Api[]).map((l) => ({
            name: str(l.name) ?? '',
            quantity: num(l.quantity) ?? 0,
            unit: str(l.unit),
            ...unitPrice(l.price, currency),
            vatRate: num(l.vat),
            taxRate: num(l.taxRate) ?? num(l.tax),
          }))
        : [],
      discountMinor: minor(r.discount, currency) ?? 0,
      issueDate: day(r.issueDate) ?? '',
      dueDate: day(r.dueDate) ?? '',
      supplyDate: day(r.supplyDate),
      supplyEndDate: day(r.supplyEndDate),
      timezone: str(r.timezone) ?? str(timezone) ?? 'UTC',
      template: template as Json,
      note: str(r.note),
      internalNote: str(r.internalNote),
      status: status === 'overdue' ? 'unpaid' : status,
      scheduledAt: str(r.scheduledAt),
    };
  },
  tracker_project: (r) => {
    const currency = str(r.currency);
    return {
      name: str(r.name) ?? '',
      description: str(r.description),
      estimate: num(r.estimate),
      billable: boolOr(r.billable, false),
      rateMinor: minor(r.rate, currency),
      currency,
      status: str(r.status) ?? 'in_progress',
      customerId: str(r.customerId),
      tags: tagIds(r.tags),
    };
  },
  tracker_entry: (r) => ({
    projectId: str(r.projectId) ?? '',
    date: day(r.date) ?? '',
    start: str(r.start) ?? '',
    stop: str(r.stop),
    durationSeconds: num(r.duration) ?? 0,
    description: str(r.description),
  }),
  transaction: (r) => {
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
  transaction_attachment: (r) => ({
    transactionId: str(r.transactionId) ?? '',
    sha256: str(r.sha256) ?? '',
    size: num(r.size) ?? 0,
    mimetype: str(r.mimetype) ?? '',
    fileName: str(r.fileName),
  }),
  document: (r) => {
    const meta = (r.metadata && typeof r.metadata === 'object' ? r.metadata : {}) as Api;
    return {
      sha256: str(meta.sha256) ?? '',
      size: num(meta.size) ?? 0,
      mimetype: str(meta.mimetype) ?? '',
      fileName: str(r.fileName) ?? '',
      pathTokens: Array.isArray(r.pathTokens) ? (r.pathTokens.filter((t) => typeof t === 'string') as string[]) : [],
      title: str(r.title) ?? '',
      date: day(r.date),
      summary: str(r.summary),
    };
  },
  notification: (r) => ({
    type: str(r.type) ?? '',
    priority: num(r.priority) ?? 5,
    source: str(r.source) ?? 'system',
    metadata: (r.metadata && typeof r.metadata === 'object' ? r.metadata : {}) as Json,
    status: str(r.status) ?? 'unread',
  }),
};

export function fromApi(entity: SyncEntity, record: unknown, ctx: FromApiContext = {}): Projection {
  return FROM_API[entity]((record ?? {}) as Api, ctx);
}

const tagRefs = (v: Json | undefined) => (Array.isArray(v) ? (v as string[]).map((id) => ({ id })) : []);

/** The body of a patch for these projection fields (a whole projection for a create). */
function body(
  entity: SyncEntity,
  fields: Readonly<Record<string, Json>>,
  full: Projection,
  forCreate: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const has = (f: string) => Object.hasOwn(fields, f);
  switch (entity) {
    case 'tag':
    case 'bank_account':
    case 'transaction_attachment':
    case 'notification':
      for (const [k, v] of Object.entries(fields)) out[k] = v;
      break;
    case 'document':
      // The upload takes a folder path; its last token is the file name, which travels as fileName.
      for (const [k, v] of Object.entries(fields)) {
        if (k !== 'pathTokens') out[k] = v;
        else if (Array.isArray(v) && v.length > 1) out.folder = v.slice(0, -1).join('/');
      }
      break;
    case 'transaction_category':
      for (const [k, v] of Object.entries(fields)) if (k !== 'parentSlug') out[k] = v;
      break;
    case 'customer':
      for (const [k, v] of Object.entries(fields)) out[k] = k === 'tags' ? tagRefs(v) : v;
      break;
    case 'invoice':
      for (const [k, v] of Object.entries(fields)) {
        // A number not given yet is left for the remote to give; a time not set is left out (never "cleared").
        if ((k === 'invoiceNumber' || k === 'scheduledAt' || k === 'timezone') && v === null) continue;
        if (k === 'discountMinor') out.discount = major(v, full.currency) ?? 0;
        else if (k === 'lineItems') out.lineItems = apiLineItems(v, full.currency);
        else out[k] = v;
      }
      break;
    case 'tracker_project':
      for (const [k, v] of Object.entries(fields)) {
        if (k === 'rateMinor') out.rate = major(v, full.currency);
        else if (k === 'tags') out.tags = tagRefs(v);
        else out[k] = v;
      }
      break;
    case 'tracker_entry':
      for (const [k, v] of Object.entries(fields)) out[k === 'durationSeconds' ? 'duration' : k] = v;
      break;
    case 'transaction': {
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
      if (has('taxRate') && fields.taxRate === null && fields.categorySlug === undefined) out.taxRate = null;
      break;
    }
  }
  return out;
}

export function patchBody(entity: SyncEntity, fields: Readonly<Record<string, Json>>, full: Projection): Record<string, unknown> {
  const createOnly = new Set(SYNC_SPECS[entity].fields.filter((f) => f.createOnly).map((f) => f.name));
  const writable: Record<string, Json> = {};
  for (const [k, v] of Object.entries(fields)) if (!createOnly.has(k)) writable[k] = v;
  return body(entity, writable, full, false);
}

export function createBody(entity: SyncEntity, p: Projection): Record<string, unknown> {
  return body(entity, p, p, true);
}

/** Exponent check for money fields (a currency the remote and we both know). */
export function knownCurrency(code: string): boolean {
  try {
    currencyExponent(code);
    return true;
  } catch {
    return false;
  }
}
