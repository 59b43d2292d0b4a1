import type { Json } from '../../../src-shared/domain/sync/merge';
import type { SyncAdapter } from './adapter';
import type { EntityCapability } from './capability';
import { asIs, num, str } from './values';

/** Notifications are created where they happen: only their status travels. */
const STATUS_ONLY: EntityCapability = {
  list: { path: '/notifications', paging: 'page', pageSize: 100 },
  get: null,
  create: null,
  update: { method: 'PATCH', path: '/notifications/:id/status', idempotencyKey: false },
  delete: null,
};

export const notification: SyncAdapter<'notification'> = {
  entity: 'notification',
  fromApi: (r) => ({
    type: str(r.type) ?? '',
    priority: num(r.priority) ?? 5,
    source: str(r.source) ?? 'system',
    metadata: (r.metadata && typeof r.metadata === 'object' ? r.metadata : {}) as Json,
    status: str(r.status) ?? 'unread',
  }),
  body: asIs,
  finops: STATUS_ONLY,
  hosted: STATUS_ONLY,
};
