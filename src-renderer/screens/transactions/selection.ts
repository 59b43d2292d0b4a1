/**
 * The grid's cursor and selection, as plain values: where the cursor is, the anchor a Shift-extended range starts
 * from, and the ids selected. Pure functions of the current state and the rows loaded; the screen holds the state.
 */
export interface GridSelection {
  cursor: number;
  /** Where a range selected with Shift starts; null when the last move did not extend one. */
  anchor: number | null;
  selected: ReadonlySet<string>;
}

type Rows = readonly { id: string }[];

export const NO_SELECTION: GridSelection = { cursor: 0, anchor: null, selected: new Set() };

/** The cursor moved to a row (kept inside the grid); extending selects every row from the anchor to it. */
export function moveTo(s: GridSelection, to: number, extend: boolean, rows: Rows, rowCount: number): GridSelection {
  const cursor = Math.max(0, Math.min(rowCount - 1, to));
  if (!extend) return { ...s, cursor, anchor: null };
  const anchor = s.anchor ?? s.cursor;
  const [from, through] = anchor < cursor ? [anchor, cursor] : [cursor, anchor];
  return { cursor, anchor, selected: new Set(rows.slice(from, through + 1).map((r) => r.id)) };
}

/** One row added to or taken out of the selection; a later Shift-move extends from it. */
export function toggleAt(s: GridSelection, index: number, rows: Rows): GridSelection {
  const row = rows[index];
  if (!row) return s;
  const selected = new Set(s.selected);
  if (selected.has(row.id)) selected.delete(row.id);
  else selected.add(row.id);
  return { ...s, selected, anchor: index };
}

export function selectAll(s: GridSelection, rows: Rows): GridSelection {
  return { ...s, selected: new Set(rows.map((r) => r.id)) };
}

export function clearSelection(s: GridSelection): GridSelection {
  return { ...s, selected: new Set(), anchor: null };
}

/** The rows an action applies to: the selection, else the row under the cursor. */
export function targetRows<T extends { id: string }>(s: GridSelection, rows: readonly T[]): T[] {
  if (s.selected.size > 0) return rows.filter((r) => s.selected.has(r.id));
  const row = rows[s.cursor];
  return row ? [row] : [];
}
