import { describe, expect, it } from 'vitest';
import { activityOf } from '../../../../src-renderer/screens/customers/activity';
import type { Invoice } from '../../../../src-shared/contract/invoices';

const invoice = (over: Partial<Invoice>): Invoice =>
  ({
    id: 'i',
    invoiceNumber: 'INV-1',
    status: 'unpaid',
    amount: 100,
    currency: 'EUR',
    issueDate: '2026-10-01',
    sentAt: null,
    reminderSentAt: null,
    paidAt: null,
    canceledAt: null,
    refundedAt: null,
    ...over,
  }) as Invoice;

describe('a customer’s activity', () => {
  it('lists the record and its invoices’ events newest first, days and instants together', () => {
    const events = activityOf({ createdAt: '2026-01-05T10:00:00.000Z' }, [
      invoice({
        id: 'a',
        invoiceNumber: 'INV-1',
        status: 'paid',
        sentAt: '2026-10-01T09:00:00Z',
        paidAt: '2026-10-20T12:00:00.000Z',
      }),
      invoice({ id: 'b', invoiceNumber: 'INV-2', issueDate: '2026-11-02', reminderSentAt: '2026-11-25T08:00:00Z' }),
    ]);
    expect(events.map((e) => `${e.kind} ${e.invoice?.invoiceNumber ?? ''}`.trim())).toEqual([
      'reminded INV-2',
      'issued INV-2',
      'paid INV-1',
      'sent INV-1',
      'issued INV-1',
      'created',
    ]);
  });

  it('leaves out drafts and invoices canceled before they went out, and keeps to the limit', () => {
    const events = activityOf({ createdAt: '2026-01-05T10:00:00Z' }, [
      invoice({ status: 'draft' }),
      invoice({ status: 'canceled', canceledAt: '2026-10-03T10:00:00Z' }),
    ]);
    expect(events.map((e) => e.kind)).toEqual(['canceled', 'created']);
    const many = Array.from({ length: 20 }, (_, i) =>
      invoice({ id: String(i), issueDate: `2026-02-${String(i + 1).padStart(2, '0')}` }),
    );
    expect(activityOf({ createdAt: '2026-01-01T00:00:00Z' }, many, 5)).toHaveLength(5);
  });
});
