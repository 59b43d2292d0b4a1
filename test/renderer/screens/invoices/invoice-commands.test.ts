import { describe, expect, it } from 'vitest';
import { commandsFor, deliveryTone, statusTone } from '../../../../src-renderer/screens/invoices/invoice-commands';
import { INVOICE_STATUSES } from '../../../../src-shared/domain/invoice-status';

const payment = {
  id: 'p1',
  kind: 'payment',
  transactionId: 't1',
  amount: 10,
  currency: 'EUR',
  date: '2026-11-01',
  matchedBy: 'user',
  confidence: 0.9,
} as const;

describe('the commands of an invoice', () => {
  it('follow the lifecycle: each status offers exactly the moves the server allows', () => {
    const table = Object.fromEntries(INVOICE_STATUSES.map((status) => [status, commandsFor({ status, payment: null })]));
    expect(table).toEqual({
      draft: ['send', 'cancel', 'delete'],
      scheduled: ['send', 'cancel'],
      unpaid: ['remind', 'markPaid', 'resend', 'cancel'],
      overdue: ['remind', 'markPaid', 'resend', 'cancel'],
      paid: ['refund'],
      canceled: ['delete'],
      refunded: [],
    });
  });

  it('offer to undo a payment matched to a transaction, not one of a refunded invoice', () => {
    expect(commandsFor({ status: 'paid', payment })).toEqual(['refund', 'undoPayment']);
    expect(commandsFor({ status: 'refunded', payment })).toEqual([]);
  });
});

describe('how an invoice and its e-mail stand', () => {
  it('tones the statuses that need attention', () => {
    expect(statusTone('overdue')).toBe('bad');
    expect(statusTone('unpaid')).toBe('warn');
    expect(statusTone('paid')).toBe('ok');
    expect(statusTone('draft')).toBe('neutral');
  });

  it('treats an e-mail waiting for a mail server or sync as pending, not as sent', () => {
    expect(deliveryTone({ state: 'awaiting_sync' })).toEqual({ tone: 'wait', pending: true });
    expect(deliveryTone({ state: 'queued' })).toEqual({ tone: 'wait', pending: true });
    expect(deliveryTone({ state: 'sent' })).toEqual({ tone: 'ok', pending: false });
    expect(deliveryTone({ state: 'failed' })).toEqual({ tone: 'bad', pending: false });
  });
});
