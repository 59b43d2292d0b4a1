import { codedRule } from '../../src-shared/domain/sync/conflict-rules';
import type { Projection } from '../../src-shared/domain/sync/merge';
import { recordConflict } from '../store/sync/conflicts';
import { yieldNumber } from '../store/sync/invoice-writes';
import { finishPush, type OutboxEntry } from '../store/sync/outbox';
import { type RoundContext, roundWrite } from './context';
import { remoteInvoices } from './lookups';

/**
 * The first push of an invoice that carries a number of this replica's (docs/decisions/0143-invoice-sync.md): one
 * numbered before the team synced, or typed by a person. The remote numbers the team's invoices, so the number is
 * checked there first (a twin with the same content was linked before this is asked):
 * - free there: the invoice is sent with it;
 * - another invoice's there, and this one a draft: the draft gives it up (it was never issued) and is created
 *   without one, so the remote numbers it and this copy takes that number; a conflict shows the renumbering;
 * - another invoice's there, and this one issued: its number went to a customer and cannot change. The create is
 *   refused and recorded as a conflict; the invoice stays here until a person settles it (cancels one of them).
 * Returns the projection to send, or undefined when the create is refused.
 */
export async function settleInvoiceNumber(
  ctx: RoundContext,
  entry: OutboxEntry,
  local: Projection,
): Promise<Projection | undefined> {
  const number = local.invoiceNumber;
  if (typeof number !== 'string') return local;
  const taken = (await remoteInvoices(ctx, { q: number })).some((r) => r.invoiceNumber === number);
  if (!taken) return local;
  if (local.status !== 'draft') {
    finishPush(ctx.db, entry.id, 'conflict', `the number ${number} is another invoice's on the remote`);
    const made = recordConflict(ctx.db, {
      teamId: ctx.teamId,
      remoteId: ctx.remote.id,
      entity: 'invoice',
      localId: entry.localId,
      kind: 'refused',
      group: 'number',
      fields: ['invoiceNumber'],
      base: null,
      local: { invoiceNumber: number },
      remote: { invoiceNumber: number },
      rule: `the remote holds another invoice numbered ${number}, and this one was issued with that number, which cannot change: it stays here until one of the two is canceled`,
      ...codedRule('issued_number_taken', { invoiceNumber: number }),
      winner: 'local',
    });
    if (made) ctx.counts.conflicts++;
    return undefined;
  }
  roundWrite(ctx, (w) => {
    if (yieldNumber(w, entry.localId, number)) ctx.counts.conflicts++;
  });
  return { ...local, invoiceNumber: null };
}
