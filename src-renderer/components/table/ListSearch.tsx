/**
 * The keyboard path every record list shares: `/` (the screen's key) to the search field, ↓ from it to the first row,
 * ↑ from the first row back up to the search. `useListFocus` holds the two ends; `ListSearch` is the list's search
 * field wired to them, in the screen's own words (`search`, `searchPlaceholder` in its namespace).
 */
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchField } from '../SearchField';
import { focusFirstRow } from './DataTable';

export type ListFocus = ReturnType<typeof useListFocus>;

export function useListFocus() {
  const searchRef = useRef<HTMLInputElement>(null);
  const tableRef = useRef<HTMLTableElement>(null);
  return useMemo(
    () => ({
      searchRef,
      tableRef,
      toSearch: () => searchRef.current?.focus(),
      toFirstRow: () => focusFirstRow(tableRef.current),
    }),
    [],
  );
}

export function ListSearch(props: { namespace: string; focus: ListFocus; value: string; onChange: (text: string) => void }) {
  const { t } = useTranslation(props.namespace);
  return (
    <SearchField
      inputRef={props.focus.searchRef}
      label={t('search')}
      placeholder={t('searchPlaceholder')}
      value={props.value}
      onChange={props.onChange}
      onLeave={props.focus.toFirstRow}
    />
  );
}
