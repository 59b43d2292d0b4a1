/**
 * The bar over the grid: with a selection, how many are selected and the actions on them (each with its key); without
 * one, how many transactions the view holds and the main keys.
 */
import { formatNumber } from '../../lib/format';

export type BulkAction = 'category' | 'tag' | 'note' | 'reviewed' | 'excluded';

const BUTTONS: { action: BulkAction; label: string; key: string }[] = [
  { action: 'category', label: 'Categorise', key: 'C' },
  { action: 'tag', label: 'Tag', key: 'T' },
  { action: 'note', label: 'Note', key: 'N' },
  { action: 'reviewed', label: 'Mark reviewed', key: 'R' },
  { action: 'excluded', label: 'Exclude', key: 'E' },
];

export function BulkBar(props: {
  selected: number;
  /** Rows in the view; null while they are counted. */
  total: number | null;
  busy: boolean;
  onAction: (action: BulkAction) => void;
  onClear: () => void;
}) {
  const { total } = props;
  return (
    <div className="bulk-bar" aria-live="polite">
      {props.selected ? (
        <>
          <strong>{formatNumber(props.selected)} selected</strong>
          {BUTTONS.map((b) => (
            <button
              key={b.action}
              type="button"
              className="btn small"
              onClick={() => props.onAction(b.action)}
              disabled={props.busy}
            >
              {b.label} <kbd>{b.key}</kbd>
            </button>
          ))}
          <button type="button" className="btn ghost small" onClick={props.onClear}>
            Clear selection <kbd>Esc</kbd>
          </button>
        </>
      ) : (
        <span className="faint">
          {total === null ? 'Counting…' : `${formatNumber(total)} ${total === 1 ? 'transaction' : 'transactions'}`} · <kbd>J</kbd>{' '}
          <kbd>K</kbd> move · <kbd>Shift</kbd>+<kbd>↓</kbd> select · <kbd>C</kbd> categorise · <kbd>R</kbd> reviewed ·{' '}
          <kbd>↵</kbd> details
        </span>
      )}
    </div>
  );
}
