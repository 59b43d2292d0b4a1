/**
 * The row-only relevance (src-main/store/search/relevance.ts): a table of records and queries, each asserting which
 * of two records scores higher, and the bounds the search's tiers rely on.
 */
import { describe, expect, it } from 'vitest';
import { fold, type ScoredColumn, textScore, tokens, WHOLE_WORDS } from '../../../../src-main/store/search/relevance';

const cols = (name: string | null, note: string | null = null): ScoredColumn[] => [
  { text: name, weight: 2 },
  { text: note, weight: 0.5 },
];

describe('textScore', () => {
  it.each([
    ['a whole word over a word it begins', ['lunch'], cols('Team lunch'), cols('Team luncheon')],
    ['the name over the note', ['lunch'], cols('Lunch'), cols('Card payment', 'lunch')],
    ['a shorter name over a longer one', ['cafe'], cols('Cafe Kreuzberg'), cols('Cafe on the corner of the long street')],
    ['two words found over one', ['coffee', 'beans'], cols('Coffee beans'), cols('Coffee', 'bean')],
    ['a word found twice over once', ['tea'], cols('Tea tea'), cols('Tea time')],
  ])('%s', (_, words, better, worse) => {
    expect(textScore(words, better)).toBeGreaterThan(textScore(words, worse));
  });

  it('folds case and diacritics as the index does, and finds nothing where nothing matches', () => {
    expect(fold('Café Müller')).toBe('cafe muller');
    expect(tokens('Straße 12, Köln')).toEqual(['straße', '12', 'koln']);
    expect(textScore(['CAFE'], cols('café'))).toBe(textScore(['cafe'], cols('Cafe')));
    expect(textScore(['tea'], cols('Coffee', null))).toBe(0);
    expect(textScore([], cols('Coffee'))).toBe(0);
  });

  it('stays under WHOLE_WORDS for any record, so the whole-word tier is never overtaken', () => {
    const heavy: ScoredColumn[] = Array.from({ length: 9 }, () => ({ text: 'a a a a a a a a a a', weight: 2 }));
    const score = textScore(['a'], heavy);
    expect(score).toBeGreaterThan(0);
    expect(score).toBeLessThan(WHOLE_WORDS / 2);
  });

  it('reads each distinct text once per search through the cache', () => {
    const cache = new Map<string, readonly string[]>();
    textScore(['x'], cols('Same name'), cache);
    textScore(['x'], cols('Same name'), cache);
    expect([...cache.keys()]).toEqual(['Same name']);
  });
});
