// biome-ignore-all lint/a11y/useSemanticElements: a virtualized ARIA grid: only the visible rows exist, positioned absolutely, which a <table> cannot do
// biome-ignore-all lint/a11y/useFocusableInteractive: focus stays on the grid; the current row is announced through aria-activedescendant
// biome-ignore-all lint/a11y/useKeyWithClickEvents: rows are driven by the grid's keyboard handler (onGridKey); a click only moves the cursor there
/**
 * Transaction review: a virtualized grid that stays smooth with 100,000 rows (@tanstack/react-virtual; pages of 500
 * fetched as the view nears the end of what is loaded), filters in the address, counts per review state, and a
 * keyboard-first review: move, select ranges, categorise, tag, split, note, mark reviewed, exclude, undo — each with
 * its shortcut shown, all listed in the shortcut sheet (?). After a categorisation, similar uncategorised
 * transactions from the same payee are offered with the dry run shown before applying.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  type KeyboardEvent,
  type MouseEvent,
  memo,
  type RefObject,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { appTransactionRoutes, type ReviewRow } from '../../../src-shared/contract/app-transactions';
import { bankAccountRoutes } from '../../../src-shared/contract/bank-accounts';
import { categoryRoutes } from '../../../src-shared/contract/categories';
import { ruleRoutes } from '../../../src-shared/contract/rules';
import { tagRoutes } from '../../../src-shared/contract/tags';
import { transactionRoutes } from '../../../src-shared/contract/transactions';
import { ErrorBanner, SearchIcon } from '../../components/ui';
import { invalidateEntities } from '../../data/query-client';
import { useCursorList } from '../../data/use-cursor-list';
import { useRead } from '../../data/use-read';
import { api } from '../../lib/api';
import { formatAmount, formatDate, formatNumber } from '../../lib/format';
import { useToasts } from '../../stores/toasts';
import {
  activeFilterCount,
  apiFilters,
  EMPTY_FILTERS,
  type Filters,
  listQuery,
  parseFilters,
  STATE_LABELS,
  serializeFilters,
  TABS,
  type Tab,
  tabCount,
} from './filters';
import { CategoryPicker, NoteDialog, TagPicker } from './pickers';
import { ShortcutSheet } from './ShortcutSheet';
import { SimilarDialog, type SimilarOffer } from './SimilarDialog';
import { TransactionPanel } from './TransactionPanel';
import { type RevertCall, recordUndo, revertCalls, type UndoEntry, type UndoField } from './undo';

const PAGE_SIZE = 500;
const ROW_HEIGHT = 40;
const HEADER_HEIGHT = 34;
const MAX_UNDO = 20;

const TAB_LABELS: Record<Tab, string> = {
  all: 'All',
  to_review: 'To review',
  needs_receipt: 'Needs receipt',
  ready: 'Ready',
  exported: 'Exported',
  excluded: 'Excluded',
};

/** The second line of a row: the counterparty or description when it says more than the name. */
function subline(r: ReviewRow): string {
  for (const text of [r.counterpartyName, r.description])
    if (text && text.trim().toLowerCase() !== r.name.trim().toLowerCase()) return text;
  return r.manual ? 'Added by hand' : '';
}

type Dialog = 'category' | 'tag' | 'note' | 'shortcuts' | null;

function useUrlFilters(): [Filters, (next: Filters) => void] {
  const [filters, setFilters] = useState(() => parseFilters(globalThis.location?.search ?? ''));
  useEffect(() => {
    const onPop = () => setFilters(parseFilters(globalThis.location.search));
    globalThis.addEventListener('popstate', onPop);
    return () => globalThis.removeEventListener('popstate', onPop);
  }, []);
  const update = useCallback((next: Filters) => {
    setFilters(next);
    const qs = serializeFilters(next);
    globalThis.history.replaceState(null, '', `${globalThis.location.pathname}${qs ? `?${qs}` : ''}`);
  }, []);
  return [filters, update];
}

export function TransactionsScreen() {
  const [filters, setFilters] = useUrlFilters();
  const [search, setSearch] = useState(filters.q);
  const query = useMemo(() => listQuery(filters, PAGE_SIZE), [filters]);
  const list = useCursorList(appTransactionRoutes.list, query);
  const counts = useRead(transactionRoutes.reviewCounts, { query: apiFilters(filters) });
  const categories = useRead(categoryRoutes.list);
  const accounts = useRead(bankAccountRoutes.list, { query: {} });
  const tags = useRead(tagRoutes.list);
  const client = useQueryClient();
  const toast = useToasts();

  const [cursor, setCursor] = useState(0);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [anchor, setAnchor] = useState<number | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [panel, setPanel] = useState<{ id: string; focus?: 'splits' | 'note' } | null>(null);
  const [undo, setUndo] = useState<UndoEntry[]>([]);
  const [offer, setOffer] = useState<SimilarOffer | null>(null);
  const [similarOpen, setSimilarOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const gridRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);

  const rows = list.items;
  const total = counts.data ? tabCount(filters.tab, counts.data.data) : null;
  // The grid's height is the tab's count when known (a stable scrollbar); rows not loaded yet show as placeholders.
  const rowCount = Math.max(rows.length, total ?? 0, list.isLoading && rows.length === 0 ? 12 : 0);

  /** Scrolls the grid to a row; set by the virtualized rows (only they re-render while the grid scrolls). */
  const scrollToRef = useRef<(index: number) => void>(() => {});
  const listRef = useRef(list);
  listRef.current = list;
  // Fetch the next page while the view nears the end of what is loaded.
  const onLastVisible = useCallback((last: number) => {
    const l = listRef.current;
    if (l.hasNextPage && !l.isLoadingMore && last >= l.items.length - 150) l.loadMore();
  }, []);

  // Search as you type, 250 ms after the last key.
  useEffect(() => {
    if (search === filters.q) return;
    const t = setTimeout(() => setFilters({ ...filters, q: search }), 250);
    return () => clearTimeout(t);
  }, [search, filters, setFilters]);

  // A new view starts at its top with nothing selected.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the filters are what make a new view
  useEffect(() => {
    setCursor(0);
    setSelected(new Set());
    setAnchor(null);
    scrollToRef.current(0);
  }, [filters]);

  const setFilter = (patch: Partial<Filters>) => setFilters({ ...filters, ...patch });

  /** The rows an action applies to: the selection, else the row under the cursor. */
  const targets = useCallback((): ReviewRow[] => {
    if (selected.size > 0) return rows.filter((r) => selected.has(r.id));
    const r = rows[cursor];
    return r ? [r] : [];
  }, [rows, selected, cursor]);

  const refresh = () => invalidateEntities(client, ['transaction']);

  async function bulkPatch(ids: string[], body: Record<string, unknown>) {
    for (let i = 0; i < ids.length; i += 1000) {
      await api.call(transactionRoutes.bulkUpdate, {
        body: { ids: ids.slice(i, i + 1000), ...body } as never,
        idempotencyKey: crypto.randomUUID(),
      });
    }
  }

  async function act(label: string, field: UndoField, rowsToChange: ReviewRow[], body: Record<string, unknown>) {
    if (rowsToChange.length === 0 || busy) return false;
    const entry = recordUndo(label, field, rowsToChange);
    setBusy(true);
    try {
      await bulkPatch(
        rowsToChange.map((r) => r.id),
        body,
      );
      setUndo((u) => [...u.slice(-(MAX_UNDO - 1)), entry]);
      toast.show(label, { action: { label: 'Undo', run: () => void undoLast() } });
      await refresh();
      return true;
    } catch (err) {
      toast.error(err, `Could not ${label.charAt(0).toLowerCase()}${label.slice(1)}`);
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function runRevert(call: RevertCall) {
    if (!call.perRow) return bulkPatch(call.ids, call.body);
    for (const id of call.ids) {
      await api.call(transactionRoutes.update, { params: { id }, body: call.body as never, idempotencyKey: crypto.randomUUID() });
    }
  }

  const undoRef = useRef(undo);
  undoRef.current = undo;
  async function undoLast() {
    const entry = undoRef.current[undoRef.current.length - 1];
    if (!entry) {
      toast.show('Nothing to undo');
      return;
    }
    setUndo((u) => u.slice(0, -1));
    try {
      for (const call of revertCalls(entry)) await runRevert(call);
      toast.show(`Undone: ${entry.label}`);
    } catch (err) {
      toast.error(err, 'Could not undo');
    }
    await refresh();
  }

  const plural = (n: number) => (n === 1 ? '1 transaction' : `${formatNumber(n)} transactions`);

  async function categorise(slug: string | null) {
    setDialog(null);
    // Focus back on the grid at once, so the next keys typed are not lost while the write runs.
    gridRef.current?.focus();
    const t = targets();
    const name = slug ? (categories.data?.data.find((c) => c.slug === slug)?.name ?? slug) : 'uncategorised';
    const ok = await act(`Categorised ${plural(t.length)} as ${name}`, 'category', t, { categorySlug: slug });
    gridRef.current?.focus();
    const one = t[0];
    if (ok && slug && t.length === 1 && one) {
      try {
        const similar = await api.call(ruleRoutes.similar, { query: { transactionId: one.id } });
        const ids = similar.preview.transactions.map((x) => x.id).filter((id) => id !== one.id);
        if (ids.length > 0)
          setOffer({ source: one, categoryName: name, slug, rule: similar.rule, preview: similar.preview, ids });
        else setOffer(null);
      } catch {
        // Suggestions are a convenience: without them the review goes on.
        setOffer(null);
      }
    }
  }

  async function addTag(tagId: string) {
    setDialog(null);
    // Focus back on the grid at once, so the next keys typed are not lost while the write runs.
    gridRef.current?.focus();
    const t = targets();
    const name = tags.data?.data.find((x) => x.id === tagId)?.name ?? 'tag';
    await act(`Tagged ${plural(t.length)} “${name}”`, 'tags', t, { tagId });
    gridRef.current?.focus();
  }

  async function saveNote(note: string | null) {
    setDialog(null);
    // Focus back on the grid at once, so the next keys typed are not lost while the write runs.
    gridRef.current?.focus();
    const t = targets();
    await act(note ? `Noted ${plural(t.length)}` : `Removed the note of ${plural(t.length)}`, 'note', t, { note });
    gridRef.current?.focus();
  }

  function toggleReviewed() {
    const t = targets().filter((r) => r.reviewState !== 'excluded' && r.reviewState !== 'exported');
    if (t.length === 0) return;
    const reviewed = !t.every((r) => r.reviewed);
    void act(`${reviewed ? 'Marked' : 'Unmarked'} ${plural(t.length)} as reviewed`, 'reviewed', t, { reviewed });
  }

  function toggleExcluded() {
    const t = targets();
    if (t.length === 0) return;
    const exclude = !t.every((r) => r.status === 'excluded');
    void act(`${exclude ? 'Excluded' : 'Included'} ${plural(t.length)}`, 'status', t, {
      status: exclude ? 'excluded' : 'posted',
    });
  }

  function move(to: number, extend: boolean) {
    const next = Math.max(0, Math.min(rowCount - 1, to));
    if (extend) {
      const from = anchor ?? cursor;
      if (anchor === null) setAnchor(cursor);
      const [a, b] = from < next ? [from, next] : [next, from];
      setSelected(new Set(rows.slice(a, b + 1).map((r) => r.id)));
    } else {
      setAnchor(null);
    }
    setCursor(next);
    scrollToRef.current(next);
  }

  function toggleSelect(index: number) {
    const r = rows[index];
    if (!r) return;
    setSelected((s) => {
      const n = new Set(s);
      if (n.has(r.id)) n.delete(r.id);
      else n.add(r.id);
      return n;
    });
    setAnchor(index);
  }

  // Row handlers that never change identity (the memoized rows then re-render only when their own data does).
  const latest = useRef({ move, toggleSelect, setCursor, setPanel });
  latest.current = { move, toggleSelect, setCursor, setPanel };
  const actions = useMemo<RowActions>(
    () => ({
      click(index, e) {
        if (e.shiftKey) latest.current.move(index, true);
        else if (e.ctrlKey || e.metaKey) latest.current.toggleSelect(index);
        else latest.current.setCursor(index);
        gridRef.current?.focus();
      },
      open: (id) => latest.current.setPanel({ id }),
      toggle: (index) => latest.current.toggleSelect(index),
    }),
    [],
  );

  function onGridKey(e: KeyboardEvent<HTMLDivElement>) {
    // Keys typed into the header's checkbox are its own.
    if (e.altKey || e.target !== e.currentTarget) return;
    const mod = e.ctrlKey || e.metaKey;
    const page = Math.max(1, Math.floor((gridRef.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1);
    const key = e.key;
    const handled = () => e.preventDefault();
    if (mod && key.toLowerCase() === 'a') {
      handled();
      setSelected(new Set(rows.map((r) => r.id)));
      return;
    }
    if (mod && key.toLowerCase() === 'z') {
      handled();
      void undoLast();
      return;
    }
    if (mod) return;
    switch (key) {
      case 'ArrowDown':
      case 'j':
      case 'J':
        handled();
        move(cursor + 1, e.shiftKey);
        break;
      case 'ArrowUp':
      case 'k':
      case 'K':
        handled();
        move(cursor - 1, e.shiftKey);
        break;
      case 'PageDown':
        handled();
        move(cursor + page, e.shiftKey);
        break;
      case 'PageUp':
        handled();
        move(cursor - page, e.shiftKey);
        break;
      case 'Home':
        handled();
        move(0, e.shiftKey);
        break;
      case 'End':
        handled();
        move(rows.length - 1, e.shiftKey);
        break;
      case ' ':
      case 'x':
        handled();
        toggleSelect(cursor);
        break;
      case 'Enter':
      case 'o':
        handled();
        if (rows[cursor]) setPanel({ id: rows[cursor].id });
        break;
      case 'Escape':
        if (selected.size) {
          handled();
          setSelected(new Set());
          setAnchor(null);
        }
        break;
      case 'c':
        handled();
        if (targets().length) setDialog('category');
        break;
      case 't':
        handled();
        if (targets().length) setDialog('tag');
        break;
      case 'n':
        handled();
        if (targets().length) setDialog('note');
        break;
      case 's':
        handled();
        if (rows[cursor]) setPanel({ id: rows[cursor].id, focus: 'splits' });
        break;
      case 'r':
        handled();
        toggleReviewed();
        break;
      case 'e':
        handled();
        toggleExcluded();
        break;
      case 'z':
        handled();
        void undoLast();
        break;
      case 'a':
        if (offer) {
          handled();
          setSimilarOpen(true);
        }
        break;
      case '?':
        handled();
        setDialog('shortcuts');
        break;
      case '/':
        handled();
        searchRef.current?.focus();
        break;
    }
  }

  // `?` and `/` work anywhere on the screen, not only in the grid.
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (dialog || panel || e.ctrlKey || e.metaKey || e.altKey) return;
      const target = e.target as HTMLElement;
      if (target.closest('input, textarea, select, [role="dialog"], [role="grid"]')) return;
      if (e.key === '?') {
        e.preventDefault();
        setDialog('shortcuts');
      } else if (e.key === '/') {
        e.preventDefault();
        searchRef.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [dialog, panel]);

  const closeDialog = () => {
    setDialog(null);
    gridRef.current?.focus();
  };

  const current = rows[cursor];
  const targetCount = selected.size || (current ? 1 : 0);
  const filtered = activeFilterCount(filters) > 0;
  const categoryList = categories.data?.data ?? [];
  const tagList = tags.data?.data ?? [];
  const accountList = accounts.data?.data ?? [];

  return (
    <div className="page tx-page">
      <header className="page-header">
        <div>
          <h1>Transactions</h1>
          <p>
            Review, categorise and tag what came in and went out. Press <kbd>?</kbd> for every shortcut.
          </p>
        </div>
        <div className="header-actions">
          <button type="button" className="btn" onClick={() => void undoLast()} disabled={undo.length === 0 || busy}>
            Undo <kbd>Z</kbd>
          </button>
          <button type="button" className="btn" onClick={() => setDialog('shortcuts')}>
            Shortcuts <kbd>?</kbd>
          </button>
        </div>
      </header>

      <div className="tabs state-tabs" role="tablist" aria-label="Review states">
        {TABS.map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            className="tab"
            aria-selected={filters.tab === t}
            onClick={() => setFilter({ tab: t })}
          >
            {TAB_LABELS[t]} <span className="tab-count">{counts.data ? formatNumber(tabCount(t, counts.data.data)) : '…'}</span>
          </button>
        ))}
      </div>

      <div className="toolbar filter-bar" role="search" aria-label="Filter transactions">
        <div className="search">
          <SearchIcon />
          <input
            ref={searchRef}
            className="input"
            type="search"
            placeholder="Search name, counterparty, note, amount…"
            aria-label="Search transactions"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape' && search) setSearch('');
              if (e.key === 'ArrowDown' || (e.key === 'Enter' && !e.shiftKey)) {
                e.preventDefault();
                gridRef.current?.focus();
              }
            }}
          />
          {search ? null : <kbd title="Press / to search">/</kbd>}
        </div>
        <label className="filter">
          <span>From</span>
          <input className="input" type="date" value={filters.from} onChange={(e) => setFilter({ from: e.target.value })} />
        </label>
        <label className="filter">
          <span>To</span>
          <input className="input" type="date" value={filters.to} onChange={(e) => setFilter({ to: e.target.value })} />
        </label>
        <label className="filter">
          <span>Account</span>
          <select className="select" value={filters.account} onChange={(e) => setFilter({ account: e.target.value })}>
            <option value="">All accounts</option>
            {accountList.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
        <label className="filter">
          <span>Category</span>
          <select className="select" value={filters.category} onChange={(e) => setFilter({ category: e.target.value })}>
            <option value="">All categories</option>
            <option value="uncategorized">Uncategorised</option>
            {categoryList.map((c) => (
              <option key={c.id} value={c.slug}>
                {c.parentId ? `  ${c.name}` : c.name}
              </option>
            ))}
          </select>
        </label>
        <label className="filter">
          <span>Tag</span>
          <select className="select" value={filters.tag} onChange={(e) => setFilter({ tag: e.target.value })}>
            <option value="">All tags</option>
            {tagList.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
        <label className="filter">
          <span>Status</span>
          <select
            className="select"
            value={filters.status}
            onChange={(e) => setFilter({ status: e.target.value as Filters['status'] })}
          >
            <option value="">Any status</option>
            <option value="posted">Posted</option>
            <option value="pending">Pending</option>
            <option value="completed">Completed</option>
            <option value="exported">Exported</option>
            <option value="excluded">Excluded</option>
            <option value="archived">Archived</option>
          </select>
        </label>
        <label className="filter amount">
          <span>Min amount</span>
          <input
            className="input"
            type="number"
            inputMode="decimal"
            value={filters.min}
            onChange={(e) => setFilter({ min: e.target.value })}
          />
        </label>
        <label className="filter amount">
          <span>Max amount</span>
          <input
            className="input"
            type="number"
            inputMode="decimal"
            value={filters.max}
            onChange={(e) => setFilter({ max: e.target.value })}
          />
        </label>
        {filtered ? (
          <button
            type="button"
            className="btn ghost"
            onClick={() => {
              setSearch('');
              setFilters({ ...EMPTY_FILTERS, tab: filters.tab });
            }}
          >
            Clear filters
          </button>
        ) : null}
      </div>

      {offer ? (
        <div className="banner info suggestion" role="status">
          <div className="grow">
            <strong>
              {formatNumber(offer.ids.length)} similar from “{offer.source.counterpartyName ?? offer.source.name}” are
              uncategorised.
            </strong>
            <small>Categorise them as {offer.categoryName} too? You see every change before it is made.</small>
          </div>
          <button type="button" className="btn primary" onClick={() => setSimilarOpen(true)}>
            Apply to {formatNumber(offer.ids.length)} similar <kbd>A</kbd>
          </button>
          <button type="button" className="btn ghost" onClick={() => setOffer(null)}>
            Dismiss
          </button>
        </div>
      ) : null}

      {list.error ? <ErrorBanner error={list.error} onRetry={list.refetch} /> : null}

      <div className={`card tx-card ${selected.size ? 'has-selection' : ''}`}>
        <div className="bulk-bar" aria-live="polite">
          {selected.size ? (
            <>
              <strong>{formatNumber(selected.size)} selected</strong>
              <button type="button" className="btn small" onClick={() => setDialog('category')} disabled={busy}>
                Categorise <kbd>C</kbd>
              </button>
              <button type="button" className="btn small" onClick={() => setDialog('tag')} disabled={busy}>
                Tag <kbd>T</kbd>
              </button>
              <button type="button" className="btn small" onClick={() => setDialog('note')} disabled={busy}>
                Note <kbd>N</kbd>
              </button>
              <button type="button" className="btn small" onClick={toggleReviewed} disabled={busy}>
                Mark reviewed <kbd>R</kbd>
              </button>
              <button type="button" className="btn small" onClick={toggleExcluded} disabled={busy}>
                Exclude <kbd>E</kbd>
              </button>
              <button
                type="button"
                className="btn ghost small"
                onClick={() => {
                  setSelected(new Set());
                  setAnchor(null);
                }}
              >
                Clear selection <kbd>Esc</kbd>
              </button>
            </>
          ) : (
            <span className="faint">
              {total === null ? 'Counting…' : `${formatNumber(total)} ${total === 1 ? 'transaction' : 'transactions'}`} ·{' '}
              <kbd>J</kbd> <kbd>K</kbd> move · <kbd>Shift</kbd>+<kbd>↓</kbd> select · <kbd>C</kbd> categorise · <kbd>R</kbd>{' '}
              reviewed · <kbd>↵</kbd> details
            </span>
          )}
        </div>
        <div
          ref={gridRef}
          className="tx-grid"
          role="grid"
          tabIndex={0}
          aria-label="Transactions"
          aria-rowcount={rowCount + 1}
          aria-multiselectable="true"
          aria-busy={list.isLoading}
          aria-activedescendant={current ? `tx-${current.id}` : undefined}
          onKeyDown={onGridKey}
        >
          <div className="tx-head" role="rowgroup">
            <div className="tx-row header" role="row" aria-rowindex={1}>
              <span role="columnheader" className="c-check">
                <input
                  type="checkbox"
                  aria-label="Select all loaded transactions"
                  checked={rows.length > 0 && selected.size === rows.length}
                  onChange={(e) => setSelected(e.target.checked ? new Set(rows.map((r) => r.id)) : new Set())}
                />
              </span>
              <span role="columnheader">Date</span>
              <span role="columnheader">Description</span>
              <span role="columnheader">Account</span>
              <span role="columnheader">Category</span>
              <span role="columnheader">Tags</span>
              <span role="columnheader" className="num">
                Amount
              </span>
              <span role="columnheader">State</span>
              <span role="columnheader">
                <span className="sr-only">Receipt, note, split</span>
              </span>
            </div>
          </div>
          <VirtualRows
            rows={rows}
            rowCount={rowCount}
            cursor={cursor}
            selected={selected}
            gridRef={gridRef}
            actions={actions}
            scrollToRef={scrollToRef}
            onLastVisible={onLastVisible}
          />
          {!list.isLoading && rows.length === 0 && !list.error ? (
            <div className="empty tx-empty">
              <h2>
                {filtered
                  ? 'No transactions match'
                  : filters.tab === 'to_review'
                    ? 'Nothing left to review'
                    : 'No transactions here'}
              </h2>
              <p>
                {filtered
                  ? 'Try another search or clear the filters.'
                  : filters.tab === 'to_review'
                    ? 'Every transaction has been looked at. New bank lines and imports appear here.'
                    : 'Transactions in this state appear here.'}
              </p>
              {filtered ? (
                <button
                  type="button"
                  className="btn"
                  onClick={() => {
                    setSearch('');
                    setFilters({ ...EMPTY_FILTERS, tab: filters.tab });
                  }}
                >
                  Clear filters
                </button>
              ) : null}
            </div>
          ) : null}
        </div>
        <div className="table-footer">
          <span aria-live="polite">
            {rows.length ? `${formatNumber(cursor + 1)} of ${formatNumber(total ?? rows.length)}` : ''}
            {list.isLoadingMore ? ' · loading more…' : ''}
          </span>
          <span className="faint">{targetCount ? `Actions apply to ${plural(targetCount)}` : ''}</span>
        </div>
      </div>

      {dialog === 'category' ? (
        <CategoryPicker categories={categoryList} count={targetCount} onPick={(s) => void categorise(s)} onClose={closeDialog} />
      ) : null}
      {dialog === 'tag' ? (
        <TagPicker tags={tagList} count={targetCount} onPick={(id) => void addTag(id)} onClose={closeDialog} />
      ) : null}
      {dialog === 'note' ? (
        <NoteDialog
          initial={targetCount === 1 ? (targets()[0]?.note ?? '') : ''}
          count={targetCount}
          onSave={(n) => void saveNote(n)}
          onClose={closeDialog}
        />
      ) : null}
      {dialog === 'shortcuts' ? <ShortcutSheet onClose={closeDialog} /> : null}
      {similarOpen && offer ? (
        <SimilarDialog
          offer={offer}
          onClose={() => {
            setSimilarOpen(false);
            gridRef.current?.focus();
          }}
          onApplied={(entry) => {
            setUndo((u) => [...u.slice(-(MAX_UNDO - 1)), entry]);
            setOffer(null);
            setSimilarOpen(false);
            void refresh();
            gridRef.current?.focus();
          }}
        />
      ) : null}
      {panel ? (
        <TransactionPanel
          id={panel.id}
          focus={panel.focus}
          categories={categoryList}
          tags={tagList}
          onClose={() => {
            setPanel(null);
            gridRef.current?.focus();
          }}
        />
      ) : null}
    </div>
  );
}

interface RowActions {
  click(index: number, e: MouseEvent): void;
  open(id: string): void;
  toggle(index: number): void;
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
  gridRef: RefObject<HTMLDivElement | null>;
  actions: RowActions;
  scrollToRef: RefObject<(index: number) => void>;
  onLastVisible: (index: number) => void;
}) {
  const { rows, onLastVisible } = props;
  const virtualizer = useVirtualizer({
    count: props.rowCount,
    getScrollElement: () => props.gridRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    // The column header sticks at the top of the scrolling grid: rows scrolled to must not hide under it.
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
            top={v.start}
            isCursor={v.index === props.cursor}
            isSelected={props.selected.has(r.id)}
            actions={props.actions}
          />
        ) : (
          <Placeholder key={`ph-${v.index}`} index={v.index} top={v.start} />
        );
      })}
    </div>
  );
}

const Placeholder = memo(function Placeholder({ index, top }: { index: number; top: number }) {
  return (
    <div className="tx-row placeholder" role="row" aria-rowindex={index + 2} style={{ transform: `translateY(${top}px)` }}>
      {[0, 1, 2, 3, 4, 5, 6, 7, 8].map((i) => (
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
}: {
  r: ReviewRow;
  index: number;
  top: number;
  isCursor: boolean;
  isSelected: boolean;
  actions: RowActions;
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
          aria-label={`Select ${r.name}`}
          checked={isSelected}
          onChange={() => actions.toggle(index)}
          onClick={(e) => e.stopPropagation()}
        />
      </span>
      <span role="gridcell" className="date">
        {formatDate(r.date)}
      </span>
      <span role="gridcell" className="c-desc">
        <span className="cell-name" title={r.name}>
          {r.name}
        </span>
        <span className="cell-sub">{subline(r)}</span>
      </span>
      <span role="gridcell" className="c-account" title={r.accountName}>
        {r.accountName}
      </span>
      <span role="gridcell" className="c-cat">
        {r.category ? (
          <>
            <span className="cat-dot" style={{ background: r.category.color }} aria-hidden="true" />
            <span className="ellipsis" title={r.category.name}>
              {r.category.name}
            </span>
          </>
        ) : r.splits ? (
          <span className="faint">Split in {r.splits}</span>
        ) : (
          <span className="faint">Uncategorised</span>
        )}
      </span>
      <span role="gridcell" className="c-tags">
        {r.tags.slice(0, 2).map((t) => (
          <span key={t.id} className="chip">
            {t.name}
          </span>
        ))}
        {r.tags.length > 2 ? <span className="chip more">+{r.tags.length - 2}</span> : null}
      </span>
      <span role="gridcell" className={`money ${r.amount < 0 ? 'out' : 'in'}`}>
        {formatAmount(r.amount, r.currency)}
      </span>
      <span role="gridcell">
        <span className={`state-pill ${r.reviewState}`}>{STATE_LABELS[r.reviewState]}</span>
      </span>
      <span role="gridcell" className="c-flags">
        {r.attachments ? (
          <span title={`${r.attachments} receipt${r.attachments === 1 ? '' : 's'}`}>
            <span className="sr-only">Has a receipt</span>
            <span aria-hidden="true">📎</span>
          </span>
        ) : null}
        {r.note ? (
          <span title={r.note}>
            <span className="sr-only">Has a note</span>
            <span aria-hidden="true">✎</span>
          </span>
        ) : null}
        {r.splits ? (
          <span title={`Split in ${r.splits}`}>
            <span className="sr-only">Split</span>
            <span aria-hidden="true">⑂</span>
          </span>
        ) : null}
      </span>
    </div>
  );
});
