import type { CustomerTab } from '../../../src-shared/domain/customer-engagement';
import { getCustomer } from '../customers/read';
import { publish } from '../events';
import type { Writer } from '../write';

/**
 * Customers entering segments through their invoices' moves: the engagement tabs of the customer (first-time, repeat,
 * recent, unpaid, paid: src-shared/domain/customer-engagement.ts) before and after a move of one of its invoices;
 * each tab it did not have before is published as `customer.segment_entered`, inside the move's write
 * (docs/decisions/0149-workflow-settings-and-emitted-triggers.md).
 */

function segmentsOf(w: Writer, customerId: string, now: Date): ReadonlySet<CustomerTab> | undefined {
  try {
    return new Set(getCustomer(w.db, w.teamId, customerId, now).engagement.tabs.filter((t) => t !== 'all'));
  } catch {
    return undefined; // the customer was deleted: its invoices keep their name, it has no segments
  }
}

export type Segments = ReadonlySet<CustomerTab> | undefined;

/** The segments of the invoice's customer now (undefined without a customer). */
export function segmentsBefore(w: Writer, invoice: { customer_id: string | null }, now: Date): Segments {
  return invoice.customer_id ? segmentsOf(w, invoice.customer_id, now) : undefined;
}

/** After the move: publishes each segment the customer has now and did not have `before`. */
export function publishEnteredSegments(
  w: Writer,
  invoice: { id: string; customer_id: string | null },
  before: Segments,
  status: string,
  now: Date,
): void {
  if (!before || !invoice.customer_id) return;
  for (const segment of segmentsOf(w, invoice.customer_id, now) ?? []) {
    if (before.has(segment)) continue;
    publish(w, 'customer.segment_entered', {
      customerId: invoice.customer_id,
      segment,
      invoiceId: invoice.id,
      invoiceStatus: status,
    });
  }
}
