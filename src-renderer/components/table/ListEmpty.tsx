/**
 * A record list's empty state, one of two: nothing matches the search or the filters (with a way to clear them), or
 * nothing exists yet (with a way to add the first). The words are the screen's own, from its namespace:
 * `empty.noMatch`, `empty.clear`, `empty.none`, `empty.noneText`, `empty.addFirst`.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from './EmptyState';

export function ListEmpty(props: {
  namespace: string;
  filtered: boolean;
  /** With `filtered`: what was looked for, in words ("Nothing for “acme” in Overdue"). */
  noMatchText: ReactNode;
  onClear: () => void;
  onAdd: () => void;
  icon?: ReactNode;
}) {
  const { t } = useTranslation(props.namespace);
  if (props.filtered)
    return (
      <EmptyState
        title={t('empty.noMatch')}
        action={
          <button type="button" className="btn" onClick={props.onClear}>
            {t('empty.clear')}
          </button>
        }
      >
        {props.noMatchText}
      </EmptyState>
    );
  return (
    <EmptyState
      icon={props.icon}
      title={t('empty.none')}
      action={
        <button type="button" className="btn primary" onClick={props.onAdd}>
          {t('empty.addFirst')}
        </button>
      }
    >
      {t('empty.noneText')}
    </EmptyState>
  );
}
