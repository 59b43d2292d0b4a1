import { describe, expect, it } from 'vitest';
import { commandsFor, deliveryTone, shownStatus, statusTone } from '../../../../src-renderer/screens/invoices/invoice-commands';
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
      draft: ['send', 'edit', 'cancel', 'delete'],
      scheduled: ['send', 'cancel'],
      unpaid: ['recordPayment', 'remind', 'markPaid', 'resend', 'cancel'],
      overdue: ['recordPayment', 'remind', 'markPaid', 'resend', 'cancel'],
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
    expect(statusTone('unsent')).toBe('info');
  });

  it('reads an issued invoice whose e-mail has not left as not sent, not as unpaid', () => {
    const mail = (state: 'awaiting_sync' | 'queued' | 'failed' | 'sent', kind: 'invoice' | 'reminder' = 'invoice') =>
      ({ state, kind }) as never;
    expect(shownStatus({ status: 'unpaid', delivery: mail('awaiting_sync') })).toBe('unsent');
    expect(shownStatus({ status: 'unpaid', delivery: mail('failed') })).toBe('unsent');
    expect(shownStatus({ status: 'unpaid', delivery: mail('sent') })).toBe('unpaid');
    expect(shownStatus({ status: 'unpaid', delivery: mail('queued', 'reminder') })).toBe('unpaid');
    expect(shownStatus({ status: 'unpaid', delivery: null })).toBe('unpaid');
    expect(shownStatus({ status: 'overdue', delivery: mail('awaiting_sync') })).toBe('overdue');
  });

  it('treats an e-mail waiting for a mail server or sync as pending, not as sent', () => {
    expect(deliveryTone({ state: 'awaiting_sync' })).toEqual({ tone: 'wait', pending: true });
    expect(deliveryTone({ state: 'queued' })).toEqual({ tone: 'wait', pending: true });
    expect(deliveryTone({ state: 'sent' })).toEqual({ tone: 'ok', pending: false });
    expect(deliveryTone({ state: 'failed' })).toEqual({ tone: 'bad', pending: false });
  });
});
