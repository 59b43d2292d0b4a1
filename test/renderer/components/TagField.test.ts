import { describe, expect, it } from 'vitest';
import { findTagByName } from '../../../src-renderer/components/TagField';

const tags = [
  { id: 't1', name: 'Stammkunde' },
  { id: 't2', name: 'Messe Düsseldorf' },
  { id: 't3', name: ' Q1 ' },
];

describe('the tag a typed name means', () => {
  it.each([
    ['Stammkunde', 't1'],
    ['stammkunde', 't1'],
    ['  STAMMKUNDE ', 't1'],
    ['messe düsseldorf', 't2'],
    ['MESSE DÜSSELDORF', 't2'],
    ['q1', 't3'],
    ['Stamm', undefined],
    ['Stammkunden', undefined],
    ['Messe', undefined],
  ])('%j is %s', (typed, id) => {
    expect(findTagByName(tags, typed)?.id).toBe(id);
  });
});
