/**
 * Customers: search, tab filter, sortable columns, cursor paging ("Load more"), create; a row opens the customer's
 * page (`/customers/<id>`, CustomerDetail.tsx), where it is edited or deleted.
 * Keyboard: `/` focuses search, `n` opens a new customer, ↑/↓ move between rows, Enter opens the focused row.
 */
import type { TFunction } from 'i18next';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Customer, type CustomerSortColumn, type CustomerTab, customerRoutes } from '../../../src-shared/contract/customers';
import { PageHeader } from '../../components/PageHeader';
import type { Column } from '../../components/table/columns';
import { DataTable } from '../../components/table/DataTable';
import { EmptyState } from '../../components/table/EmptyState';
import { ListEmpty } from '../../components/table/ListEmpty';
import { ListFooter } from '../../components/table/ListFooter';
import { ListSearch, useListFocus } from '../../components/table/ListSearch';
import { ErrorBanner, PeopleIcon } from '../../components/ui';
import { useCursorList } from '../../data/use-cursor-list';
import { formatDate, formatNumber } from '../../lib/format';
import { pathId, useRouter } from '../../lib/router';
import { useScreenKeys } from '../../lib/use-screen-keys';
import { useSearchCommit } from '../../lib/use-search-text';
import { isConnected, useConnection } from '../../stores/connection';
import { listQuery, useCustomersView } from '../../stores/customers';
import { amountOrDash } from './amount-or-dash';
import { CustomerDetail } from './CustomerDetail';
import { CustomerForm } from './CustomerForm';
import './customers.css';

/** The tabs; each one's label and tooltip are `tabs.<id>.label` and `.title` in the customers namespace. */
const TABS: CustomerTab[] = ['all', 'first-time', 'repeat', 'recent', 'unpaid', 'paid'];

/** Tags shown in a row; the rest as "+N" (all of them in the tooltip and the form). */
const MAX_CHIPS = 2;

const dash = <span className="faint">—</span>;

const columns = (t: TFunction<'customers'>): Column<Customer, CustomerSortColumn>[] => [
  {
    id: 'name',
    header: t('columns.name'),
    sort: 'name',
    cell: (c) => (
      <>
        <div className="cell-name" title={c.name}>
          {c.name}
        </div>
        <div className="cell-sub">{c.email ?? c.billingEmail ?? '—'}</div>
      </>
    ),
  },
  { id: 'contact', header: t('columns.contact'), cell: (c) => (c.contact ? <div className="cell-text">{c.contact}</div> : dash) },
  {
    id: 'country',
    header: t('columns.country'),
    sort: 'country',
    cell: (c) =>
      c.countryCode ? (
        <span className="country" title={[c.city, c.country].filter(Boolean).join(', ') || undefined}>
          <code>{c.countryCode}</code>
          {c.city ?? ''}
        </span>
      ) : (
        dash
      ),
  },
  {
    id: 'tags',
    header: t('columns.tags'),
    cell: (c) => (
      <div className="chips" title={c.tags.map((tag) => tag.name).join(', ') || undefined}>
        {c.tags.slice(0, MAX_CHIPS).map((tag) => (
          <span key={tag.id} className="chip">
            {tag.name}
          </span>
        ))}
        {c.tags.length > MAX_CHIPS ? <span className="chip more">+{c.tags.length - MAX_CHIPS}</span> : null}
      </div>
    ),
  },
  {
    id: 'invoices',
    header: t('columns.invoices'),
    sort: 'invoices',
    numeric: true,
    className: 'num',
    cell: (c) => (c.invoiceCount ? formatNumber(c.invoiceCount) : <span className="zero">{formatNumber(0)}</span>),
  },
  {
    id: 'paid',
    header: t('columns.paid'),
    sort: 'total_revenue',
    numeric: true,
    className: (c) => `money ${c.totalRevenue ? '' : 'zero'}`,
    cell: (c) => amountOrDash(c.totalRevenue, c.invoiceCurrency),
  },
  {
    id: 'outstanding',
    header: t('columns.outstanding'),
    sort: 'outstanding',
    numeric: true,
    className: (c) => `money ${c.outstandingAmount ? 'owed' : 'zero'}`,
    cell: (c) => amountOrDash(c.outstandingAmount, c.invoiceCurrency),
  },
  {
    id: 'last-invoice',
    header: t('columns.lastInvoice'),
    sort: 'last_invoice',
    className: 'date',
    cell: (c) => formatDate(c.lastInvoiceDate),
  },
  { id: 'added', header: t('columns.added'), sort: 'created_at', className: 'date', cell: (c) => formatDate(c.createdAt) },
];

export function CustomersScreen() {
  const path = useRouter((r) => r.path);
  const id = pathId(path, '/customers');
  return id ? <CustomerDetail key={id} id={id} /> : <CustomerList />;
}

function CustomerList() {
  const { t } = useTranslation('customers');
  const COLUMNS = useMemo(() => columns(t), [t]);
  const s = useCustomersView();
  const connected = useConnection(isConnected);
  const list = useCursorList(customerRoutes.list, listQuery(s), { enabled: connected });
  const navigate = useRouter((r) => r.navigate);
  const [search, setSearch] = useState(s.q);
  const [creating, setCreating] = useState(false);
  const focus = useListFocus();

  useSearchCommit(search, s.q, s.setQuery);

  useScreenKeys({ '/': focus.toSearch, ...(connected ? { n: () => setCreating(true) } : {}) }, { enabled: !creating });

  const filtered = s.q.trim() !== '' || s.tab !== 'all';
  const loading = connected && list.isLoading;

  return (
    <div className="page">
      <PageHeader namespace="customers">
        <button type="button" className="btn primary" onClick={() => setCreating(true)} disabled={!connected}>
          {t('new')} <kbd>N</kbd>
        </button>
      </PageHeader>

      {!connected ? (
        <div className="card">
          <EmptyState
            icon={<PeopleIcon />}
            title={t('connect.title')}
            action={
              <button type="button" className="btn primary" onClick={() => navigate('/settings')}>
                {t('connect.open')}
              </button>
            }
          >
            {t('connect.text')}
          </EmptyState>
        </div>
      ) : (
        <>
          <div className="toolbar">
            <ListSearch namespace="customers" focus={focus} value={search} onChange={setSearch} />
            <div className="tabs" role="tablist" aria-label={t('groups')}>
              {TABS.map((tab) => (
                <button
                  key={tab}
                  type="button"
                  role="tab"
                  className="tab"
                  title={t(`tabs.${tab}.title`)}
                  aria-selected={s.tab === tab}
                  onClick={() => s.setTab(tab)}
                >
                  {t(`tabs.${tab}.label`)}
                </button>
              ))}
            </div>
          </div>

          {list.error ? <ErrorBanner error={list.error} onRetry={list.refetch} /> : null}

          <div className="card">
            <DataTable
              label={t('title')}
              className="customers-table"
              columns={COLUMNS}
              rows={list.items}
              rowKey={(c) => c.id}
              rowProps={(c) => ({ 'data-customer-id': c.id })}
              onOpen={(customer) => navigate(`/customers/${customer.id}`)}
              onLeaveTop={focus.toSearch}
              sort={{ ...s.sort, onSort: s.toggleSort }}
              wrap
              loading={loading}
              skeletonRows={5}
              tableRef={focus.tableRef}
              empty={
                list.error ? null : (
                  <ListEmpty
                    namespace="customers"
                    filtered={filtered}
                    noMatchText={
                      s.q.trim()
                        ? s.tab !== 'all'
                          ? t('empty.nothingForIn', { q: s.q.trim(), tab: t(`tabs.${s.tab}.label`) })
                          : t('empty.nothingFor', { q: s.q.trim() })
                        : t('empty.noneInGroup', { tab: t(`tabs.${s.tab}.label`) })
                    }
                    onClear={() => {
                      setSearch('');
                      if (s.tab !== 'all') s.setTab('all');
                      else s.setQuery('');
                    }}
                    onAdd={() => setCreating(true)}
                    icon={<PeopleIcon />}
                  />
                )
              }
            />
            <ListFooter namespace="customers" list={list} />
          </div>
        </>
      )}

      {creating ? (
        <CustomerForm
          customer={null}
          onClose={() => setCreating(false)}
          // A search typed before (the name not found, then made) must not hide the customer just made.
          onCreated={(c) => {
            if (!matchesSearch(c, search)) setSearch('');
          }}
        />
      ) : null}
    </div>
  );
}

/** Whether the list's search (over name, email, …: the server's) plausibly still shows a customer just made. */
function matchesSearch(c: Customer, search: string): boolean {
  const q = search.trim().toLocaleLowerCase();
  if (!q) return true;
  return [c.name, c.email, c.contact, c.website].some((v) => v?.toLocaleLowerCase().includes(q));
}
