import { describe, expect, it } from 'vitest';
import { MAX_BULK, recordUndo, revertCalls } from '../../../../src-renderer/screens/transactions/undo';
import type { ReviewRow } from '../../../../src-shared/contract/app-transactions';

const row = (id: string, over: Partial<ReviewRow> = {}): ReviewRow => ({
  id,
  date: '2026-01-01',
  name: id,
  description: null,
  counterpartyName: null,
  amount: -1,
  currency: 'EUR',
  status: 'posted',
  reviewState: 'to_review',
  reviewed: false,
  category: null,
  tags: [],
  accountId: 'a',
  accountName: 'A',
  attachments: 0,
  note: null,
  splits: 0,
  manual: false,
  internal: false,
  reconciled: false,
  ...over,
});

describe('undo of review actions', () => {
  it('sends each row its old value back, one bulk call per distinct old value', () => {
    const entry = recordUndo('Categorised', 'category', [
      row('1', { category: { slug: 'travel', name: 'Travel', color: '#000000' } }),
      row('2'),
      row('3', { category: { slug: 'travel', name: 'Travel', color: '#000000' } }),
    ]);
    expect(revertCalls(entry)).toEqual([
      { ids: ['1', '3'], body: { categorySlug: 'travel' }, perRow: false },
      { ids: ['2'], body: { categorySlug: null }, perRow: false },
    ]);
  });

  it('restores tag sets row by row (the bulk route only adds tags) and splits big groups at the bulk limit', () => {
    const tags = revertCalls(
      recordUndo('Tagged', 'tags', [
        row('1', {
          tags: [
            { id: 'b', name: 'B' },
            { id: 'a', name: 'A' },
          ],
        }),
        row('2'),
      ]),
    );
    expect(tags).toEqual([
      { ids: ['1'], body: { tags: [{ id: 'a' }, { id: 'b' }] }, perRow: true },
      { ids: ['2'], body: { tags: [] }, perRow: true },
    ]);
    const many = Array.from({ length: MAX_BULK + 5 }, (_, i) => row(String(i)));
    const calls = revertCalls(recordUndo('Reviewed', 'reviewed', many));
    expect(calls.map((c) => c.ids.length)).toEqual([MAX_BULK, 5]);
    expect(calls[0]?.body).toEqual({ reviewed: false });
  });
});
