import type { Writer } from './write';

/**
 * Domain events: how the write path tells the layers above the store that something happened, inside the
 * transaction that made it happen.
 *
 * The store sits at the bottom and imports nothing above it. Where a write must set off work that another part
 * owns — an invoice turning overdue starts the workflows that declare `invoice_overdue`; imported transactions run
 * the team's import rules — the store function publishes an event through its writer, and the orchestration folders
 * subscribe once at start-up (src-main/runtime/subscriptions.ts). A handler runs synchronously inside the same
 * write, so its effect commits or rolls back with the change that caused it: a crash can never leave an overdue
 * invoice whose workflow start was lost, nor a workflow started for a move that rolled back.
 *
 * A handler sees the writer, hence the write's origin: work that must happen once per fact (starting a workflow,
 * running rules) is skipped by its handler for a change pulled from a sync remote, where it already happened.
 */
export interface DomainEvents {
  /** An invoice moved to overdue (the scheduler at its due date, or an invoice issued with a past due date). */
  'invoice.overdue': { invoiceId: string; dueDate: string };
  /** An import committed new transactions; `runRules` is false when the caller asked for a plain import. */
  'transactions.imported': { transactionIds: readonly string[]; runRules: boolean };
  /**
   * A payment of an invoice failed: an applied payment bounced (`paymentId`, the money came back), or a payment
   * intent was refused by the payment provider (no payment). `failureId` names this failure once (the bounced
   * payment, or the notification that told the team of a refused intent).
   */
  'payment.failed': {
    failureId: string;
    invoiceId: string;
    paymentId: string | null;
    transactionId: string | null;
    reason: string;
  };
  /**
   * A customer entered a segment of its engagement (src-shared/domain/customer-engagement.ts: first-time, repeat,
   * recent, unpaid, paid) through a move of one of its invoices.
   */
  'customer.segment_entered': { customerId: string; segment: string; invoiceId: string; invoiceStatus: string };
}

export type DomainEventType = keyof DomainEvents;
export type DomainEventHandler<K extends DomainEventType> = (w: Writer, event: DomainEvents[K]) => void;

const handlers: { [K in DomainEventType]: DomainEventHandler<K>[] } = {
  'invoice.overdue': [],
  'transactions.imported': [],
  'payment.failed': [],
  'customer.segment_entered': [],
};

/** Adds a handler for one event type; returns the function that removes it again. */
export function subscribe<K extends DomainEventType>(type: K, handler: DomainEventHandler<K>): () => void {
  const list = handlers[type] as DomainEventHandler<K>[];
  list.push(handler);
  return () => {
    const at = list.indexOf(handler);
    if (at >= 0) list.splice(at, 1);
  };
}

/**
 * Tells every handler of `type`, in subscription order, inside the write in progress. A handler that throws rolls
 * the whole write back, as any failure inside it does.
 */
export function publish<K extends DomainEventType>(w: Writer, type: K, event: DomainEvents[K]): void {
  for (const handler of [...(handlers[type] as DomainEventHandler<K>[])]) handler(w, event);
}

/** How many handlers an event type has (start-up checks and tests). */
export function subscriberCount(type: DomainEventType): number {
  return handlers[type].length;
}
