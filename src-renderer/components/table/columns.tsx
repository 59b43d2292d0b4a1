/**
 * A table's columns as data: the header, how a row fills the cell, and how the cell is styled. One definition drives
 * the header row, the body rows, the loading skeleton and the sort buttons, in the semantic table (DataTable) and in
 * the transactions' virtualized grid alike. Header texts are plain strings so that a translation can replace them.
 */
import type { ReactNode } from 'react';

export interface Column<T, S extends string = string> {
  /** Unique within the table: the React key of the column's cells. */
  id: string;
  /** The header's text, which is also the column's accessible name. */
  header: ReactNode;
  /** A header read by screen readers only (a column of buttons or icons). */
  srOnlyHeader?: boolean;
  /** Numbers and money: the header aligns right, as the cells do (their class says how, e.g. `money`, `num`). */
  numeric?: boolean;
  /** The cell's class (`date`, `money`, `num`…), or one that depends on the row. */
  className?: string | ((row: T) => string | undefined);
  /** The cell's tooltip, for text that may be cut off. */
  title?: (row: T) => string | undefined;
  /** The sort the column's header switches; only sortable columns have one. */
  sort?: S;
  cell(row: T): ReactNode;
}

/** The attributes of a row's cell for a column: its class and tooltip. */
export function cellProps<T>(column: Column<T>, row: T): { className: string | undefined; title: string | undefined } {
  return {
    className: typeof column.className === 'function' ? column.className(row) : column.className,
    title: column.title?.(row),
  };
}

/** The header's content: the text, or the text for screen readers only. */
export function headerText(column: Pick<Column<unknown>, 'header' | 'srOnlyHeader'>): ReactNode {
  return column.srOnlyHeader ? <span className="sr-only">{column.header}</span> : column.header;
}
