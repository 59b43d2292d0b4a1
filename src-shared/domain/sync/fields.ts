/**
 * What the sync engine exchanges of each entity: its sync projection (docs/decisions/0140-sync-engine.md).
 *
 * A projection is a record reduced to the fields a person or client writes, normalised so that two replicas holding
 * the same facts hold equal projections: amounts in integer minor units, days as `YYYY-MM-DD`, tags as a sorted set
 * of ids, categories by slug (their natural key), splits in order. Derived data (balances, base amounts, daily
 * roll-ups, review states, totals, field sources, embedded names) is never in a projection: each side recomputes it.
 * Base, hash, three-way merge and push all use the projection, so a change of derived data alone never syncs.
 *
 * References (`ref`, `refs`) hold local ids; the engine rewrites them through the id map when it speaks to a remote.
 * A field marked `createOnly` is sent with a create and never compared afterwards (a transaction's account, its
 * currency, whether it came from a bank). Fields that resolve as one unit are a `group` (splits with the amount,
 * the category with its tax): a merge takes a group from one side whole, never half from each.
 */
export type SyncEntity =
  | 'tag'
  | 'transaction_category'
  | 'bank_account'
  | 'customer'
  | 'invoice'
  | 'tracker_project'
  | 'tracker_entry'
  | 'transaction'
  | 'transaction_attachment'
  | 'document'
  | 'notification';

export type FieldKind =
  | { type: 'value' }
  /** A local record id of another entity (rewritten to the remote's id on the wire). */
  | {
      type: 'ref';
      entity: SyncEntity;
      /**
       * The record belongs to the one it names and cannot exist without it (an entry's project, a line's account):
       * a new or changed record there is an edit of its owner, which a delete made here does not win against.
       */
      owner?: boolean;
    }
  /** A sorted set of record ids of another entity. */
  | { type: 'refs'; entity: SyncEntity };

export type Winner = 'local' | 'remote';

export interface FieldSpec {
  name: string;
  kind: FieldKind;
  /** Sent on create only; never merged (a fact of the record's origin). */
  createOnly?: boolean;
  /**
   * Given by the remote when the record is first pushed (an invoice's number): null here means "not given yet",
   * never "cleared". A push leaves it out while it is null, and the remote's value is taken into the local record.
   */
  assignedByRemote?: boolean;
}

export interface GroupSpec {
  /** The group's name as conflicts show it. */
  name: string;
  fields: readonly string[];
  /** Which side's value a conflict on this group keeps by default, and the stated reason. */
  winner: Winner;
  rule: string;
}

export interface EntitySyncSpec {
  entity: SyncEntity;
  fields: readonly FieldSpec[];
  /** Every non-createOnly field belongs to exactly one group (single fields are groups of one). */
  groups: readonly GroupSpec[];
}

const v = (name: string, createOnly = false): FieldSpec => ({
  name,
  kind: { type: 'value' },
  ...(createOnly ? { createOnly } : {}),
});
const ref = (name: string, entity: SyncEntity, createOnly = false): FieldSpec => ({
  name,
  kind: { type: 'ref', entity },
  ...(createOnly ? { createOnly } : {}),
});
/** A reference to the record this one belongs to (see FieldKind `owner`). */
const owner = (name: string, entity: SyncEntity, createOnly = false): FieldSpec => ({
  name,
  kind: { type: 'ref', entity, owner: true },
  ...(createOnly ? { createOnly } : {}),
});
const refs = (name: string, entity: SyncEntity): FieldSpec => ({ name, kind: { type: 'refs', entity } });

const REMOTE = 'remote wins: the shared copy holds the facts everyone works from';
const LOCAL_REVIEW = "local wins: review work (category, tags, notes, decisions) is this person's and was done here";

/** Each field of `names` a group of its own with the same rule. */
function singles(names: readonly string[], winner: Winner, rule: string): GroupSpec[] {
  return names.map((name) => ({ name, fields: [name], winner, rule }));
}

export const CUSTOMER_FIELDS = [
  'name',
  'email',
  'billingEmail',
  'phone',
  'website',
  'contact',
  'country',
  'countryCode',
  'addressLine1',
  'addressLine2',
  'city',
  'state',
  'zip',
  'vatNumber',
  'peppolId',
  'note',
  'description',
  'industry',
  'companyType',
  'employeeCount',
  'foundedYear',
  'estimatedRevenue',
  'fundingStage',
  'totalFunding',
  'headquartersLocation',
  'timezone',
  'linkedinUrl',
  'twitterUrl',
  'instagramUrl',
  'facebookUrl',
  'logoUrl',
  'ceoName',
  'financeContact',
  'financeContactEmail',
  'primaryLanguage',
  'fiscalYearEnd',
] as const;

const TX_STATEMENT = ['name', 'date', 'description', 'counterpartyName'] as const;

/**
 * An invoice's content (docs/decisions/0143-invoice-sync.md). Its lifecycle travels as `status` with `scheduledAt`:
 * draft, scheduled, unpaid (the open state: overdue is unpaid past its due date, which each side marks by its own
 * clock), paid, canceled, refunded; each side reaches it through its own checked moves. Totals, payments, sent and
 * paid times are derived on each side; the remote numbers invoices.
 */
export const INVOICE_CONTENT = [
  'customerId',
  'customerName',
  'currency',
  'lineItems',
  'discountMinor',
  'issueDate',
  'dueDate',
  'supplyDate',
  'supplyEndDate',
  'timezone',
  'template',
  'note',
  'internalNote',
] as const;
export const INVOICE_LIFECYCLE = ['status', 'scheduledAt'] as const;
const TX_REVIEW = ['status', 'note', 'internal', 'recurring', 'frequency', 'reviewed', 'tags'] as const;

export const SYNC_SPECS: { readonly [E in SyncEntity]: EntitySyncSpec } = {
  tag: { entity: 'tag', fields: [v('name')], groups: singles(['name'], 'remote', REMOTE) },
  transaction_category: {
    entity: 'transaction_category',
    fields: [
      v('slug', true),
      v('name'),
      v('color'),
      v('description'),
      v('taxRate'),
      v('taxType'),
      v('taxReportingCode'),
      v('excluded'),
      v('parentSlug'),
    ],
    groups: [
      ...singles(['name', 'color', 'description', 'taxReportingCode', 'excluded', 'parentSlug'], 'remote', REMOTE),
      { name: 'tax', fields: ['taxRate', 'taxType'], winner: 'remote', rule: REMOTE },
    ],
  },
  bank_account: {
    entity: 'bank_account',
    fields: [v('name'), v('type'), v('currency', true), v('enabled'), v('manual', true)],
    groups: singles(['name', 'type', 'enabled'], 'remote', REMOTE),
  },
  customer: {
    entity: 'customer',
    fields: [...CUSTOMER_FIELDS.map((f) => v(f)), refs('tags', 'tag')],
    groups: [...singles(CUSTOMER_FIELDS, 'remote', REMOTE), ...singles(['tags'], 'local', LOCAL_REVIEW)],
  },
  invoice: {
    entity: 'invoice',
    fields: [
      { name: 'invoiceNumber', kind: { type: 'value' }, assignedByRemote: true },
      ref('customerId', 'customer'),
      ...INVOICE_CONTENT.filter((f) => f !== 'customerId').map((f) => v(f)),
      ...INVOICE_LIFECYCLE.map((f) => v(f)),
    ],
    groups: [
      {
        name: 'number',
        fields: ['invoiceNumber'],
        winner: 'remote',
        rule: "remote wins: the remote numbers the team's invoices",
      },
      { name: 'customer', fields: ['customerId', 'customerName'], winner: 'remote', rule: REMOTE },
      {
        name: 'amounts',
        fields: ['currency', 'lineItems', 'discountMinor'],
        winner: 'remote',
        rule: 'remote wins: the line items, their currency and the discount are one unit',
      },
      ...singles(['issueDate', 'dueDate', 'timezone', 'template', 'note', 'internalNote'], 'remote', REMOTE),
      { name: 'supply', fields: ['supplyDate', 'supplyEndDate'], winner: 'remote', rule: REMOTE },
      {
        name: 'lifecycle',
        fields: [...INVOICE_LIFECYCLE],
        winner: 'remote',
        rule: 'remote wins: the lifecycle as the shared copy holds it (sent, paid or canceled there); a state this side cannot reach is a conflict of its own',
      },
    ],
  },
  tracker_project: {
    entity: 'tracker_project',
    fields: [
      v('name'),
      v('description'),
      v('estimate'),
      v('billable'),
      v('rateMinor'),
      v('currency'),
      v('status'),
      ref('customerId', 'customer'),
      refs('tags', 'tag'),
    ],
    groups: [
      ...singles(['name', 'description', 'estimate', 'billable', 'status', 'customerId', 'tags'], 'remote', REMOTE),
      { name: 'rate', fields: ['rateMinor', 'currency'], winner: 'remote', rule: REMOTE },
    ],
  },
  tracker_entry: {
    entity: 'tracker_entry',
    fields: [owner('projectId', 'tracker_project'), v('date'), v('start'), v('stop'), v('durationSeconds'), v('description')],
    groups: [
      ...singles(['projectId', 'description'], 'remote', REMOTE),
      { name: 'time', fields: ['date', 'start', 'stop', 'durationSeconds'], winner: 'remote', rule: REMOTE },
    ],
  },
  transaction: {
    entity: 'transaction',
    fields: [
      owner('bankAccountId', 'bank_account', true),
      v('currency', true),
      v('manual', true),
      v('method', true),
      ...TX_STATEMENT.map((f) => v(f)),
      v('amountMinor'),
      v('splits'),
      v('categorySlug'),
      v('taxRate'),
      v('taxType'),
      ...TX_REVIEW.filter((f) => f !== 'tags').map((f) => v(f)),
      refs('tags', 'tag'),
    ],
    groups: [
      ...singles(TX_STATEMENT, 'remote', 'remote wins: a statement line’s facts come from the bank side'),
      {
        name: 'amount',
        fields: ['amountMinor', 'splits'],
        winner: 'remote',
        rule: 'remote wins: the amount and its split parts are one unit',
      },
      { name: 'category', fields: ['categorySlug', 'taxRate', 'taxType'], winner: 'local', rule: LOCAL_REVIEW },
      ...singles(TX_REVIEW, 'local', LOCAL_REVIEW),
    ],
  },
  // A receipt on a transaction: attached or detached, never edited, so every field is a fact of its create; its
  // file travels with it (docs/decisions/0151-document-sync.md).
  transaction_attachment: {
    entity: 'transaction_attachment',
    fields: [
      owner('transactionId', 'transaction', true),
      v('sha256', true),
      v('size', true),
      v('mimetype', true),
      v('fileName', true),
    ],
    groups: [],
  },
  // Its file travels with its create (a Finops Desk remote takes the bytes; docs/decisions/0151-document-sync.md):
  // what names the content (sha256, size, media type, file name, folder) is fixed at upload.
  document: {
    entity: 'document',
    fields: [
      v('sha256', true),
      v('size', true),
      v('mimetype', true),
      v('fileName', true),
      v('pathTokens', true),
      v('title'),
      v('date'),
      v('summary'),
    ],
    groups: singles(['title', 'date', 'summary'], 'remote', REMOTE),
  },
  notification: {
    entity: 'notification',
    fields: [v('type', true), v('priority', true), v('source', true), v('metadata', true), v('status')],
    groups: singles(['status'], 'local', "local wins: whether a person read or archived it is that person's decision"),
  },
};

/**
 * The order records are applied in: every entity after those it references, so a pulled transaction finds its
 * account and tags (a reference the batch does not hold is fetched first). Deletes run in the reverse order.
 */
export const SYNC_ORDER: readonly SyncEntity[] = [
  'tag',
  'transaction_category',
  'bank_account',
  'customer',
  'invoice',
  'tracker_project',
  'tracker_entry',
  'transaction',
  'transaction_attachment',
  'document',
  'notification',
];

export function isSyncEntity(name: string): name is SyncEntity {
  return Object.hasOwn(SYNC_SPECS, name);
}

/** The fields the remote gives a record when it is first pushed (see FieldSpec.assignedByRemote). */
export function assignedFields(spec: EntitySyncSpec): string[] {
  return spec.fields.filter((f) => f.assignedByRemote).map((f) => f.name);
}

/** The fields a merge compares (every field but the createOnly ones). */
export function mergedFields(spec: EntitySyncSpec): string[] {
  return spec.fields.filter((f) => !f.createOnly).map((f) => f.name);
}
