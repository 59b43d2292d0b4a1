/**
 * The filters above the grid: search (as you type; ↓ or Enter goes to the grid), dates, account, category, tag,
 * status and amount range, and "Clear filters" while any is set.
 */
import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { BankAccount } from '../../../src-shared/contract/bank-accounts';
import type { TransactionCategory } from '../../../src-shared/contract/categories';
import { SearchField } from '../../components/SearchField';
import { activeFilterCount, type Filters } from './filters';
import type { TransactionFilters } from './use-transaction-filters';

const STATUSES: Exclude<Filters['status'], ''>[] = ['posted', 'pending', 'completed', 'exported', 'excluded', 'archived'];

export function FilterBar(props: {
  view: TransactionFilters;
  accounts: readonly BankAccount[];
  categories: readonly TransactionCategory[];
  tags: readonly { id: string; name: string }[];
  searchRef: RefObject<HTMLInputElement | null>;
  /** Leaves the search field for the grid. */
  onToGrid: () => void;
}) {
  const { t } = useTranslation('transactions');
  const { filters, setFilter, search, setSearch } = props.view;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a toolbar like the other screens' (a <div>), named as a search landmark
    <div className="toolbar filter-bar" role="search" aria-label={t('filters.label')}>
      <SearchField
        inputRef={props.searchRef}
        label={t('filters.search')}
        placeholder={t('filters.searchPlaceholder')}
        value={search}
        onChange={setSearch}
        onLeave={props.onToGrid}
        enterLeaves
      />
      <label className="filter">
        <span>{t('filters.from')}</span>
        <input className="input" type="date" value={filters.from} onChange={(e) => setFilter({ from: e.target.value })} />
      </label>
      <label className="filter">
        <span>{t('filters.to')}</span>
        <input className="input" type="date" value={filters.to} onChange={(e) => setFilter({ to: e.target.value })} />
      </label>
      <SelectFilter
        label={t('filters.account')}
        value={filters.account}
        onChange={(account) => setFilter({ account })}
        options={[{ value: '', label: t('filters.allAccounts') }, ...props.accounts.map((a) => ({ value: a.id, label: a.name }))]}
      />
      <SelectFilter
        label={t('filters.category')}
        value={filters.category}
        onChange={(category) => setFilter({ category })}
        options={[
          { value: '', label: t('filters.allCategories') },
          { value: 'uncategorized', label: t('uncategorised') },
          ...props.categories.map((c) => ({ key: c.id, value: c.slug, label: c.parentId ? `  ${c.name}` : c.name })),
        ]}
      />
      <SelectFilter
        label={t('filters.tag')}
        value={filters.tag}
        onChange={(tag) => setFilter({ tag })}
        options={[{ value: '', label: t('filters.allTags') }, ...props.tags.map((tag) => ({ value: tag.id, label: tag.name }))]}
      />
      <SelectFilter
        label={t('filters.status')}
        value={filters.status}
        onChange={(status) => setFilter({ status: status as Filters['status'] })}
        options={[
          { value: '', label: t('filters.anyStatus') },
          ...STATUSES.map((value) => ({ value, label: t(`statuses.${value}`) })),
        ]}
      />
      <AmountFilter label={t('filters.min')} value={filters.min} onChange={(min) => setFilter({ min })} />
      <AmountFilter label={t('filters.max')} value={filters.max} onChange={(max) => setFilter({ max })} />
      {activeFilterCount(filters) > 0 ? (
        <button type="button" className="btn ghost" onClick={props.view.clear}>
          {t('filters.clear')}
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
