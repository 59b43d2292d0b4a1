import type { SyncEntity } from '../../src-shared/domain/sync/fields';
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
  /** Matched by this field before a create (look up, never upsert blind). */
  naturalKey?: 'name' | 'slug' | 'email';
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

const ALL_STATUSES = ['posted', 'pending', 'excluded', 'completed', 'archived', 'exported'];

export const FINOPS: RemoteCapabilities = {
  kind: 'finops',
  feed: true,
  entities: {
    tag: {
      list: { path: '/tags', paging: 'all' },
      get: '/tags/:id',
      create: { path: '/tags', clientId: true, idempotencyKey: true },
      update: { method: 'PATCH', path: '/tags/:id', idempotencyKey: true },
      delete: '/tags/:id',
      naturalKey: 'name',
    },
    transaction_category: {
      list: { path: '/transaction-categories', paging: 'all' },
      get: '/transaction-categories/:id',
      create: { path: '/transaction-categories', clientId: true, idempotencyKey: true },
      update: { method: 'PATCH', path: '/transaction-categories/:id', idempotencyKey: true },
      delete: '/transaction-categories/:id',
      naturalKey: 'slug',
    },
    bank_account: {
      list: { path: '/bank-accounts', paging: 'all' },
      get: '/bank-accounts/:id',
      create: { path: '/bank-accounts', clientId: true, idempotencyKey: true, fields: ['name', 'currency', 'type', 'enabled'] },
      update: { method: 'PATCH', path: '/bank-accounts/:id', idempotencyKey: true },
      delete: '/bank-accounts/:id',
    },
    customer: {
      list: { path: '/customers', paging: 'page', pageSize: 100 },
      get: '/customers/:id',
      create: { path: '/customers', clientId: true, idempotencyKey: true },
      update: { method: 'PATCH', path: '/customers/:id', idempotencyKey: true },
      delete: '/customers/:id',
      naturalKey: 'email',
    },
    tracker_project: {
      list: { path: '/tracker-projects', paging: 'page', pageSize: 100 },
      get: '/tracker-projects/:id',
      create: { path: '/tracker-projects', clientId: true, idempotencyKey: true },
      update: { method: 'PATCH', path: '/tracker-projects/:id', idempotencyKey: true },
      delete: '/tracker-projects/:id',
    },
    tracker_entry: {
      list: { path: '/tracker-entries', paging: 'range' },
      get: '/tracker-entries/:id',
      create: { path: '/tracker-entries', clientId: true, idempotencyKey: true },
      update: { method: 'PATCH', path: '/tracker-entries/:id', idempotencyKey: true },
      delete: '/tracker-entries/:id',
    },
    transaction: {
      list: {
        path: '/transactions',
        paging: 'page',
        pageSize: 500,
        partitions: { param: 'statuses', values: ALL_STATUSES, field: 'status' },
      },
      get: '/transactions/:id',
      create: { path: '/transactions', clientId: true, idempotencyKey: true, fields: [...TX_CREATE_FIELDS, 'manual'] },
      update: { method: 'PATCH', path: '/transactions/:id', idempotencyKey: true },
      delete: '/transactions/:id',
    },
    notification: {
      list: { path: '/notifications', paging: 'page', pageSize: 100 },
      get: null,
      create: null,
      update: { method: 'PATCH', path: '/notifications/:id/status', idempotencyKey: false },
      delete: null,
    },
  },
};

export const HOSTED: RemoteCapabilities = {
  kind: 'hosted',
  feed: false,
  entities: {
    tag: {
      list: { path: '/tags', paging: 'all' },
      get: '/tags/:id',
      create: { path: '/tags', clientId: false, idempotencyKey: false },
      update: { method: 'PATCH', path: '/tags/:id', idempotencyKey: false },
      delete: '/tags/:id',
      naturalKey: 'name',
    },
    // No category routes there: categories stay local; transactions name them by slug, which both sides share.
    transaction_category: null,
    bank_account: {
      list: { path: '/bank-accounts', paging: 'all' },
      get: '/bank-accounts/:id',
      create: { path: '/bank-accounts', clientId: false, idempotencyKey: false, fields: ['name', 'currency', 'type'] },
      update: { method: 'PATCH', path: '/bank-accounts/:id', idempotencyKey: false },
      delete: '/bank-accounts/:id',
    },
    customer: {
      list: { path: '/customers', paging: 'page', pageSize: 100 },
      get: '/customers/:id',
      // An upsert by id there: the same create sent twice with the same id is one customer.
      create: { path: '/customers', clientId: true, idempotencyKey: true },
      update: { method: 'PATCH', path: '/customers/:id', idempotencyKey: true, alwaysSend: ['name', 'email', 'tags'] },
      delete: '/customers/:id',
      naturalKey: 'email',
    },
    tracker_project: {
      list: { path: '/tracker-projects', paging: 'page', pageSize: 100 },
      get: '/tracker-projects/:id',
      create: { path: '/tracker-projects', clientId: false, idempotencyKey: false },
      update: { method: 'PATCH', path: '/tracker-projects/:id', idempotencyKey: false },
      delete: '/tracker-projects/:id',
    },
    tracker_entry: {
      list: { path: '/tracker-entries', paging: 'range' },
      get: null,
      create: { path: '/tracker-entries', clientId: false, idempotencyKey: false },
      update: { method: 'PATCH', path: '/tracker-entries/:id', idempotencyKey: false },
      delete: '/tracker-entries/:id',
    },
    transaction: {
      list: {
        path: '/transactions',
        paging: 'page',
        pageSize: 500,
        partitions: { param: 'statuses', values: ALL_STATUSES, field: 'status' },
      },
      get: '/transactions/:id',
      // No id and no Idempotency-Key there: after an unanswered create, read back by the fields sent before retrying.
      create: { path: '/transactions', clientId: false, idempotencyKey: false, fields: TX_CREATE_FIELDS },
      update: { method: 'PATCH', path: '/transactions/:id', idempotencyKey: false },
      delete: '/transactions/:id',
    },
    notification: {
      list: { path: '/notifications', paging: 'page', pageSize: 100 },
      get: null,
      create: null,
      update: { method: 'PATCH', path: '/notifications/:id/status', idempotencyKey: false },
      delete: null,
    },
  },
};

export function capabilitiesOf(kind: RemoteKind): RemoteCapabilities {
  return kind === 'finops' ? FINOPS : HOSTED;
}

export function pathFor(template: string, id: string): string {
  return template.replace(':id', encodeURIComponent(id));
}
