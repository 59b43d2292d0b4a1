/** A choice of category by its slug, each group followed by its categories (indented), with a first "none" choice. */
import { useTranslation } from 'react-i18next';
import type { TransactionCategory } from '../../../src-shared/contract/categories';

export function CategorySelect(props: {
  categories: readonly TransactionCategory[];
  value: string;
  onChange: (slug: string) => void;
  id?: string;
  /** The accessible name, where no <label> holds the choice. */
  label?: string;
  /** The first choice's text (default "Choose…"). */
  none?: string;
  className?: string;
}) {
  const { t } = useTranslation('rules');
  return (
    <select
      id={props.id}
      className={props.className ?? 'select grow'}
      aria-label={props.label}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
    >
      <option value="">{props.none ?? t('editor.choose')}</option>
      {props.categories.map((c) => (
        <option key={c.id} value={c.slug}>
          {c.parentId ? `  ${c.name}` : c.name}
        </option>
      ))}
    </select>
  );
}
