/**
 * Reconciliation scoring on a table of realistic receipt/transaction pairs: what must match automatically, what must
 * only be suggested, and what must never be proposed; plus the ambiguity rule.
 */
import { describe, expect, it } from 'vitest';
import {
  AUTO_MATCH_THRESHOLD,
  decideMatch,
  nameSimilarity,
  type ReceiptSide,
  SUGGEST_THRESHOLD,
  scoreMatch,
  type TransactionSide,
} from '../../../src-shared/domain/inbox-match';

const receipt = (r: Partial<ReceiptSide> = {}): ReceiptSide => ({
  amountMinor: 2340,
  currency: 'EUR',
  date: '2025-03-14',
  merchant: 'Café Central',
  ...r,
});
const tx = (t: Partial<TransactionSide> = {}): TransactionSide => ({
  amountMinor: -2340,
  currency: 'EUR',
  baseAmountMinor: null,
  baseCurrency: null,
  date: '2025-03-15',
  names: ['CAFE CENTRAL WIEN'],
  ...t,
});

type Expect = 'auto' | 'suggest' | 'none';
const CASES: [string, ReceiptSide, TransactionSide, Expect][] = [
  ['card payment booked next day, name as the bank prints it', receipt(), tx(), 'auto'],
  [
    'same day, merchant in counterparty only',
    receipt(),
    tx({ names: ['VISA 4411', null, 'Cafe Central GmbH'], date: '2025-03-14' }),
    'auto',
  ],
  ['payment processor name (SumUp) — amount and date agree', receipt(), tx({ names: ['SUMUP *VIENNA 1010'] }), 'suggest'],
  ['booked 6 days later, exact amount and name: still automatic', receipt(), tx({ date: '2025-03-20' }), 'auto'],
  ['booked 12 days later, name agrees: a person should look', receipt(), tx({ date: '2025-03-26' }), 'suggest'],
  ['tip added: 2 % more, name and date agree', receipt(), tx({ amountMinor: -2380 }), 'suggest'],
  ['different amount (10 % off) never suggested, however well the rest agrees', receipt(), tx({ amountMinor: -2574 }), 'none'],
  ['other currency with no base amount', receipt(), tx({ currency: 'USD' }), 'none'],
  [
    'paid abroad: GBP receipt, EUR account, base amount in GBP within FX spread',
    receipt({ amountMinor: 785, currency: 'GBP', merchant: 'Pret A Manger' }),
    tx({
      amountMinor: -925,
      currency: 'EUR',
      baseAmountMinor: -795,
      baseCurrency: 'GBP',
      names: ['PRET A MANGER KINGSWAY'],
      date: '2025-03-14',
    }),
    'suggest',
  ],
  ['same amount but 40 days apart and another shop', receipt(), tx({ date: '2025-04-23', names: ['BILLA 1234'] }), 'none'],
  ['refund (positive) of the same amount, right name', receipt(), tx({ amountMinor: 2340 }), 'auto'],
];

describe('inbox match scoring', () => {
  it.each(CASES)('%s', (_label, r, t, expected) => {
    const score = scoreMatch(r, t);
    const decided = decideMatch([{ id: 't', score }]);
    expect(decided.kind, JSON.stringify(score)).toBe(expected);
    if (expected === 'auto') expect(score.confidence).toBeGreaterThanOrEqual(AUTO_MATCH_THRESHOLD);
    if (expected === 'suggest') {
      expect(score.confidence).toBeGreaterThanOrEqual(SUGGEST_THRESHOLD);
      expect(score.confidence).toBeLessThan(AUTO_MATCH_THRESHOLD);
    }
  });

  it('exact amount and date without any name evidence is a suggestion, never automatic', () => {
    const score = scoreMatch(receipt({ merchant: null }), tx({ date: '2025-03-14' }));
    expect(score.confidence).toBe(0.75);
    expect(decideMatch([{ id: 't', score }]).kind).toBe('suggest');
  });

  it('two equally good candidates are suggested, not matched automatically', () => {
    const a = { id: 'a', score: scoreMatch(receipt(), tx()) };
    const b = { id: 'b', score: scoreMatch(receipt(), tx({ names: ['Cafe Central'] })) };
    const decided = decideMatch([a, b]);
    expect(decided.kind).toBe('suggest');
    if (decided.kind === 'suggest') expect(decided.candidates.map((c) => c.id).sort()).toEqual(['a', 'b']);
  });

  it('name similarity ignores case, accents, legal forms and card boilerplate', () => {
    expect(nameSimilarity('Café Central', 'CAFE CENTRAL WIEN')).toBe(1);
    expect(nameSimilarity('Amazon Web Services', 'AWS EMEA SARL')).toBeLessThan(0.5);
    expect(nameSimilarity('Deutsche Bahn', 'DB Vertrieb GmbH')).toBeLessThan(0.5);
    expect(nameSimilarity('Shell Station Amstelveen', 'SHELL 1234 AMSTELVEEN')).toBeGreaterThan(0.9);
  });
});
