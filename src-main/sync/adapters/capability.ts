import type { SyncEntity } from '../../../src-shared/domain/sync/fields';
import type { RemoteKind } from '../../store/sync/remotes';

/**
 * What a remote's API can do with one synced entity: the routes a round uses and what they take. Each adapter
 * (./<entity>.ts) states its entity's capability per remote kind; capabilities.ts gathers them into the table a
 * round reads.
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
export function crud(r: Resource): EntityCapability {
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

export const ALL_PAGES = { paging: 'all' } as const;
export const PAGES = { paging: 'page', pageSize: 100 } as const;
