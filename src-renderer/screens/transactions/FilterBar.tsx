/**
 * The filters above the grid, in one row: search (as you type; ↓ or Enter goes to the grid), the dates and the
 * account; category, tag, status and the amount behind "More filters" (a popover, its count on the button); an
 * import batch as a chip to take off; "Clear filters" while any is set. The amount is the money moved whatever its
 * direction, with the direction beside it, read in the person's number format ("30,50" in German) and applied a
 * moment after the last key, not at every one.
 */
import { type RefObject, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BankAccount } from '../../../src-shared/contract/bank-accounts';
import type { TransactionCategory } from '../../../src-shared/contract/categories';
import { DateFilter } from '../../components/DateField';
import { SearchField } from '../../components/SearchField';
import { currentMarks, parseDecimal } from '../../lib/parse-number';
import { useDismiss } from '../../lib/use-dismiss';
import { useSearchCommit } from '../../lib/use-search-text';
import { activeFilterCount, type Filters, moreFilterCount } from './filters';
import type { TransactionFilters } from './use-transaction-filters';

const STATUSES: Exclude<Filters['status'], ''>[] = ['posted', 'pending', 'completed', 'exported', 'excluded', 'archived'];
const DIRECTIONS: Filters['type'][] = ['', 'expense', 'income'];

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
      <DateFilter
        label={t('filters.from')}
        value={filters.from}
        max={filters.to || undefined}
        onChange={(from) => setFilter({ from })}
      />
      <DateFilter
        label={t('filters.to')}
        value={filters.to}
        min={filters.from || undefined}
        onChange={(to) => setFilter({ to })}
      />
      <SelectFilter
        label={t('filters.account')}
        className="account-select"
        value={filters.account}
        onChange={(account) => setFilter({ account })}
        options={[{ value: '', label: t('filters.allAccounts') }, ...props.accounts.map((a) => ({ value: a.id, label: a.name }))]}
      />
      <MoreFilters {...props} />
      {filters.batch ? (
        <span className="chip filter-chip">
          {t('filters.batch')}
          <button
            type="button"
            className="chip-remove"
            aria-label={t('filters.removeBatch')}
            onClick={() => setFilter({ batch: '' })}
          >
            ×
          </button>
        </span>
      ) : null}
      {activeFilterCount(filters) > 0 ? (
        <button type="button" className="btn ghost" onClick={props.view.clear}>
          {t('filters.clear')}
        </button>
      ) : null}
    </div>
  );
}

function MoreFilters(props: {
  view: TransactionFilters;
  categories: readonly TransactionCategory[];
  tags: readonly { id: string; name: string }[];
}) {
  const { t } = useTranslation('transactions');
  const { filters, setFilter } = props.view;
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const directionName = useId();
  useDismiss(open, () => setOpen(false), { panel: panelRef, button: buttonRef });
  const count = moreFilterCount(filters);
  return (
    <div className="more-filters">
      <button
        ref={buttonRef}
        type="button"
        className={`btn ${count ? 'has-filters' : ''}`}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
      >
        {t('filters.more')}
        {count ? <span className="count-badge">{count}</span> : null}
      </button>
      {open ? (
        <div ref={panelRef} id={panelId} className="popover more-filters-panel" role="dialog" aria-label={t('filters.more')}>
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
            options={[
              { value: '', label: t('filters.allTags') },
              ...props.tags.map((tag) => ({ value: tag.id, label: tag.name })),
            ]}
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
          <fieldset className="filter direction">
            <legend>{t('filters.direction')}</legend>
            <div className="segmented">
              {DIRECTIONS.map((d) => (
                <label key={d || 'any'} className="segment">
                  <input
                    type="radio"
                    name={directionName}
                    value={d}
                    checked={filters.type === d}
                    onChange={() => setFilter({ type: d })}
                  />
                  <span>{t(`filters.directions.${d || 'any'}`)}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <div className="amount-range">
            <AmountFilter label={t('filters.min')} value={filters.min} onChange={(min) => setFilter({ min })} />
            <AmountFilter label={t('filters.max')} value={filters.max} onChange={(max) => setFilter({ max })} />
          </div>
          <div className="popover-actions">
            <button
              type="button"
              className="btn primary small"
              onClick={() => {
                setOpen(false);
                buttonRef.current?.focus();
              }}
            >
              {t('filters.done')}
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}

/** A canonical amount ("30.5") as the person writes it ("30,5"). */
function shown(value: string): string {
  return value ? value.replace('.', currentMarks().decimal) : '';
}

/** An unsigned amount typed in the person's format, applied a moment after the last key when it reads as one. */
function AmountFilter(props: { label: string; value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation('transactions');
  const [text, setText] = useState(() => shown(props.value));
  const parsed = parseDecimal(text);
  const invalid = text.trim() !== '' && parsed === null;
  const canonical = invalid ? props.value : parsed === null ? '' : String(Math.abs(parsed));
  useSearchCommit(canonical, props.value, props.onChange);
  // Cleared or changed elsewhere ("Clear filters", the address): the field shows it.
  const latestCanonical = useRef(canonical);
  latestCanonical.current = canonical;
  useEffect(() => {
    if (props.value !== latestCanonical.current) setText(shown(props.value));
  }, [props.value]);
  const hintId = useId();
  return (
    <label className="filter amount">
      <span>{props.label}</span>
      <input
        className="input"
        type="text"
        inputMode="decimal"
        autoComplete="off"
        value={text}
        aria-invalid={invalid}
        aria-describedby={invalid ? hintId : undefined}
        onChange={(e) => setText(e.target.value)}
      />
      {invalid ? (
        <span className="error" id={hintId}>
          {t('filters.notAmount')}
        </span>
      ) : null}
    </label>
  );
}

function SelectFilter(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The first one is "all" (the empty value); `key` where two options may share a value. */
  options: readonly { key?: string; value: string; label: string }[];
  className?: string;
}) {
  // The whole choice in a tooltip too: a name longer than the select's widest still reads in full.
  const chosen = props.options.find((o) => o.value === props.value)?.label;
  return (
    <label className="filter">
      <span>{props.label}</span>
      <select
        className={`select ${props.className ?? ''}`}
        value={props.value}
        title={chosen}
        onChange={(e) => props.onChange(e.target.value)}
      >
        {props.options.map((o) => (
          <option key={o.key ?? o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}
