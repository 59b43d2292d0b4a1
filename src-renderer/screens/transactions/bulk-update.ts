/** Writes to many transactions at once, through the bulk route (at most MAX_BULK ids per request). */
import { transactionRoutes } from '../../../src-shared/contract/transactions';
import { api } from '../../lib/api';
import { MAX_BULK, type RevertCall } from './undo';

/** The same change to every one of `ids`: `body` is the bulk route's body without the ids. */
export async function bulkUpdate(ids: readonly string[], body: Record<string, unknown>): Promise<void> {
  for (let i = 0; i < ids.length; i += MAX_BULK) {
    await api.call(transactionRoutes.bulkUpdate, {
      body: { ids: ids.slice(i, i + MAX_BULK), ...body } as never,
      idempotencyKey: crypto.randomUUID(),
    });
  }
}

/** One step of an undo (undo.ts): a bulk update, or one update per row where the bulk route cannot set the value. */
export async function revert(call: RevertCall): Promise<void> {
  if (!call.perRow) return bulkUpdate(call.ids, call.body);
  for (const id of call.ids) {
    await api.call(transactionRoutes.update, { params: { id }, body: call.body as never, idempotencyKey: crypto.randomUUID() });
  }
}
