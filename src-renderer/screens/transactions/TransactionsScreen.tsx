/**
 * Transaction review: the review-state tabs with their counts, the filters (kept in the address), the grid
 * (virtualized, for 100,000 rows) and a keyboard-first review: move, select ranges, categorise, tag, split, note, mark
 * reviewed, exclude, undo — each with its shortcut shown, all listed in the shortcut sheet (?). After a
 * categorisation, similar uncategorised transactions from the same payee are offered with the dry run shown before
 * applying. This module composes the parts: filters (FilterBar, StateTabs, use-transaction-filters), the grid
 * (TransactionGrid), keyboard and selection (review-keys, use-grid-selection) and the actions (BulkBar,
 * use-review-actions, use-similar-offer).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { appTransactionRoutes } from '../../../src-shared/contract/app-transactions';
import { bankAccountRoutes } from '../../../src-shared/contract/bank-accounts';
import { categoryRoutes } from '../../../src-shared/contract/categories';
import { tagRoutes } from '../../../src-shared/contract/tags';
import { transactionRoutes } from '../../../src-shared/contract/transactions';
import { useTagByName } from '../../components/TagField';
import { EmptyState } from '../../components/table/EmptyState';
import { TableFooter } from '../../components/table/TableFooter';
import { ErrorBanner } from '../../components/ui';
import { useCursorList } from '../../data/use-cursor-list';
import { useRead } from '../../data/use-read';
import { i18n, languageOf } from '../../i18n';
import { downloadFile } from '../../lib/download';
import { formatNumber } from '../../lib/format';
import { currentMarks } from '../../lib/parse-number';
import { useScreenKeys } from '../../lib/use-screen-keys';
import { useToasts } from '../../stores/toasts';
import { ReceiptDrop } from '../inbox/ReceiptDrop';
import { type BulkAction, BulkBar } from './BulkBar';
import { FilterBar } from './FilterBar';
import { activeFilterCount, apiFilters, listQuery, tabCount } from './filters';
import { NewTransaction } from './NewTransaction';
import { CategoryPicker, NoteDialog, TagPicker } from './pickers';
import { onReviewKey, type ReviewCommands } from './review-keys';
import { ShortcutSheet } from './ShortcutSheet';
import { SimilarBanner } from './SimilarBanner';
import { SimilarDialog } from './SimilarDialog';
import { StateTabs } from './StateTabs';
import { Totals } from './Totals';
import { TransactionGrid, useGridHandle } from './TransactionGrid';
import { TransactionPanel } from './TransactionPanel';
import './transactions.css';
import { useGridSelection } from './use-grid-selection';
import { transactionCount, useReviewActions } from './use-review-actions';
import { useSimilarOffer } from './use-similar-offer';
import { useTransactionFilters } from './use-transaction-filters';

const PAGE_SIZE = 500;

type Dialog = 'category' | 'tag' | 'note' | 'shortcuts' | 'new' | null;

export function TransactionsScreen() {
  const { t } = useTranslation('transactions');
  const view = useTransactionFilters();
  const { filters } = view;
  const query = useMemo(() => listQuery(filters, PAGE_SIZE), [filters]);
  const list = useCursorList(appTransactionRoutes.list, query);
  const counts = useRead(transactionRoutes.reviewCounts, { query: apiFilters(filters) });
  const categories = useRead(categoryRoutes.list);
  const accounts = useRead(bankAccountRoutes.list, { query: {} });
  const tags = useRead(tagRoutes.list);
  const tagByName = useTagByName();
  const actions = useReviewActions();
  const similar = useSimilarOffer();
  const grid = useGridHandle();
  const searchRef = useRef<HTMLInputElement>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [panel, setPanel] = useState<{ id: string; focus?: 'splits' | 'note' } | null>(null);
  const totalsQuery = useMemo(() => {
    const { pageSize: _, ...rest } = listQuery(filters, 1);
    return rest;
  }, [filters]);
  const totals = useRead(appTransactionRoutes.totals, { query: totalsQuery });
  const toast = useToasts();
  /** After a categorisation of the row under the cursor: the row the cursor went on to (by id, as rows may move). */
  const landOn = useRef<{ id: string; index: number } | null>(null);

  const rows = list.items;
  const total = counts.data ? tabCount(filters.tab, counts.data.data) : null;
  // The grid's height is the tab's count when known (a stable scrollbar); rows not loaded yet show as placeholders.
  const rowCount = Math.max(rows.length, total ?? 0, list.isLoading && rows.length === 0 ? 12 : 0);
  const selection = useGridSelection(rows, rowCount, grid);
  const { cursor } = selection;
  const categoryList = categories.data?.data ?? [];
  const tagList = tags.data?.data ?? [];

  // A new view starts at its top with nothing selected.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the filters are what make a new view
  useEffect(() => selection.reset(), [filters]);

  // Arriving on the screen, the keyboard is on the grid (not 30 tabs away), unless it is already in a field.
  const arrived = useRef(false);
  useEffect(() => {
    if (arrived.current || rows.length === 0) return;
    arrived.current = true;
    if (!document.activeElement?.closest('input, select, textarea, [role="dialog"]')) grid.focus();
  }, [rows.length, grid]);

  // The row the cursor went on to stays under it when the list refreshes (a categorised row may leave the view).
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new list moves it
  useEffect(() => {
    const land = landOn.current;
    if (!land) return;
    const at = rows.findIndex((r) => r.id === land.id);
    if (at >= 0 && cursor === land.index && at !== cursor) selection.point(at);
  }, [rows]);

  /**
   * After an action, focus goes back to the grid only if it was left nowhere (a button disabled under it): never away
   * from a dialog or field the person has moved on to while the write ran.
   */
  const regainFocus = () => {
    if (!document.activeElement || document.activeElement === document.body) grid.focus();
  };
  const closeDialog = () => {
    setDialog(null);
    grid.focus();
  };
  const openDialog = (d: Exclude<Dialog, null>) => {
    if (selection.targets().length) setDialog(d);
  };
  const openPanel = (focus?: 'splits') => {
    const row = rows[cursor];
    if (row) setPanel({ id: row.id, focus });
  };

  async function categorise(slug: string | null) {
    // Focus back on the grid at once, so the next keys typed are not lost while the write runs.
    closeDialog();
    const targets = selection.targets();
    // One row categorised from the keyboard: the cursor goes on to the next, as after marking it reviewed.
    const next = rows[cursor + 1];
    if (!selection.selected.size && next) {
      landOn.current = { id: next.id, index: cursor + 1 };
      selection.move(cursor + 1, false);
    } else landOn.current = null;
    const name = slug ? (categoryList.find((c) => c.slug === slug)?.name ?? slug) : t('uncategorisedLower');
    const ok = await actions.categorise(targets, slug, name);
    regainFocus();
    const one = targets[0];
    if (ok && slug && targets.length === 1 && one) await similar.lookFor(one, slug, name);
  }

  async function addTag(tagId: string, name?: string) {
    closeDialog();
    await actions.addTag(selection.targets(), tagId, name ?? tagList.find((x) => x.id === tagId)?.name ?? t('tagFallback'));
    regainFocus();
  }

  async function createTag(name: string) {
    try {
      const tag = await tagByName(name, tagList);
      await addTag(tag.id, tag.name);
    } catch (err) {
      toast.error(err, t('pickers.createTagFailed', { name }));
    }
  }

  async function saveNote(note: string | null) {
    closeDialog();
    await actions.saveNote(selection.targets(), note);
    regainFocus();
  }

  const bulk = (action: BulkAction) => {
    if (action === 'reviewed') void actions.toggleReviewed(selection.targets()).then(regainFocus);
    else if (action === 'excluded') void actions.toggleExcluded(selection.targets()).then(regainFocus);
    else openDialog(action);
  };

  const commands: ReviewCommands = {
    next: (extend) => selection.move(cursor + 1, extend),
    previous: (extend) => selection.move(cursor - 1, extend),
    pageDown: (extend) => selection.move(cursor + grid.pageRows(), extend),
    pageUp: (extend) => selection.move(cursor - grid.pageRows(), extend),
    first: (extend) => selection.move(0, extend),
    last: (extend) => selection.move(rows.length - 1, extend),
    toggle: () => selection.toggle(cursor),
    selectAll: () => selection.selectAll(),
    clear: () => (selection.selected.size ? selection.clear() : false),
    open: () => openPanel(),
    split: () => openPanel('splits'),
    categorise: () => bulk('category'),
    tag: () => bulk('tag'),
    note: () => bulk('note'),
    reviewed: () => bulk('reviewed'),
    excluded: () => bulk('excluded'),
    undo: () => void actions.undoLast(),
    applySimilar: () => similar.show(),
    shortcuts: () => setDialog('shortcuts'),
    search: () => searchRef.current?.focus(),
  };

  // `?` and `/` work anywhere on the screen, not only in the grid.
  useScreenKeys(
    { '?': () => setDialog('shortcuts'), '/': () => searchRef.current?.focus() },
    { enabled: !dialog && !panel, alsoIgnoreIn: '[role="grid"]' },
  );

  const targetCount = selection.selected.size || (rows[cursor] ? 1 : 0);
  const filtered = activeFilterCount(filters) > 0;

  /** The filtered set as the user's spreadsheet reads it: their decimal mark, column names in their language. */
  async function exportCsv() {
    const fileName = `transactions-${new Date().toISOString().slice(0, 10)}.csv`;
    const count = totals.data?.data.reduce((n, c) => n + c.count, 0) ?? rows.length;
    try {
      await downloadFile(
        appTransactionRoutes.export,
        {
          query: {
            ...totalsQuery,
            decimal: currentMarks().decimal === ',' ? 'comma' : 'point',
            lang: languageOf(i18n.language),
          },
        },
        fileName,
      );
      toast.show(t('export.done', { count, file: fileName }));
    } catch (err) {
      toast.error(err, t('export.failed'));
    }
  }

  return (
    <div className="page tx-page">
      <header className="page-header">
        <div>
          <h1>{t('title')}</h1>
          <p>
            {t('intro')} {t('introKeys')} <kbd>?</kbd>
          </p>
        </div>
        <div className="header-actions">
          <button type="button" className="btn" onClick={() => setDialog('new')}>
            {t('add.button')}
          </button>
          <button type="button" className="btn" onClick={() => void exportCsv()}>
            {t('export.button')}
          </button>
          <button
            type="button"
            className="btn"
            onClick={() => void actions.undoLast()}
            disabled={!actions.canUndo || actions.busy}
          >
            {t('undo')} <kbd>Z</kbd>
          </button>
          <button type="button" className="btn" onClick={() => setDialog('shortcuts')}>
            {t('shortcuts')} <kbd>?</kbd>
          </button>
        </div>
      </header>

      <StateTabs tab={filters.tab} counts={counts.data?.data} onChange={(tab) => view.setFilter({ tab })} />
      <FilterBar
        view={view}
        accounts={accounts.data?.data ?? []}
        categories={categoryList}
        tags={tagList}
        searchRef={searchRef}
        onToGrid={grid.focus}
      />
      {similar.offer ? <SimilarBanner offer={similar.offer} onShow={similar.show} onDismiss={similar.dismiss} /> : null}
      {list.error ? <ErrorBanner error={list.error} onRetry={list.refetch} /> : null}

      <div className={`card tx-card ${selection.selected.size ? 'has-selection' : ''}`}>
        <BulkBar selected={selection.selected.size} total={total} busy={actions.busy} onAction={bulk} onClear={selection.clear} />
        <TransactionGrid
          grid={grid}
          rows={rows}
          rowCount={rowCount}
          cursor={cursor}
          selected={selection.selected}
          loading={list.isLoading}
          more={list}
          onKeyDown={(e) => onReviewKey(e, commands)}
          onRowClick={(index, e) => {
            if (e.shiftKey) selection.move(index, true);
            else if (e.ctrlKey || e.metaKey) selection.toggle(index);
            else selection.point(index);
          }}
          onOpen={(id) => setPanel({ id })}
          onToggle={selection.toggle}
          onToggleAll={(all) => (all ? selection.selectAll() : selection.clear())}
          showState={filters.tab === 'all'}
        >
          {!list.isLoading && rows.length === 0 && !list.error ? (
            <EmptyState
              className="tx-empty"
              title={filtered ? t('empty.noMatch') : filters.tab === 'to_review' ? t('empty.reviewed') : t('empty.none')}
              action={
                filtered ? (
                  <button type="button" className="btn" onClick={view.clear}>
                    {t('filters.clear')}
                  </button>
                ) : null
              }
            >
              {filtered ? t('empty.noMatchText') : filters.tab === 'to_review' ? t('empty.reviewedText') : t('empty.noneText')}
            </EmptyState>
          ) : null}
        </TransactionGrid>
        <TableFooter
          status={`${rows.length ? t('position', { at: formatNumber(cursor + 1), of: formatNumber(total ?? rows.length) }) : ''}${list.isLoadingMore ? ` · ${t('loadingMore')}` : ''}`}
        >
          <Totals totals={totals.data?.data} />
          <span className="faint">{targetCount ? t('appliesTo', { what: transactionCount(targetCount) }) : ''}</span>
        </TableFooter>
      </div>

      {dialog === 'category' ? (
        <CategoryPicker categories={categoryList} count={targetCount} onPick={(s) => void categorise(s)} onClose={closeDialog} />
      ) : null}
      {dialog === 'tag' ? (
        <TagPicker
          tags={tagList}
          count={targetCount}
          onPick={(id) => void addTag(id)}
          onCreate={(name) => void createTag(name)}
          onClose={closeDialog}
        />
      ) : null}
      {dialog === 'note' ? (
        <NoteDialog
          initial={targetCount === 1 ? (selection.targets()[0]?.note ?? '') : ''}
          count={targetCount}
          onSave={(n) => void saveNote(n)}
          onClose={closeDialog}
        />
      ) : null}
      {dialog === 'shortcuts' ? <ShortcutSheet onClose={closeDialog} /> : null}
      {dialog === 'new' ? (
        <NewTransaction accounts={accounts.data?.data ?? []} categories={categoryList} onClose={closeDialog} />
      ) : null}
      {similar.open && similar.offer ? (
        <SimilarDialog
          offer={similar.offer}
          onClose={() => {
            similar.close();
            grid.focus();
          }}
          onApplied={(entry) => {
            actions.madeElsewhere(entry);
            similar.dismiss();
            grid.focus();
          }}
        />
      ) : null}
      <ReceiptDrop rows={rows} />
      {panel ? (
        <TransactionPanel
          id={panel.id}
          focus={panel.focus}
          categories={categoryList}
          tags={tagList}
          onClose={() => {
            setPanel(null);
            grid.focus();
          }}
        />
      ) : null}
    </div>
  );
}
