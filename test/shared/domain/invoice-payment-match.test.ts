/**
 * Payment matching scores on a table of realistic cases: what is applied without asking, what is only suggested,
 * what is not a candidate at all; and the ambiguity rule.
 */
import { describe, expect, it } from 'vitest';
import {
  AUTO_APPLY_AT,
  decide,
  nameShare,
  PART_PAYMENT_CAP,
  SUGGEST_AT,
  scoreCandidate,
  scorePartPayment,
  scorePayment,
  type TransactionSide,
} from '../../../src-shared/domain/invoice-payment-match';

const invoice = {
  invoiceNumber: 'INV-0042',
  customerName: 'Müller & Söhne GmbH',
  amountMinor: 119_000,
  currency: 'EUR',
  issueDate: '2025-03-01',
  dueDate: '2025-03-31',
};
const tx = (over: Partial<TransactionSide>): TransactionSide => ({
  amountMinor: 119_000,
  currency: 'EUR',
  date: '2025-03-20',
  text: 'SEPA credit',
  ...over,
});

type Verdict = 'apply' | 'suggest' | 'none';
const verdict = (c: number): Verdict => (c >= AUTO_APPLY_AT ? 'apply' : c >= SUGGEST_AT ? 'suggest' : 'none');

describe('invoice payment matching', () => {
  it.each<[string, Partial<TransactionSide>, number, Verdict]>([
    ['exact, on time, payer named, number in the reference', { text: 'MUELLER UND SOEHNE GMBH RE INV-0042' }, 1, 'apply'],
    ['exact, on time, number written differently', { text: 'Rechnung inv 0042 danke' }, 0.95, 'apply'],
    ['exact, on time, payer named with umlauts folded', { text: 'Muller Sohne GmbH Zahlung' }, 0.9, 'apply'],
    ['exact, on time, unknown payer', { text: 'SEPA credit transfer' }, 0.7, 'suggest'],
    ['exact, one week late, payer named', { date: '2025-04-07', text: 'Müller Söhne' }, 0.9, 'apply'],
    ['exact, a month late, payer named', { date: '2025-04-30', text: 'Müller & Söhne GmbH' }, 0.779, 'suggest'],
    ['exact, 50 days late, unknown payer', { date: '2025-05-20' }, 0.5, 'suggest'],
    ['exact, two days before the issue date, number given', { date: '2025-02-27', text: 'INV-0042 prepayment' }, 0.85, 'suggest'],
    ['exact, half the payer name', { text: 'Müller Holding' }, 0.8, 'suggest'],
    ['one cent off', { amountMinor: 118_999, text: 'INV-0042 Müller Söhne' }, 0, 'none'],
    ['other currency', { currency: 'USD', text: 'INV-0042' }, 0, 'none'],
    ['money out', { amountMinor: -119_000, text: 'INV-0042' }, 0, 'none'],
    ['a week before the issue date', { date: '2025-02-22', text: 'INV-0042' }, 0, 'none'],
    ['61 days after the due date', { date: '2025-05-31', text: 'INV-0042' }, 0, 'none'],
  ])('%s → %s', (_label, over, confidence, expected) => {
    const s = scorePayment(invoice, tx(over));
    expect(s.confidence).toBeCloseTo(confidence, 3);
    expect(verdict(s.confidence)).toBe(expected);
  });

  it('ignores legal forms and short words in names', () => {
    expect(nameShare('Acme Ltd', 'ACME')).toBe(1);
    expect(nameShare('The Acme Company Inc.', 'acme corp')).toBe(1);
    expect(nameShare('AB', 'AB')).toBe(0);
    expect(nameShare(null, 'anything')).toBe(0);
    expect(nameShare('Nordlicht Studio', 'Studio Berlin')).toBe(0.5);
  });

  it('applies only unambiguous strong pairs; the rest are suggestions', () => {
    const s = (confidence: number) => ({ confidence, parts: { amount: 0.5, date: 0, reference: 0, name: 0 } });
    const i1 = { id: 'i1' };
    const i2 = { id: 'i2' };
    const t1 = { id: 't1' };
    const t2 = { id: 't2' };
    // One strong pair alone: applied.
    expect(decide([{ invoice: i1, transaction: t1, score: s(0.95) }]).apply).toHaveLength(1);
    // The same transaction fits two invoices (same amount): neither is applied.
    const twoInvoices = decide([
      { invoice: i1, transaction: t1, score: s(0.95) },
      { invoice: i2, transaction: t1, score: s(0.7) },
    ]);
    expect(twoInvoices.apply).toEqual([]);
    expect(twoInvoices.suggest).toHaveLength(2);
    // Two payments fit one invoice: neither is applied.
    expect(
      decide([
        { invoice: i1, transaction: t1, score: s(0.95) },
        { invoice: i1, transaction: t2, score: s(0.92) },
      ]).apply,
    ).toEqual([]);
    // Below the suggestion threshold: dropped, and not counted as ambiguity.
    const weak = decide([
      { invoice: i1, transaction: t1, score: s(0.95) },
      { invoice: i1, transaction: t2, score: s(0.3) },
    ]);
    expect(weak.apply).toHaveLength(1);
    expect(weak.suggest).toEqual([]);
  });
});

describe('part payments', () => {
  const tx = (amountMinor: number, text: string, date = '2025-03-20') => ({ amountMinor, currency: 'EUR', date, text });
  it('scores less than what is due, naming the invoice, below the auto-apply line', () => {
    const named = scorePartPayment(invoice, tx(50_000, 'INV-0042 Teilzahlung Müller'));
    expect(named.confidence).toBeGreaterThanOrEqual(SUGGEST_AT);
    expect(named.confidence).toBeLessThanOrEqual(PART_PAYMENT_CAP);
    expect(named.confidence).toBeLessThan(AUTO_APPLY_AT);
    expect(named.parts.reference).toBe(0.25);
    expect(scorePartPayment(invoice, tx(50_000, 'Kiosk')).parts.reference).toBe(0);
  });
  it('is no candidate for the full amount or more, another currency, money out or outside the window', () => {
    expect(scorePartPayment(invoice, tx(119_000, 'INV-0042')).confidence).toBe(0);
    expect(scorePartPayment(invoice, tx(200_000, 'INV-0042')).confidence).toBe(0);
    expect(scorePartPayment(invoice, { ...tx(5_000, 'INV-0042'), currency: 'USD' }).confidence).toBe(0);
    expect(scorePartPayment(invoice, tx(-5_000, 'INV-0042')).confidence).toBe(0);
    expect(scorePartPayment(invoice, tx(5_000, 'INV-0042', '2025-12-31')).confidence).toBe(0);
  });
  it('scores an exact amount as a payment and less as a part', () => {
    expect(scoreCandidate(invoice, tx(119_000, 'INV-0042'))).toMatchObject({
      part: false,
      confidence: scorePayment(invoice, tx(119_000, 'INV-0042')).confidence,
    });
    expect(scoreCandidate(invoice, tx(1_000, 'INV-0042')).part).toBe(true);
  });
});
