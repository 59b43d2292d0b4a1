/**
 * The bar over the grid: with a selection, how many are selected and the actions on them (each with its key); without
 * one, how many transactions the view holds and the main keys.
 */
import { useTranslation } from 'react-i18next';
import { Kbd } from '../../components/ui';
import { transactionCount } from './use-review-actions';

export type BulkAction = 'category' | 'tag' | 'note' | 'reviewed' | 'excluded';

/** Each action's button (`bulk.<action>`) and key. */
const BUTTONS: { action: BulkAction; key: string }[] = [
  { action: 'category', key: 'C' },
  { action: 'tag', key: 'T' },
  { action: 'note', key: 'N' },
  { action: 'reviewed', key: 'R' },
  { action: 'excluded', key: 'E' },
];

export function BulkBar(props: {
  selected: number;
  /** Rows in the view; null while they are counted. */
  total: number | null;
  busy: boolean;
  onAction: (action: BulkAction) => void;
  onClear: () => void;
}) {
  const { t } = useTranslation('transactions');
  const { total } = props;
  return (
    <div className="bulk-bar" aria-live="polite">
      {props.selected ? (
        <>
          <strong>{t('bulk.selected', { count: props.selected })}</strong>
          {BUTTONS.map((b) => (
            <button
              key={b.action}
              type="button"
              className="btn small"
              onClick={() => props.onAction(b.action)}
              disabled={props.busy}
            >
              {t(`bulk.${b.action}`)} <kbd>{b.key}</kbd>
            </button>
          ))}
          <button type="button" className="btn ghost small" onClick={props.onClear}>
            {t('bulk.clear')} <Kbd k="Esc" />
          </button>
        </>
      ) : (
        <span className="faint">
          {total === null ? t('bulk.counting') : transactionCount(total)} · <kbd>J</kbd> <kbd>K</kbd> {t('bulk.hintMove')} ·{' '}
          <Kbd k="Shift" />+<kbd>↓</kbd> {t('bulk.hintSelect')} · <kbd>C</kbd> {t('bulk.hintCategorise')} · <kbd>R</kbd>{' '}
          {t('bulk.hintReviewed')} · <kbd>↵</kbd> {t('bulk.hintDetails')}
        </span>
      )}
    </div>
  );
}
