/**
 * Customers: search, tab filter, sortable columns, cursor paging ("Load more"), create / edit / delete.
 * Keyboard: `/` focuses search, `n` opens a new customer, ↑/↓ move between rows, Enter opens the focused row.
 */
import { useRef, useState } from 'react';
import { type Customer, type CustomerSortColumn, type CustomerTab, customerRoutes } from '../../../src-shared/contract/customers';
import { SearchField } from '../../components/SearchField';
import type { Column } from '../../components/table/columns';
import { DataTable, focusFirstRow } from '../../components/table/DataTable';
import { EmptyState } from '../../components/table/EmptyState';
import { TableFooter } from '../../components/table/TableFooter';
import { ErrorBanner, PeopleIcon } from '../../components/ui';
import { useCursorList } from '../../data/use-cursor-list';
import { formatAmount, formatDate } from '../../lib/format';
import { useRouter } from '../../lib/router';
import { useScreenKeys } from '../../lib/use-screen-keys';
import { useSearchCommit } from '../../lib/use-search-text';
import { isConnected, useConnection } from '../../stores/connection';
import { listQuery, useCustomersView } from '../../stores/customers';
import { CustomerForm } from './CustomerForm';

const TABS: { id: CustomerTab; label: string; title: string }[] = [
  { id: 'all', label: 'All', title: 'Every customer' },
  { id: 'first-time', label: 'First-time', title: 'Exactly one issued invoice' },
  { id: 'repeat', label: 'Repeat', title: 'Two or more issued invoices' },
  { id: 'recent', label: 'Recent', title: 'Recently added or invoiced' },
  { id: 'unpaid', label: 'Unpaid', title: 'Has unpaid or overdue invoices' },
  { id: 'paid', label: 'Paid', title: 'Every issued invoice paid' },
];

/** Tags shown in a row; the rest as "+N" (all of them in the tooltip and the form). */
const MAX_CHIPS = 2;

const dash = <span className="faint">—</span>;

const COLUMNS: Column<Customer, CustomerSortColumn>[] = [
  {
    id: 'name',
    header: 'Name',
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
  { id: 'contact', header: 'Contact', cell: (c) => (c.contact ? <div className="cell-text">{c.contact}</div> : dash) },
  {
    id: 'country',
    header: 'Country',
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
    header: 'Tags',
    cell: (c) => (
      <div className="chips" title={c.tags.map((t) => t.name).join(', ') || undefined}>
        {c.tags.slice(0, MAX_CHIPS).map((t) => (
          <span key={t.id} className="chip">
            {t.name}
          </span>
        ))}
        {c.tags.length > MAX_CHIPS ? <span className="chip more">+{c.tags.length - MAX_CHIPS}</span> : null}
      </div>
    ),
  },
  {
    id: 'invoices',
    header: 'Invoices',
    sort: 'invoices',
    numeric: true,
    className: 'num',
    cell: (c) => c.invoiceCount || <span className="zero">0</span>,
  },
  {
    id: 'paid',
    header: 'Paid',
    sort: 'total_revenue',
    numeric: true,
    className: (c) => `money ${c.totalRevenue ? '' : 'zero'}`,
    cell: (c) => (c.invoiceCurrency ? formatAmount(c.totalRevenue, c.invoiceCurrency) : '—'),
  },
  {
    id: 'outstanding',
    header: 'Outstanding',
    sort: 'outstanding',
    numeric: true,
    className: (c) => `money ${c.outstandingAmount ? 'owed' : 'zero'}`,
    cell: (c) => (c.invoiceCurrency ? formatAmount(c.outstandingAmount, c.invoiceCurrency) : '—'),
  },
  {
    id: 'last-invoice',
    header: 'Last invoice',
    sort: 'last_invoice',
    className: 'date',
    cell: (c) => formatDate(c.lastInvoiceDate),
  },
  { id: 'added', header: 'Added', sort: 'created_at', className: 'date', cell: (c) => formatDate(c.createdAt) },
];

type Editing = { mode: 'new' } | { mode: 'edit'; customer: Customer } | null;

export function CustomersScreen() {
  const s = useCustomersView();
  const connected = useConnection(isConnected);
  const list = useCursorList(customerRoutes.list, listQuery(s), { enabled: connected });
  const navigate = useRouter((r) => r.navigate);
  const [search, setSearch] = useState(s.q);
  const [editing, setEditing] = useState<Editing>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const tableRef = useRef<HTMLTableElement>(null);

  useSearchCommit(search, s.q, s.setQuery);

  useScreenKeys(
    { '/': () => searchRef.current?.focus(), ...(connected ? { n: () => setEditing({ mode: 'new' }) } : {}) },
    { enabled: !editing },
  );

  const filtered = s.q.trim() !== '' || s.tab !== 'all';
  const loading = connected && list.isLoading;

  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>Customers</h1>
          <p>Who you invoice: contact details, tax identifiers and what they owe.</p>
        </div>
        <button type="button" className="btn primary" onClick={() => setEditing({ mode: 'new' })} disabled={!connected}>
          New customer <kbd>N</kbd>
        </button>
      </header>

      {!connected ? (
        <div className="card">
          <EmptyState
            icon={<PeopleIcon />}
            title="Connect to your Finops Desk server"
            action={
              <button type="button" className="btn primary" onClick={() => navigate('/settings')}>
                Open Settings
              </button>
            }
          >
            Enter the server address and an API key in Settings to see and manage customers.
          </EmptyState>
        </div>
      ) : (
        <>
          <div className="toolbar">
            <SearchField
              inputRef={searchRef}
              label="Search customers"
              placeholder="Search name, email, contact, VAT no.…"
              value={search}
              onChange={setSearch}
              onLeave={() => focusFirstRow(tableRef.current)}
            />
            <div className="tabs" role="tablist" aria-label="Customer groups">
              {TABS.map((t) => (
                <button
                  key={t.id}
                  type="button"
                  role="tab"
                  className="tab"
                  title={t.title}
                  aria-selected={s.tab === t.id}
                  onClick={() => s.setTab(t.id)}
                >
                  {t.label}
                </button>
              ))}
            </div>
          </div>

          {list.error ? <ErrorBanner error={list.error} onRetry={list.refetch} /> : null}

          <div className="card">
            <DataTable
              label="Customers"
              columns={COLUMNS}
              rows={list.items}
              rowKey={(c) => c.id}
              rowProps={(c) => ({ 'data-customer-id': c.id })}
              onOpen={(customer) => setEditing({ mode: 'edit', customer })}
              onLeaveTop={() => searchRef.current?.focus()}
              sort={{ ...s.sort, onSort: s.toggleSort }}
              wrap
              loading={loading}
              skeletonRows={5}
              tableRef={tableRef}
              empty={
                list.error ? null : filtered ? (
                  <EmptyState
                    title="No customers match"
                    action={
                      <button
                        type="button"
                        className="btn"
                        onClick={() => {
                          setSearch('');
                          if (s.tab !== 'all') s.setTab('all');
                          else s.setQuery('');
                        }}
                      >
                        Clear search and filters
                      </button>
                    }
                  >
                    {s.q.trim() ? `Nothing found for “${s.q.trim()}”` : 'No customer is in this group'}
                    {s.tab !== 'all' ? ` in ${TABS.find((t) => t.id === s.tab)?.label}` : ''}.
                  </EmptyState>
                ) : (
                  <EmptyState
                    icon={<PeopleIcon />}
                    title="No customers yet"
                    action={
                      <button type="button" className="btn primary" onClick={() => setEditing({ mode: 'new' })}>
                        Add your first customer
                      </button>
                    }
                  >
                    Add the people and companies you invoice. Their totals appear here as invoices are issued and paid.
                  </EmptyState>
                )
              }
            />
            {list.items.length > 0 ? (
              <TableFooter
                status={`${list.items.length} customer${list.items.length === 1 ? '' : 's'} shown${list.hasNextPage ? ', more available' : ''}`}
                more={list}
              />
            ) : null}
          </div>
        </>
      )}

      {editing ? (
        <CustomerForm
          key={editing.mode === 'edit' ? editing.customer.id : 'new'}
          customer={editing.mode === 'edit' ? editing.customer : null}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </div>
  );
}
