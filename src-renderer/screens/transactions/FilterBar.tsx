/**
 * The filters above the grid: search (as you type; ↓ or Enter goes to the grid), dates, account, category, tag,
 * status and amount range, and "Clear filters" while any is set.
 */
import type { RefObject } from 'react';
import type { BankAccount } from '../../../src-shared/contract/bank-accounts';
import type { TransactionCategory } from '../../../src-shared/contract/categories';
import { SearchField } from '../../components/SearchField';
import { activeFilterCount, type Filters } from './filters';
import type { TransactionFilters } from './use-transaction-filters';

const STATUS_OPTIONS: { value: Filters['status']; label: string }[] = [
  { value: '', label: 'Any status' },
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
      <SearchField
        inputRef={props.searchRef}
        label="Search transactions"
        placeholder="Search name, counterparty, note, amount…"
        value={search}
        onChange={setSearch}
        onLeave={props.onToGrid}
        enterLeaves
      />
      <label className="filter">
        <span>From</span>
        <input className="input" type="date" value={filters.from} onChange={(e) => setFilter({ from: e.target.value })} />
      </label>
      <label className="filter">
        <span>To</span>
        <input className="input" type="date" value={filters.to} onChange={(e) => setFilter({ to: e.target.value })} />
      </label>
      <SelectFilter
        label="Account"
        value={filters.account}
        onChange={(account) => setFilter({ account })}
        options={[{ value: '', label: 'All accounts' }, ...props.accounts.map((a) => ({ value: a.id, label: a.name }))]}
      />
      <SelectFilter
        label="Category"
        value={filters.category}
        onChange={(category) => setFilter({ category })}
        options={[
          { value: '', label: 'All categories' },
          { value: 'uncategorized', label: 'Uncategorised' },
          ...props.categories.map((c) => ({ key: c.id, value: c.slug, label: c.parentId ? `  ${c.name}` : c.name })),
        ]}
      />
      <SelectFilter
        label="Tag"
        value={filters.tag}
        onChange={(tag) => setFilter({ tag })}
        options={[{ value: '', label: 'All tags' }, ...props.tags.map((t) => ({ value: t.id, label: t.name }))]}
      />
      <SelectFilter
        label="Status"
        value={filters.status}
        onChange={(status) => setFilter({ status: status as Filters['status'] })}
        options={STATUS_OPTIONS}
      />
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

function SelectFilter(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The first one is "all" (the empty value); `key` where two options may share a value. */
  options: readonly { key?: string; value: string; label: string }[];
}) {
  return (
    <label className="filter">
      <span>{props.label}</span>
      <select className="select" value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.options.map((o) => (
          <option key={o.key ?? o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}
