/**
 * Where a notification leads: the record it is about, or the list it speaks of (pure, table-tested). An invoice
 * opens its page, a customer theirs; an import's new transactions open the transaction list narrowed to that
 * batch, other news of transactions the list where they wait; time opens the week of its project; a receipt the
 * inbox. A notification about nothing the app shows leads nowhere (null).
 */
import type { Notification } from '../../src-shared/contract/notifications';

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
const at = (base: string, id: string) => `${base}/${encodeURIComponent(id)}`;

export function notificationTarget(n: Pick<Notification, 'type' | 'metadata'>): string | null {
  const m = (n.metadata ?? {}) as Record<string, unknown>;
  const invoice = text(m.invoiceId);
  if (invoice) return at('/invoices', invoice);
  const batch = text(m.batchId);
  if (batch) return `/transactions?state=all&batch=${encodeURIComponent(batch)}`;
  const customer = text(m.customerId);
  if (customer) return at('/customers', customer);
  const project = text(m.projectId);
  if (project) return `/time?project=${encodeURIComponent(project)}`;
  if (n.type === 'transactions_categorized') return '/transactions?state=ready';
  if (n.type.startsWith('transactions_') || text(m.transactionId)) return '/transactions';
  if (n.type.startsWith('inbox_') || n.type === 'document_uploaded') return '/inbox';
  if (n.type === 'overdue_review' || n.type.startsWith('invoice_')) return '/invoices?status=overdue';
  if (text(m.executionId)) return `/workflows?run=${encodeURIComponent(text(m.executionId) as string)}`;
  return null;
}
