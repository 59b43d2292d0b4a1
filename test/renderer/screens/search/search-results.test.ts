import { describe, expect, it } from 'vitest';
import { factsOf, groupResults, targetOf, titleOf } from '../../../../src-renderer/screens/search/search-results';
import type { SearchResult } from '../../../../src-shared/contract/search';

const result = (type: SearchResult['type'], id: string, relevance: number, data: Record<string, unknown>): SearchResult => ({
  id,
  type,
  relevance,
  created_at: '2026-11-01T00:00:00Z',
  data,
});

const invoice = result('invoice', 'i1', 7.5, {
  invoiceNumber: 'INV-0544',
  customerName: 'Nordlicht Design GmbH',
  status: 'overdue',
  amount: 1130.5,
  currency: 'EUR',
  dueDate: '2026-11-10',
});
const tx = result('transaction', 't1', 6.7, {
  name: 'Nordlicht Design GmbH',
  amount: 1130.5,
  currency: 'EUR',
  date: '2026-11-18',
});
const customerA = result('customer', 'c1', 5.1, { name: 'Nordlicht Design GmbH', email: 'ap@nordlicht.example' });
const customerB = result('customer', 'c2', 5.9, {
  name: 'Nordlicht Bakery GmbH',
  email: null,
  website: 'https://bakery.example',
});
const doc = result('vault', 'd1', 3, { title: null, fileName: 'receipt.pdf', date: '2026-11-02' });

describe('search results', () => {
  it('groups by type in a fixed order, each record once, best first in its group', () => {
    const groups = groupResults([tx, invoice, customerA, customerB, customerA, doc]);
    expect(groups.map((g) => g.type)).toEqual(['customer', 'invoice', 'transaction', 'vault']);
    expect(groups[0]?.results.map((r) => r.id)).toEqual(['c2', 'c1']);
    expect(groupResults([])).toEqual([]);
  });

  it('names each result and gives the facts under it', () => {
    expect(titleOf(invoice)).toBe('INV-0544');
    expect(titleOf(doc)).toBe('receipt.pdf');
    expect(factsOf(invoice)).toEqual({
      text: 'Nordlicht Design GmbH',
      day: '2026-11-10',
      status: 'overdue',
      amount: { value: 1130.5, currency: 'EUR' },
    });
    expect(factsOf(customerB).text).toBe('https://bakery.example');
  });

  it('opens records on their screens, and files for inbox items and documents', () => {
    expect(targetOf(invoice)).toEqual({ path: '/invoices/i1' });
    expect(targetOf(customerA)).toEqual({ path: '/customers/c1' });
    expect(targetOf(result('tracker_project', 'p 1', 1, { name: 'Site' }))).toEqual({ path: '/time?project=p%201' });
    expect(targetOf(tx)).toEqual({
      path: '/transactions?state=all&q=Nordlicht+Design+GmbH&from=2026-11-18&to=2026-11-18',
    });
    expect(targetOf(doc)).toEqual({ file: 'vault', id: 'd1', fileName: 'receipt.pdf' });
  });
});
