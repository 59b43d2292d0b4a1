import { describe, expect, it } from 'vitest';
import {
  clearSelection,
  moveTo,
  NO_SELECTION,
  selectAll,
  targetRows,
  toggleAt,
} from '../../../../src-renderer/screens/transactions/selection';

const rows = ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => ({ id }));
const ids = (s: { selected: ReadonlySet<string> }) => [...s.selected].sort();

describe('the review grid’s cursor and selection', () => {
  it('moves the cursor inside the grid only', () => {
    expect(moveTo(NO_SELECTION, -3, false, rows, 6).cursor).toBe(0);
    expect(moveTo(NO_SELECTION, 40, false, rows, 6).cursor).toBe(5);
    // Rows not loaded yet count: the grid is as tall as the tab's total.
    expect(moveTo(NO_SELECTION, 40, false, rows, 100).cursor).toBe(40);
  });

  it('selects a range with Shift from where it started, in either direction', () => {
    let s = moveTo(NO_SELECTION, 2, false, rows, 6);
    s = moveTo(s, 3, true, rows, 6);
    s = moveTo(s, 4, true, rows, 6);
    expect(s.anchor).toBe(2);
    expect(ids(s)).toEqual(['c', 'd', 'e']);
    s = moveTo(s, 0, true, rows, 6);
    expect(ids(s)).toEqual(['a', 'b', 'c']);
    // A plain move keeps the selection and forgets the anchor.
    s = moveTo(s, 5, false, rows, 6);
    expect(ids(s)).toEqual(['a', 'b', 'c']);
    expect(s.anchor).toBeNull();
  });

  it('toggles single rows, and a Shift-move then extends from the last one toggled', () => {
    let s = toggleAt(NO_SELECTION, 1, rows);
    s = toggleAt(s, 4, rows);
    expect(ids(s)).toEqual(['b', 'e']);
    s = toggleAt(s, 1, rows);
    expect(ids(s)).toEqual(['e']);
    // The last toggled is b, even though it was taken out.
    s = moveTo(s, 3, true, rows, 6);
    expect(ids(s)).toEqual(['b', 'c', 'd']);
    expect(toggleAt(s, 99, rows)).toBe(s);
  });

  it('acts on the selection, else on the row under the cursor', () => {
    const s = moveTo(NO_SELECTION, 3, false, rows, 6);
    expect(targetRows(s, rows)).toEqual([{ id: 'd' }]);
    expect(targetRows(selectAll(s, rows), rows)).toHaveLength(6);
    expect(targetRows(clearSelection(selectAll(s, rows)), rows)).toEqual([{ id: 'd' }]);
    expect(targetRows(moveTo(NO_SELECTION, 8, false, rows, 12), rows)).toEqual([]);
  });
});
