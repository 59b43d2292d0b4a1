import { describe, expect, it } from 'vitest';
import {
  PAYMENT_SCORE_WINDOW_DAYS,
  type PaidInvoice,
  paymentRating,
  paymentScore,
  paymentScoreSince,
} from '../../../src-shared/domain/invoice-payment-score';

const onTime: PaidInvoice = { dueDate: '2025-03-10', paidAt: '2025-03-09T12:00:00.000Z', timeZone: 'UTC' };
const late: PaidInvoice = { dueDate: '2025-03-10', paidAt: '2025-03-11T12:00:00.000Z', timeZone: 'UTC' };

describe('invoice payment score', () => {
  it.each([
    // paid on time, paid late, overdue now → score, rating
    [0, 0, 0, null, 'none'],
    [1, 0, 0, 100, 'good'],
    [4, 1, 0, 80, 'good'],
    [79, 21, 0, 79, 'average'],
    [1, 1, 0, 50, 'average'],
    [1, 0, 1, 50, 'average'],
    [49, 51, 0, 49, 'bad'],
    [0, 0, 2, 0, 'bad'],
    [0, 3, 0, 0, 'bad'],
    [2, 0, 1, 67, 'average'],
    [1, 2, 0, 33, 'bad'],
  ] as const)('%i on time, %i late, %i overdue → %s (%s)', (inTime, tooLate, overdue, score, rating) => {
    const paid = [...Array(inTime).fill(onTime), ...Array(tooLate).fill(late)];
    expect(paymentScore(paid, overdue)).toEqual({
      score,
      paymentStatus: rating,
      paidOnTime: inTime,
      paidLate: tooLate,
      overdue,
      windowDays: PAYMENT_SCORE_WINDOW_DAYS,
    });
  });

  it.each([
    // Paid the evening of the due date in New York: already the next day in UTC, still on time there.
    ['2025-03-10', '2025-03-11T03:00:00.000Z', 'America/New_York', 'on time'],
    ['2025-03-10', '2025-03-11T03:00:00.000Z', 'UTC', 'late'],
    // Paid in the first minutes after the due date in Berlin, still the due date in UTC.
    ['2025-03-10', '2025-03-10T23:30:00.000Z', 'Europe/Berlin', 'late'],
    ['2025-03-10', '2025-03-10T23:59:59.999Z', 'UTC', 'on time'],
    ['2025-03-10', '2025-03-11T00:00:00.000Z', 'UTC', 'late'],
  ] as const)('due %s, paid %s in %s: %s', (dueDate, paidAt, timeZone, expected) => {
    const s = paymentScore([{ dueDate, paidAt, timeZone }], 0);
    expect(expected === 'on time' ? s.paidOnTime : s.paidLate).toBe(1);
  });

  it('rates by the thresholds', () => {
    expect([null, 0, 49, 50, 79, 80, 100].map(paymentRating)).toEqual([
      'none',
      'bad',
      'bad',
      'average',
      'average',
      'good',
      'good',
    ]);
  });

  it('looks back 365 days from now', () => {
    expect(PAYMENT_SCORE_WINDOW_DAYS).toBe(365);
    expect(paymentScoreSince(new Date('2025-06-30T08:00:00.000Z'))).toBe('2024-06-30T08:00:00.000Z');
  });
});
