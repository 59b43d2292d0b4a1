/**
 * The app's table (`table.data` in styles.css): a semantic <table> named by its label, built from column
 * definitions, with header cells that sort, skeleton rows while the first page loads, an empty state, and rows that
 * open by mouse or keyboard.
 *
 * Rows that open (`onOpen`) are focusable: Enter or Space opens the focused row, ↑ and ↓ move between rows, and ↑ on
 * the first row leaves the table (`onLeaveTop`, e.g. back to the search field above it).
 */
import type { KeyboardEvent, ReactNode, Ref } from 'react';
import { type Column, cellProps } from './columns';
import { HeaderCell, type SortState } from './HeaderCell';

/** Attributes a screen puts on a row: its state classes, selection, and a `data-…-id` for tests and links. */
export type RowProps = { className?: string; 'aria-selected'?: boolean } & { [data: `data-${string}`]: string };

export interface DataTableProps<T, S extends string = string> {
  /** The table's accessible name. */
  label: string;
  columns: readonly Column<T, S>[];
  rows: readonly T[];
  rowKey(row: T): string | number;
  rowProps?(row: T): RowProps;
  /** Rows that open (a record, a detail): focusable, opened by a click, Enter or Space. */
  onOpen?(row: T): void;
  /** ↑ on the first row. */
  onLeaveTop?(): void;
  sort?: SortState<S>;
  /** Extra classes of the table: `compact` (denser rows), a screen's own. */
  className?: string;
  /** Inside a horizontally scrolling wrapper (`table-wrap`); a string adds classes to it. */
  wrap?: boolean | string;
  /** The rows are being fetched: announced, and with `skeletonRows` shown as placeholders while there are none. */
  loading?: boolean;
  skeletonRows?: number;
  /** Shown under the header when there is nothing to list (and nothing loading). */
  empty?: ReactNode;
  /** With nothing to list, show only `empty`, without the header. */
  hideWhenEmpty?: boolean;
  tableRef?: Ref<HTMLTableElement>;
}

export function DataTable<T, S extends string = string>(props: DataTableProps<T, S>) {
  const { columns, rows, onOpen, loading } = props;
  const isEmpty = !loading && rows.length === 0;
  if (isEmpty && props.hideWhenEmpty) return <>{props.empty ?? null}</>;

  const table = (
    <table
      ref={props.tableRef}
      className={props.className ? `data ${props.className}` : 'data'}
      aria-label={props.label}
      aria-busy={loading}
    >
      <thead>
        <tr>
          {columns.map((c) => (
            <HeaderCell key={c.id} column={c} sort={props.sort} />
          ))}
        </tr>
      </thead>
      <tbody>
        {loading && rows.length === 0 && props.skeletonRows
          ? Array.from({ length: props.skeletonRows }, (_, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have nothing but their place
              <tr key={i} className="skeleton-row">
                {columns.map((c) => (
                  <td key={c.id}>
                    <span />
                  </td>
                ))}
              </tr>
            ))
          : rows.map((row) => (
              <tr
                key={props.rowKey(row)}
                {...props.rowProps?.(row)}
                {...(onOpen
                  ? {
                      tabIndex: 0,
                      onClick: () => onOpen(row),
                      onKeyDown: (e: KeyboardEvent<HTMLTableRowElement>) => onRowKey(e, () => onOpen(row), props.onLeaveTop),
                    }
                  : {})}
              >
                {columns.map((c) => (
                  <td key={c.id} {...cellProps(c, row)}>
                    {c.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
      </tbody>
    </table>
  );
  const wrapped = props.wrap ? (
    <div className={typeof props.wrap === 'string' ? `table-wrap ${props.wrap}` : 'table-wrap'}>{table}</div>
  ) : (
    table
  );
  return (
    <>
      {wrapped}
      {isEmpty ? props.empty : null}
    </>
  );
}

function onRowKey(e: KeyboardEvent<HTMLTableRowElement>, open: () => void, leaveTop: (() => void) | undefined) {
  const row = e.currentTarget;
  if (e.target !== row) return;
  if (e.key === 'Enter' || e.key === ' ') {
    // Without it, the Enter would go on to submit a form that opens and takes focus.
    e.preventDefault();
    open();
  } else if (e.key === 'ArrowDown') {
    e.preventDefault();
    (row.nextElementSibling as HTMLElement | null)?.focus();
  } else if (e.key === 'ArrowUp') {
    e.preventDefault();
    const previous = row.previousElementSibling as HTMLElement | null;
    if (previous) previous.focus();
    else leaveTop?.();
  }
}

/** Focuses a table's first row that opens (from a search field above it, on ↓). */
export function focusFirstRow(table: HTMLTableElement | null): void {
  (table?.querySelector('tbody tr[tabindex]') as HTMLElement | null)?.focus();
}
