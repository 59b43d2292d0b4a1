import { describe, expect, it } from 'vitest';
import { notificationTarget } from '../../../src-renderer/components/notification-target';

const n = (type: string, metadata: Record<string, unknown> = {}) => ({ type, metadata });

describe('where a notification leads', () => {
  it.each([
    [n('invoice_paid', { invoiceId: 'inv-1', customerName: 'Acme' }), '/invoices/inv-1'],
    [n('invoice_reminder_queued', { invoiceId: 'inv 2' }), '/invoices/inv%202'],
    [n('payment_failed', { invoiceId: 'inv-3', paymentId: 'p' }), '/invoices/inv-3'],
    [n('transactions_created', { count: 12, batchId: 'b-1', bankAccountId: 'a' }), '/transactions?state=all&batch=b-1'],
    [n('transactions_created', { count: 12 }), '/transactions'],
    [n('transactions_categorized', { count: 3 }), '/transactions?state=ready'],
    [n('customer_created', { customerId: 'c-1', customerName: 'Acme' }), '/customers/c-1'],
    [n('tracker_entry_created', { entryId: 'e', projectId: 'p-1' }), '/time?project=p-1'],
    [n('inbox_needs_review', { fileName: 'hotel.pdf' }), '/inbox'],
    [n('overdue_review', { message: 'Weekly review' }), '/invoices?status=overdue'],
    [n('workflow', { executionId: 'run-1' }), '/workflows?run=run-1'],
    [n('workflow', { invoiceId: '' }), null],
    [n('chat_question', { conversationId: 'c' }), null],
  ])('%j leads to %s', (notification, target) => {
    expect(notificationTarget(notification)).toBe(target);
  });
});
