/**
 * Invoices: the list (`/invoices`: status tabs, search, totals by currency, payments to confirm) and an invoice's
 * page (`/invoices/<id>`). A new invoice is written in a drawer, from line items or from a project's tracked time.
 * Keyboard: `/` focuses search, `n` opens a new invoice, ↑/↓ move between rows, Enter opens the focused row.
 */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { invoiceRoutes } from '../../../src-shared/contract/invoices';
import { PageHeader } from '../../components/PageHeader';
import { Tabs } from '../../components/Tabs';
import { DataTable } from '../../components/table/DataTable';
import { ListEmpty } from '../../components/table/ListEmpty';
import { ListFooter } from '../../components/table/ListFooter';
import { ListSearch, useListFocus } from '../../components/table/ListSearch';
import { ErrorBanner, Kbd } from '../../components/ui';
import { useCursorList } from '../../data/use-cursor-list';
import { pathId, useRouter } from '../../lib/router';
import { useScreenKeys } from '../../lib/use-screen-keys';
import { InvoiceDetail } from './InvoiceDetail';
import { InvoiceTotals } from './InvoiceTotals';
import { invoiceColumns } from './invoice-columns';
import { listQuery, nextSort, TAB_IDS } from './list-view';
import { NewInvoice } from './NewInvoice';
import { PaymentSuggestions } from './PaymentSuggestions';
import { useListView } from './use-list-view';
import './invoices.css';

export function InvoicesScreen() {
  const path = useRouter((r) => r.path);
  const id = pathId(path, '/invoices');
  return id ? <InvoiceDetail key={id} id={id} /> : <InvoiceList />;
}

function InvoiceList() {
  const { t } = useTranslation('invoices');
  const columns = useMemo(() => invoiceColumns(t), [t]);
  const { view, update, search, setSearch } = useListView();
  const list = useCursorList(invoiceRoutes.list, listQuery(view));
  const navigate = useRouter((r) => r.navigate);
  const [creating, setCreating] = useState(false);
  const focus = useListFocus();

  useScreenKeys({ '/': focus.toSearch, n: () => setCreating(true) }, { enabled: !creating });

  const filtered = view.q.trim() !== '' || view.tab !== 'all';
  return (
    <div className="page inv-page">
      <PageHeader namespace="invoices">
        <button type="button" className="btn primary" onClick={() => setCreating(true)}>
          {t('new')} <Kbd k="N" />
        </button>
      </PageHeader>

      <InvoiceTotals tab={view.tab} />
      <PaymentSuggestions />

      <div className="toolbar">
        <ListSearch namespace="invoices" focus={focus} value={search} onChange={setSearch} />
        <Tabs
          label={t('tabs.label')}
          tabs={TAB_IDS}
          value={view.tab}
          onChange={(tab) => update({ tab })}
          text={(tab) => t(`tabs.${tab}`)}
        />
      </div>

      {list.error ? <ErrorBanner error={list.error} onRetry={list.refetch} /> : null}

      <div className="card">
        <DataTable
          label={t('title')}
          className="invoices-table"
          columns={columns}
          rows={list.items}
          rowKey={(inv) => inv.id}
          rowProps={(inv) => ({ 'data-invoice-id': inv.id, className: inv.status === 'overdue' ? 'attention' : '' })}
          onOpen={(inv) => navigate(`/invoices/${inv.id}`)}
          onLeaveTop={focus.toSearch}
          sort={{ ...view.sort, onSort: (column) => update({ sort: nextSort(view.sort, column) }) }}
          wrap
          loading={list.isLoading}
          skeletonRows={6}
          tableRef={focus.tableRef}
          empty={
            list.error ? null : (
              <ListEmpty
                namespace="invoices"
                filtered={filtered}
                noMatchText={
                  view.q.trim()
                    ? t('empty.nothingFor', { q: view.q.trim() })
                    : t('empty.noneInTab', { tab: t(`tabs.${view.tab}`) })
                }
                onClear={() => {
                  setSearch('');
                  update({ tab: 'all', q: '' });
                }}
                onAdd={() => setCreating(true)}
              />
            )
          }
        />
        <ListFooter namespace="invoices" list={list} />
      </div>

      {creating ? <NewInvoice onClose={() => setCreating(false)} onCreated={(inv) => navigate(`/invoices/${inv.id}`)} /> : null}
    </div>
  );
}
