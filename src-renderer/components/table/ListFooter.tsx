/**
 * Under a paged record list: how many rows are shown (the screen's `shown` / `shownMore` words, which say whether
 * there are more) and "Load more". Nothing while the list is empty: its empty state says it.
 */
import { useTranslation } from 'react-i18next';
import { type MorePages, TableFooter } from './TableFooter';

export function ListFooter(props: { namespace: string; list: MorePages & { items: readonly unknown[] } }) {
  const { t } = useTranslation(props.namespace);
  const { list } = props;
  if (list.items.length === 0) return null;
  return <TableFooter status={t(list.hasNextPage ? 'shownMore' : 'shown', { count: list.items.length })} more={list} />;
}
