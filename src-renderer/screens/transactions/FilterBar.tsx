/**
 * The filters above the grid: search (as you type; ↓ or Enter goes to the grid), dates, account, category, tag,
 * status and amount range, and "Clear filters" while any is set.
 */
import type { RefObject } from 'react';
import type { BankAccount } from '../../../src-shared/contract/bank-accounts';
import type { TransactionCategory } from '../../../src-shared/contract/categories';
import { SearchIcon } from '../../components/ui';
import { activeFilterCount, type Filters } from './filters';
import type { TransactionFilters } from './use-transaction-filters';

const STATUS_OPTIONS: { value: Filters['status']; label: string }[] = [
  { value: 'posted', label: 'Posted' },
  { value: 'pending', label: 'Pending' },
  { value: 'completed', label: 'Completed' },
  { value: 'exported', label: 'Exported' },
  { value: 'excluded', label: 'Excluded' },
  { value: 'archived', label: 'Archived' },
];

export function FilterBar(props: {
  view: TransactionFilters;
  accounts: readonly BankAccount[];
  categories: readonly TransactionCategory[];
  tags: readonly { id: string; name: string }[];
  searchRef: RefObject<HTMLInputElement | null>;
  /** Leaves the search field for the grid. */
  onToGrid: () => void;
}) {
  const { filters, setFilter, search, setSearch } = props.view;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a toolbar like the other screens' (a <div>), named as a search landmark
    <div className="toolbar filter-bar" role="search" aria-label="Filter transactions">
      <div className="search">
        <SearchIcon />
        <input
          ref={props.searchRef}
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
              props.onToGrid();
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
          {props.accounts.map((a) => (
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
          {props.categories.map((c) => (
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
          {props.tags.map((t) => (
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
          {STATUS_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </label>
      <AmountFilter label="Min amount" value={filters.min} onChange={(min) => setFilter({ min })} />
      <AmountFilter label="Max amount" value={filters.max} onChange={(max) => setFilter({ max })} />
      {activeFilterCount(filters) > 0 ? (
        <button type="button" className="btn ghost" onClick={props.view.clear}>
          Clear filters
        </button>
      ) : null}
    </div>
  );
}

function AmountFilter(props: { label: string; value: string; onChange: (value: string) => void }) {
  return (
    <label className="filter amount">
      <span>{props.label}</span>
      <input
        className="input"
        type="number"
        inputMode="decimal"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </label>
  );
}
