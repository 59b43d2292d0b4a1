import { INVOICE_CONTENT, type SyncEntity } from '../../src-shared/domain/sync/fields';
import type { RemoteKind } from '../store/sync/remotes';

/**
 * What each kind of remote can do with each synced entity (docs/decisions/0140-sync-engine.md, the table there is
 * this one in words). A Finops Desk server has a change feed (`GET /v1/sync/changes`) and takes client-chosen ids
 * and Idempotency-Keys on every create; the hosted service (shared/spec/hosted-service-facts.md) has neither for
 * most entities, has no category routes, lists tracker entries only by date range, and wants a customer PATCH with
 * its name, email and tags. `finops serve --spec-only` serves only the spec's and the hosted service's routes, so the
 * generic path (walks, read-back before a retried create) runs against a real server in the tests.
 */
export interface ListCapability {
  path: string;
  /** Filters that make the walk complete (every status, archived and excluded rows too). */
  query?: Record<string, string | readonly string[]>;
  /** `page`: `{data, meta.cursor}` or a top-level `cursor`; `all`: one answer `{data}`; `range`: tracker entries by date. */
  paging: 'page' | 'all' | 'range';
  pageSize?: number;
  /**
   * Walk the list once per value of a filter, which then tells the records' `field` (a transaction list item shows
   * only pending or posted; walking status by status learns the stored status, excluded and archived rows included).
   */
  partitions?: { param: string; values: readonly string[]; field: string };
}

export interface CreateCapability {
  path: string;
  /** The remote creates the record with the id we choose (so a retried create is an upsert of the same record). */
  clientId: boolean;
  /** The remote honours Idempotency-Key on this route. */
  idempotencyKey: boolean;
  /** Projection fields the create body carries; the rest follows in an update right after. Undefined: all. */
  fields?: readonly string[];
  /** Creates many in one request (a JSON array of create bodies, all or nothing, answered `{data: [...]}` in order). */
  bulk?: { path: string; max: number };
}

export interface UpdateCapability {
  method: 'PATCH' | 'PUT';
  path: string;
  idempotencyKey: boolean;
  /** Fields every update body must carry whatever changed (the hosted customer PATCH needs name and email, and drops omitted tags). */
  alwaysSend?: readonly string[];
}

export interface EntityCapability {
  list: ListCapability | null;
  get: string | null;
  create: CreateCapability | null;
  update: UpdateCapability | null;
  delete: string | null;
  /** Matched by this unique field before a create (look up, never upsert blind); a customer's email is not unique. */
  naturalKey?: 'name' | 'slug' | 'invoiceNumber';
}

export interface RemoteCapabilities {
  kind: RemoteKind;
  /** A change feed: pull costs O(changes) instead of walking every list. */
  feed: boolean;
  entities: { readonly [E in SyncEntity]: EntityCapability | null };
}

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

/**
 * An invoice is created as a draft with its content; its lifecycle (issued, paid, canceled…) follows in an update,
 * which the remote reaches through its own checked moves (docs/decisions/0143-invoice-sync.md).
 */
const INVOICE_CREATE_FIELDS = ['invoiceNumber', ...INVOICE_CONTENT] as const;

const ALL_STATUSES = ['posted', 'pending', 'excluded', 'completed', 'archived', 'exported'] as const;

interface Resource {
  /** The collection path, e.g. `/tags`; a record is `${path}/:id`. */
  path: string;
  list: Omit<ListCapability, 'path'>;
  /** Whether the remote creates with the id we choose, and honours Idempotency-Key (both writes). */
  clientId: boolean;
  key: boolean;
  createFields?: readonly string[];
  alwaysSend?: readonly string[];
  naturalKey?: EntityCapability['naturalKey'];
  /** Default true: a record can be read by its id. */
  get?: boolean;
  /** Default PATCH. */
  updateMethod?: UpdateCapability['method'];
  /** Up to this many creates in one request at `${path}/bulk`. */
  bulk?: number;
}

/** A resource with list, get, create, PATCH update and delete at the usual paths. */
function crud(r: Resource): EntityCapability {
  const one = `${r.path}/:id`;
  return {
    list: { path: r.path, ...r.list },
    get: r.get === false ? null : one,
    create: {
      path: r.path,
      clientId: r.clientId,
      idempotencyKey: r.key,
      ...(r.createFields ? { fields: r.createFields } : {}),
      ...(r.bulk ? { bulk: { path: `${r.path}/bulk`, max: r.bulk } } : {}),
    },
    update: {
      method: r.updateMethod ?? 'PATCH',
      path: one,
      idempotencyKey: r.key,
      ...(r.alwaysSend ? { alwaysSend: r.alwaysSend } : {}),
    },
    delete: one,
    ...(r.naturalKey ? { naturalKey: r.naturalKey } : {}),
  };
}

const TRANSACTION_LIST = {
  paging: 'page',
  pageSize: 500,
  partitions: { param: 'statuses', values: ALL_STATUSES, field: 'status' },
} as const;

/** Notifications are created where they happen: only their status travels. */
const NOTIFICATION: EntityCapability = {
  list: { path: '/notifications', paging: 'page', pageSize: 100 },
  get: null,
  create: null,
  update: { method: 'PATCH', path: '/notifications/:id/status', idempotencyKey: false },
  delete: null,
};

const all = { paging: 'all' } as const;
const pages = { paging: 'page', pageSize: 100 } as const;

export const FINOPS: RemoteCapabilities = {
  kind: 'finops',
  feed: true,
  entities: {
    tag: crud({ path: '/tags', list: all, clientId: true, key: true, naturalKey: 'name' }),
    transaction_category: crud({ path: '/transaction-categories', list: all, clientId: true, key: true, naturalKey: 'slug' }),
    bank_account: crud({
      path: '/bank-accounts',
      list: all,
      clientId: true,
      key: true,
      createFields: ['name', 'currency', 'type', 'enabled'],
    }),
    customer: crud({ path: '/customers', list: pages, clientId: true, key: true }),
    invoice: crud({
      path: '/invoices',
      list: pages,
      clientId: true,
      key: true,
      naturalKey: 'invoiceNumber',
      createFields: INVOICE_CREATE_FIELDS,
    }),
    tracker_project: crud({ path: '/tracker-projects', list: pages, clientId: true, key: true }),
    tracker_entry: crud({ path: '/tracker-entries', list: { paging: 'range' }, clientId: true, key: true, bulk: 100 }),
    transaction: crud({
      path: '/transactions',
      list: TRANSACTION_LIST,
      clientId: true,
      key: true,
      createFields: [...TX_CREATE_FIELDS, 'manual'],
      bulk: 100,
    }),
    // Attached with its file, detached; never edited (extension routes; pulled through the feed only).
    transaction_attachment: {
      list: null,
      get: '/transaction-attachments/:id',
      create: { path: '/transaction-attachments', clientId: true, idempotencyKey: false, fields: ['transactionId', 'fileName'] },
      update: null,
      delete: '/transaction-attachments/:id',
    },
    // The upload (an extension) takes the file, its name, folder and title; date and summary follow in an update.
    // A retried upload with its chosen id is answered 409 and the record there adopted: no Idempotency-Key needed.
    document: crud({
      path: '/documents',
      list: pages,
      clientId: true,
      key: false,
      createFields: ['fileName', 'pathTokens', 'title'],
    }),
    notification: NOTIFICATION,
  },
};

export const HOSTED: RemoteCapabilities = {
  kind: 'hosted',
  feed: false,
  entities: {
    tag: crud({ path: '/tags', list: all, clientId: false, key: false, naturalKey: 'name' }),
    // No category routes there: categories stay local; transactions name them by slug, which both sides share.
    transaction_category: null,
    bank_account: crud({
      path: '/bank-accounts',
      list: all,
      clientId: false,
      key: false,
      createFields: ['name', 'currency', 'type'],
    }),
    // An upsert by id there: the same create sent twice with the same id is one customer. Its PATCH wants the name,
    // email and tags every time (it drops omitted tags).
    customer: crud({
      path: '/customers',
      list: pages,
      clientId: true,
      key: true,
      alwaysSend: ['name', 'email', 'tags'],
    }),
    // No id and no Idempotency-Key on its create (an unanswered one is read back by content before a retry); its
    // update is PUT (the spec's PATCH is not among its routes).
    invoice: crud({
      path: '/invoices',
      list: pages,
      clientId: false,
      key: false,
      naturalKey: 'invoiceNumber',
      createFields: INVOICE_CREATE_FIELDS,
      updateMethod: 'PUT',
    }),
    tracker_project: crud({ path: '/tracker-projects', list: pages, clientId: false, key: false }),
    // Listed by date range only, and not readable by id.
    tracker_entry: crud({
      path: '/tracker-entries',
      list: { paging: 'range' },
      clientId: false,
      key: false,
      get: false,
      bulk: 100,
    }),
    // No id and no Idempotency-Key there: after an unanswered create, read back by the fields sent before retrying.
    transaction: crud({
      path: '/transactions',
      list: TRANSACTION_LIST,
      clientId: false,
      key: false,
      createFields: TX_CREATE_FIELDS,
      bulk: 100,
    }),
    // It cannot receive files (no upload route) and its documents' bytes are not ours to copy into the data dir
    // without one: documents stay local there (docs/decisions/0151-document-sync.md).
    document: null,
    // Its transactions take attachment ids and paths, not files: a receipt's metadata without the receipt would
    // point at nothing there. Receipts stay local.
    transaction_attachment: null,
    notification: NOTIFICATION,
  },
};

export function capabilitiesOf(kind: RemoteKind): RemoteCapabilities {
  return kind === 'finops' ? FINOPS : HOSTED;
}

export function pathFor(template: string, id: string): string {
  return template.replace(':id', encodeURIComponent(id));
}
