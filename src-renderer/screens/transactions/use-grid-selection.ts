/** The grid's cursor and selection as React state (the rules are in selection.ts), scrolling the cursor into view. */
import { useState } from 'react';
import type { ReviewRow } from '../../../src-shared/contract/app-transactions';
import { clearSelection, type GridSelection, moveTo, NO_SELECTION, selectAll, targetRows, toggleAt } from './selection';
import type { GridHandle } from './TransactionGrid';

export interface GridSelectionState extends GridSelection {
  /** The rows an action applies to: the selection, else the row under the cursor. */
  targets(): ReviewRow[];
  move(to: number, extend: boolean): void;
  /** The cursor on a row without changing the selection (a plain click). */
  point(index: number): void;
  toggle(index: number): void;
  selectAll(): void;
  clear(): void;
  /** A new view: back to its top with nothing selected. */
  reset(): void;
}

export function useGridSelection(rows: readonly ReviewRow[], rowCount: number, grid: GridHandle): GridSelectionState {
  const [selection, setSelection] = useState<GridSelection>(NO_SELECTION);
  return {
    ...selection,
    targets: () => targetRows(selection, rows),
    move(to, extend) {
      const next = moveTo(selection, to, extend, rows, rowCount);
      setSelection(next);
      grid.scrollTo(next.cursor);
    },
    point: (index) => setSelection((s) => ({ ...s, cursor: index })),
    toggle: (index) => setSelection((s) => toggleAt(s, index, rows)),
    selectAll: () => setSelection((s) => selectAll(s, rows)),
    clear: () => setSelection(clearSelection),
    reset() {
      setSelection(NO_SELECTION);
      grid.scrollTo(0);
    },
  };
}
