/**
 * Customers: search, tab filter, sortable columns, cursor paging ("Load more"), create / edit / delete.
 * Keyboard: `/` focuses search, `n` opens a new customer, ↑/↓ move between rows, Enter opens the focused row.
 */
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { type Customer, type CustomerSortColumn, type CustomerTab, customerRoutes } from '../../../src-shared/contract/customers';
import { ErrorBanner, PeopleIcon, SearchIcon } from '../../components/ui';
import { useCursorList } from '../../data/use-cursor-list';
import { formatAmount, formatDate } from '../../lib/format';
import { useRouter } from '../../lib/router';
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

interface Column {
  label: string;
  sort?: CustomerSortColumn;
  num?: boolean;
}

const COLUMNS: Column[] = [
  { label: 'Name', sort: 'name' },
  { label: 'Contact' },
  { label: 'Country', sort: 'country' },
  { label: 'Tags' },
  { label: 'Invoices', sort: 'invoices', num: true },
  { label: 'Paid', sort: 'total_revenue', num: true },
  { label: 'Outstanding', sort: 'outstanding', num: true },
  { label: 'Last invoice', sort: 'last_invoice' },
  { label: 'Added', sort: 'created_at' },
];

/** Tags shown in a row; the rest as "+N" (all of them in the tooltip and the form). */
const MAX_CHIPS = 2;

type Editing = { mode: 'new' } | { mode: 'edit'; customer: Customer } | null;

export function CustomersScreen() {
  const s = useCustomersView();
  const connected = useConnection(isConnected);
  const list = useCursorList(customerRoutes.list, listQuery(s), { enabled: connected });
  const navigate = useRouter((r) => r.navigate);
  const [search, setSearch] = useState(s.q);
  const [editing, setEditing] = useState<Editing>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const bodyRef = useRef<HTMLTableSectionElement>(null);

  // Search as you type, 250 ms after the last key.
  useEffect(() => {
    if (search === s.q) return;
    const t = setTimeout(() => s.setQuery(search), 250);
    return () => clearTimeout(t);
  }, [search, s]);

  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (editing || e.ctrlKey || e.metaKey || e.altKey) return;
      const target = e.target as HTMLElement;
      if (target.closest('input, textarea, select, [role="dialog"], [role="alertdialog"]')) return;
      if (e.key === '/') {
        e.preventDefault();
        searchRef.current?.focus();
      } else if (e.key === 'n' && connected) {
        e.preventDefault();
        setEditing({ mode: 'new' });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [editing, connected]);

  function onRowKey(e: KeyboardEvent<HTMLTableRowElement>, customer: Customer) {
    const row = e.currentTarget;
    if (e.key === 'Enter') {
      // Without preventDefault the Enter would go on to submit the form that opens and takes focus.
      e.preventDefault();
      setEditing({ mode: 'edit', customer });
    } else if (e.key === 'ArrowDown') {
      e.preventDefault();
      (row.nextElementSibling as HTMLElement | null)?.focus();
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      (row.previousElementSibling as HTMLElement | null)?.focus() ?? searchRef.current?.focus();
    }
  }

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
          <div className="empty">
            <div className="icon">
              <PeopleIcon />
            </div>
            <h2>Connect to your Finops Desk server</h2>
            <p>Enter the server address and an API key in Settings to see and manage customers.</p>
            <button type="button" className="btn primary" onClick={() => navigate('/settings')}>
              Open Settings
            </button>
          </div>
        </div>
      ) : (
        <>
          <div className="toolbar">
            <div className="search">
              <SearchIcon />
              <input
                ref={searchRef}
                className="input"
                type="search"
                placeholder="Search name, email, contact, VAT no.…"
                aria-label="Search customers"
                value={search}
                onChange={(e) => setSearch(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Escape' && search) setSearch('');
                  if (e.key === 'ArrowDown') {
                    e.preventDefault();
                    (bodyRef.current?.querySelector('tr[tabindex]') as HTMLElement | null)?.focus();
                  }
                }}
              />
              {search ? null : <kbd title="Press / to search">/</kbd>}
            </div>
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
            <div className="table-wrap">
              <table className="data" aria-label="Customers" aria-busy={loading}>
                <thead>
                  <tr>
                    {COLUMNS.map((c) => {
                      const active = c.sort && s.sort.column === c.sort;
                      return (
                        <th
                          key={c.label}
                          className={c.num ? 'num' : undefined}
                          aria-sort={active ? (s.sort.direction === 'asc' ? 'ascending' : 'descending') : undefined}
                          scope="col"
                        >
                          {c.sort ? (
                            <button type="button" onClick={() => c.sort && s.toggleSort(c.sort)}>
                              {c.label}
                              <span className="arrow" aria-hidden="true">
                                {active ? (s.sort.direction === 'asc' ? '▲' : '▼') : ''}
                              </span>
                            </button>
                          ) : (
                            <span>{c.label}</span>
                          )}
                        </th>
                      );
                    })}
                  </tr>
                </thead>
                <tbody ref={bodyRef}>
                  {loading && list.items.length === 0
                    ? [0, 1, 2, 3, 4].map((i) => (
                        <tr key={i} className="skeleton-row">
                          {COLUMNS.map((c) => (
                            <td key={c.label}>
                              <span />
                            </td>
                          ))}
                        </tr>
                      ))
                    : list.items.map((c) => (
                        <tr
                          key={c.id}
                          tabIndex={0}
                          data-customer-id={c.id}
                          onClick={() => setEditing({ mode: 'edit', customer: c })}
                          onKeyDown={(e) => onRowKey(e, c)}
                        >
                          <td>
                            <div className="cell-name" title={c.name}>
                              {c.name}
                            </div>
                            <div className="cell-sub">{c.email ?? c.billingEmail ?? '—'}</div>
                          </td>
                          <td>{c.contact ? <div className="cell-text">{c.contact}</div> : <span className="faint">—</span>}</td>
                          <td>
                            {c.countryCode ? (
                              <span className="country" title={[c.city, c.country].filter(Boolean).join(', ') || undefined}>
                                <code>{c.countryCode}</code>
                                {c.city ?? ''}
                              </span>
                            ) : (
                              <span className="faint">—</span>
                            )}
                          </td>
                          <td>
                            <div className="chips" title={c.tags.map((t) => t.name).join(', ') || undefined}>
                              {c.tags.slice(0, MAX_CHIPS).map((t) => (
                                <span key={t.id} className="chip">
                                  {t.name}
                                </span>
                              ))}
                              {c.tags.length > MAX_CHIPS ? <span className="chip more">+{c.tags.length - MAX_CHIPS}</span> : null}
                            </div>
                          </td>
                          <td className="num">{c.invoiceCount || <span className="zero">0</span>}</td>
                          <td className={`money ${c.totalRevenue ? '' : 'zero'}`}>
                            {c.invoiceCurrency ? formatAmount(c.totalRevenue, c.invoiceCurrency) : '—'}
                          </td>
                          <td className={`money ${c.outstandingAmount ? 'owed' : 'zero'}`}>
                            {c.invoiceCurrency ? formatAmount(c.outstandingAmount, c.invoiceCurrency) : '—'}
                          </td>
                          <td className="date">{formatDate(c.lastInvoiceDate)}</td>
                          <td className="date">{formatDate(c.createdAt)}</td>
                        </tr>
                      ))}
                </tbody>
              </table>
            </div>
            {!loading && list.items.length === 0 && !list.error ? (
              filtered ? (
                <div className="empty">
                  <h2>No customers match</h2>
                  <p>
                    {s.q.trim() ? `Nothing found for “${s.q.trim()}”` : 'No customer is in this group'}
                    {s.tab !== 'all' ? ` in ${TABS.find((t) => t.id === s.tab)?.label}` : ''}.
                  </p>
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
                </div>
              ) : (
                <div className="empty">
                  <div className="icon">
                    <PeopleIcon />
                  </div>
                  <h2>No customers yet</h2>
                  <p>Add the people and companies you invoice. Their totals appear here as invoices are issued and paid.</p>
                  <button type="button" className="btn primary" onClick={() => setEditing({ mode: 'new' })}>
                    Add your first customer
                  </button>
                </div>
              )
            ) : null}
            {list.items.length > 0 ? (
              <div className="table-footer">
                <span aria-live="polite">
                  {list.items.length} customer{list.items.length === 1 ? '' : 's'} shown
                  {list.hasNextPage ? ', more available' : ''}
                </span>
                {list.hasNextPage ? (
                  <button type="button" className="btn" onClick={list.loadMore} disabled={list.isLoadingMore}>
                    {list.isLoadingMore ? 'Loading…' : 'Load more'}
                  </button>
                ) : null}
              </div>
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
