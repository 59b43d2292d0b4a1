/** A column's header cell in a DataTable: its text, or a button that sorts by the column with the order announced. */
import type { Column } from './columns';

export type SortDirection = 'asc' | 'desc';

export interface SortState<S extends string> {
  column: S;
  direction: SortDirection;
  onSort(column: S): void;
}

export function HeaderCell<S extends string>({ column, sort }: { column: Column<never, S>; sort?: SortState<S> }) {
  const key = column.sort;
  const direction = key !== undefined && sort?.column === key ? sort.direction : null;
  return (
    <th
      scope="col"
      className={column.numeric ? 'num' : undefined}
      aria-sort={direction ? (direction === 'asc' ? 'ascending' : 'descending') : undefined}
    >
      {key !== undefined && sort ? (
        <button type="button" onClick={() => sort.onSort(key)}>
          {column.header}
          <span className="arrow" aria-hidden="true">
            {direction ? (direction === 'asc' ? '▲' : '▼') : ''}
          </span>
        </button>
      ) : (
        <span className={column.srOnlyHeader ? 'sr-only' : undefined}>{column.header}</span>
      )}
    </th>
  );
}
