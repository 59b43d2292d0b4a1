// biome-ignore-all lint/a11y/useSemanticElements: a virtualized ARIA grid: only the visible rows exist, positioned absolutely, which a <table> cannot do
// biome-ignore-all lint/a11y/useFocusableInteractive: focus stays on the grid; the current row is announced through aria-activedescendant
// biome-ignore-all lint/a11y/useKeyWithClickEvents: rows are driven by the grid's key handler; a click only moves the cursor there
/**
 * The review grid: a virtualized ARIA grid that stays smooth with 100,000 rows (@tanstack/react-virtual). Only the
 * rows in view exist; the grid is as tall as the view's count, rows not loaded yet show as placeholders, and the next
 * page is fetched as the view nears the end of what is loaded. Focus stays on the grid (the cursor row is its active
 * descendant); the screen handles its keys.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  type KeyboardEvent,
  type MouseEvent,
  memo,
  type ReactNode,
  type RefObject,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import type { ReviewRow } from '../../../src-shared/contract/app-transactions';
import { type Column, cellProps, headerText } from '../../components/table/columns';
import type { MorePages } from '../../components/table/TableFooter';
import { t } from '../../i18n';
import { gridColumns } from './grid-columns';

type Columns = readonly Column<ReviewRow>[];

const ROW_HEIGHT = 40;
const HEADER_HEIGHT = 34;
/** Fetch the next page when the view comes this close to the last loaded row. */
const PREFETCH_ROWS = 150;

/** What the screen does with the grid: focus it, scroll a row into view, know how many rows a page holds. */
export interface GridHandle {
  ref: RefObject<HTMLDivElement | null>;
  /** Set by the virtualized rows. */
  scrollToRef: RefObject<(index: number) => void>;
  focus(): void;
  scrollTo(index: number): void;
  /** Rows a PageDown moves. */
  pageRows(): number;
}

export function useGridHandle(): GridHandle {
  const ref = useRef<HTMLDivElement>(null);
  const scrollToRef = useRef<(index: number) => void>(() => {});
  return useMemo(
    () => ({
      ref,
      scrollToRef,
      focus: () => ref.current?.focus(),
      scrollTo: (index) => scrollToRef.current(index),
      pageRows: () => Math.max(1, Math.floor((ref.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1),
    }),
    [],
  );
}

interface RowActions {
  click(index: number, e: MouseEvent): void;
  open(id: string): void;
  toggle(index: number): void;
}

export interface TransactionGridProps {
  grid: GridHandle;
  rows: readonly ReviewRow[];
  /** The grid's height in rows: the view's count when known. */
  rowCount: number;
  cursor: number;
  selected: ReadonlySet<string>;
  loading: boolean;
  more: MorePages;
  onKeyDown(e: KeyboardEvent<HTMLDivElement>): void;
  onRowClick(index: number, e: MouseEvent): void;
  onOpen(id: string): void;
  onToggle(index: number): void;
  onToggleAll(all: boolean): void;
  /** The review state of each row (only in "All": a tab of one state says it once). */
  showState: boolean;
  /** Shown over the grid when it has no rows (the empty state). */
  children?: ReactNode;
}

export function TransactionGrid(props: TransactionGridProps) {
  const { t: tx } = useTranslation('transactions');
  const { showState } = props;
  const columns = useMemo(() => gridColumns(tx).filter((c) => showState || c.id !== 'state'), [tx, showState]);
  const { grid, rows, selected } = props;
  // Handlers that never change identity: the memoized rows then re-render only when their own data does.
  const latest = useRef(props);
  latest.current = props;
  const actions = useMemo<RowActions>(
    () => ({
      click(index, e) {
        latest.current.onRowClick(index, e);
        latest.current.grid.focus();
      },
      open: (id) => latest.current.onOpen(id),
      toggle: (index) => latest.current.onToggle(index),
    }),
    [],
  );
  const onLastVisible = useCallback((last: number) => {
    const { more, rows } = latest.current;
    if (more.hasNextPage && !more.isLoadingMore && last >= rows.length - PREFETCH_ROWS) more.loadMore();
  }, []);
  const current = rows[props.cursor];
  // The rows follow the grid element itself, not a ref to it: a ref is attached after the rows' layout effects run,
  // so a grid mounted anew (another language, a screen left and come back to) would leave the virtualizer watching
  // the old, detached element — a grid as tall as its count with no rows in it. State re-renders the rows with the
  // element that is there.
  const [scrollElement, setScrollElement] = useState<HTMLDivElement | null>(null);
  const attach = useCallback(
    (el: HTMLDivElement | null) => {
      grid.ref.current = el;
      setScrollElement(el);
    },
    [grid.ref],
  );

  return (
    <div
      ref={attach}
      className={showState ? 'tx-grid' : 'tx-grid no-state'}
      role="grid"
      tabIndex={0}
      aria-label={tx('title')}
      aria-rowcount={props.rowCount + 1}
      aria-multiselectable="true"
      aria-busy={props.loading}
      aria-activedescendant={current ? `tx-${current.id}` : undefined}
      onKeyDown={props.onKeyDown}
    >
      <div className="tx-head" role="rowgroup">
        <div className="tx-row header" role="row" aria-rowindex={1}>
          <span role="columnheader" className="c-check">
            <input
              type="checkbox"
              aria-label={tx('selectAll')}
              checked={rows.length > 0 && selected.size === rows.length}
              onChange={(e) => props.onToggleAll(e.target.checked)}
            />
          </span>
          {columns.map((c) => (
            <span key={c.id} role="columnheader" className={c.numeric ? 'num' : undefined}>
              {headerText(c)}
            </span>
          ))}
        </div>
      </div>
      <VirtualRows
        rows={rows}
        rowCount={props.rowCount}
        cursor={props.cursor}
        selected={selected}
        scrollElement={scrollElement}
        actions={actions}
        columns={columns}
        scrollToRef={grid.scrollToRef}
        onLastVisible={onLastVisible}
      />
      {props.children}
    </div>
  );
}

/**
 * The rows on screen, virtualized. It owns the virtualizer, so scrolling re-renders this list only (not the filters,
 * tabs and bars of the screen), and each row is memoized: a frame of scrolling mounts the rows coming into view and
 * moves the others.
 */
function VirtualRows(props: {
  rows: readonly ReviewRow[];
  rowCount: number;
  cursor: number;
  selected: ReadonlySet<string>;
  scrollElement: HTMLDivElement | null;
  actions: RowActions;
  columns: Columns;
  scrollToRef: RefObject<(index: number) => void>;
  onLastVisible: (index: number) => void;
}) {
  const { rows, onLastVisible } = props;
  const virtualizer = useVirtualizer({
    count: props.rowCount,
    getScrollElement: () => props.scrollElement,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    // The column header sits above the rows inside the scrolling grid (the rows start that far down: their margin)
    // and sticks at its top (rows scrolled to must not hide under it: the padding). Without the margin a row moved
    // to by J was taken as in sight while its last 34 px were below the grid, under the totals footer.
    scrollMargin: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
  });
  props.scrollToRef.current = (index) => virtualizer.scrollToIndex(index, { align: 'auto' });
  const items = virtualizer.getVirtualItems();
  const last = items[items.length - 1]?.index ?? 0;
  // Again when a page arrives while the view still sits at the end of what is loaded.
  const loaded = rows.length;
  useEffect(() => {
    if (loaded >= 0) onLastVisible(last);
  }, [last, loaded, onLastVisible]);
  return (
    <div className="tx-sizer" role="rowgroup" style={{ height: virtualizer.getTotalSize() }}>
      {items.map((v) => {
        const r = rows[v.index];
        return r ? (
          <TxRow
            key={r.id}
            r={r}
            index={v.index}
            top={v.start - HEADER_HEIGHT}
            isCursor={v.index === props.cursor}
            isSelected={props.selected.has(r.id)}
            actions={props.actions}
            columns={props.columns}
          />
        ) : (
          <Placeholder key={`ph-${v.index}`} index={v.index} top={v.start - HEADER_HEIGHT} cells={props.columns.length + 1} />
        );
      })}
    </div>
  );
}

/** `cells`: the checkbox column and the data columns. */
const Placeholder = memo(function Placeholder({ index, top, cells }: { index: number; top: number; cells: number }) {
  return (
    <div className="tx-row placeholder" role="row" aria-rowindex={index + 2} style={{ transform: `translateY(${top}px)` }}>
      {Array.from({ length: cells }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholder cells have nothing but their place
        <span key={i} role="gridcell">
          <span className="bone" />
        </span>
      ))}
    </div>
  );
});

const TxRow = memo(function TxRow({
  r,
  index,
  top,
  isCursor,
  isSelected,
  actions,
  columns,
}: {
  r: ReviewRow;
  index: number;
  top: number;
  isCursor: boolean;
  isSelected: boolean;
  actions: RowActions;
  columns: Columns;
}) {
  return (
    <div
      id={`tx-${r.id}`}
      className={`tx-row ${isCursor ? 'cursor' : ''} ${isSelected ? 'selected' : ''}`}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={isSelected}
      data-transaction-id={r.id}
      style={{ transform: `translateY(${top}px)` }}
      onClick={(e) => actions.click(index, e)}
      onDoubleClick={() => actions.open(r.id)}
    >
      <span role="gridcell" className="c-check">
        <input
          type="checkbox"
          tabIndex={-1}
          aria-label={t('transactions:selectRow', { name: r.name })}
          checked={isSelected}
          onChange={() => actions.toggle(index)}
          onClick={(e) => e.stopPropagation()}
        />
      </span>
      {columns.map((c) => (
        <span key={c.id} role="gridcell" {...cellProps(c, r)}>
          {c.cell(r)}
        </span>
      ))}
    </div>
  );
});
