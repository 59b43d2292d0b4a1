/**
 * The inbox (`/inbox`): receipts dropped here (or chosen, or arriving by mail or a watched folder) are read — amount,
 * currency, date, merchant, VAT — and matched with the bank's transactions; the list shows each with what was found
 * and where it stands, by tab. A receipt's page (`/inbox/<id>`) shows the file, the fields to correct, and the
 * suggested transactions to confirm or decline. Keyboard: `/` focuses search, ↑/↓ and Enter open a receipt.
 */
import { type DragEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { inboxRoutes } from '../../../src-shared/contract/inbox';
import { FileDrop } from '../../components/FileDrop';
import { PageHeader } from '../../components/PageHeader';
import { Progress } from '../../components/Progress';
import { Tabs } from '../../components/Tabs';
import { DataTable } from '../../components/table/DataTable';
import { EmptyState } from '../../components/table/EmptyState';
import { ListFooter } from '../../components/table/ListFooter';
import { ListSearch, useListFocus } from '../../components/table/ListSearch';
import { ErrorBanner } from '../../components/ui';
import { useCursorList } from '../../data/use-cursor-list';
import { pathId, useRouter } from '../../lib/router';
import { useScreenKeys } from '../../lib/use-screen-keys';
import { useSearchCommit } from '../../lib/use-search-text';
import { InboxItemPage } from './InboxItemPage';
import { inboxColumns } from './inbox-columns';
import { DEFAULT_SORT, INBOX_TABS, type InboxTab, listQuery, nextSort } from './inbox-view';
import { JustAdded } from './JustAdded';
import { RECEIPT_TYPES, useReceiptUpload } from './use-receipt-upload';
import './inbox.css';

export function InboxScreen() {
  const path = useRouter((r) => r.path);
  const id = pathId(path, '/inbox');
  return id ? <InboxItemPage key={id} id={id} /> : <InboxList />;
}

function InboxList() {
  const { t } = useTranslation('inbox');
  const columns = useMemo(() => inboxColumns(t), [t]);
  const [tab, setTab] = useState<InboxTab>('waiting');
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const [sort, setSort] = useState(DEFAULT_SORT);
  useSearchCommit(search, q, setQ);
  const list = useCursorList(inboxRoutes.list, listQuery(tab, q, sort));
  const navigate = useRouter((r) => r.navigate);
  const upload = useReceiptUpload();
  const focus = useListFocus();
  const [dragging, setDragging] = useState(false);
  // Receipts added in this visit, newest first: those no longer in the tab are said where they went (JustAdded).
  const [added, setAdded] = useState<string[]>([]);
  const send = async (file: File) => {
    const item = await upload.send(file);
    if (item) setAdded((ids) => [item.id, ...ids.filter((x) => x !== item.id)].slice(0, 20));
  };
  const shown = useMemo(() => new Set(list.items.map((i) => i.id)), [list.items]);

  useScreenKeys({ '/': focus.toSearch }, { enabled: true });

  // The whole page takes dropped receipts, not only the drop zone: a file let go a little beside it is not lost.
  const dropHandlers = {
    onDragOver: (e: DragEvent) => {
      if (!e.dataTransfer.types.includes('Files')) return;
      e.preventDefault();
      setDragging(true);
    },
    onDragLeave: (e: DragEvent) => {
      if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
    },
    onDrop: (e: DragEvent) => {
      setDragging(false);
      if (e.defaultPrevented || !e.dataTransfer.files.length) return;
      e.preventDefault();
      for (const file of e.dataTransfer.files) void send(file);
    },
  };

  const filtered = q.trim() !== '' || tab !== 'waiting';
  return (
    <div className={`page inbox-page ${dragging ? 'dragging' : ''}`} {...dropHandlers}>
      <PageHeader namespace="inbox" />

      <section className="card inbox-upload" aria-label={t('upload.label')}>
        <FileDrop inputLabel={t('upload.input')} accept={RECEIPT_TYPES} multiple onFile={(f) => void send(f)}>
          {t('upload.invite')}
        </FileDrop>
        {upload.uploads.length ? (
          <ul className="inbox-uploads">
            {upload.uploads.map((u) => (
              <li key={u.key}>
                <Progress label={t(u.share === null ? 'upload.sending' : 'upload.reading', { file: u.name })} share={u.share} />
              </li>
            ))}
          </ul>
        ) : null}
      </section>

      <div className="toolbar">
        <ListSearch namespace="inbox" focus={focus} value={search} onChange={setSearch} />
        <Tabs label={t('tabs.label')} tabs={INBOX_TABS} value={tab} onChange={setTab} text={(x) => t(`tabs.${x}`)} />
      </div>

      {list.error ? <ErrorBanner error={list.error} onRetry={list.refetch} /> : null}
      {list.isLoading ? null : <JustAdded ids={added} shown={shown} />}
      <div className="card">
        <DataTable
          label={t('listLabel')}
          className="inbox-table"
          columns={columns}
          rows={list.items}
          rowKey={(i) => i.id}
          rowProps={(i) => ({ 'data-inbox-id': i.id, className: i.status === 'suggested_match' ? 'attention' : '' })}
          onOpen={(i) => navigate(`/inbox/${i.id}`)}
          onLeaveTop={focus.toSearch}
          sort={{ ...sort, onSort: (column) => setSort(nextSort(sort, column)) }}
          wrap
          loading={list.isLoading}
          skeletonRows={5}
          tableRef={focus.tableRef}
          empty={
            list.error ? null : (
              <EmptyState title={filtered ? t('empty.noMatch') : t('empty.none')}>
                {filtered ? t('empty.noMatchText') : t('empty.noneText')}
              </EmptyState>
            )
          }
        />
        <ListFooter namespace="inbox" list={list} />
      </div>
    </div>
  );
}
