/** Every shortcut of the transaction review, in one sheet (opened with ?). */
import { useEffect, useId, useRef } from 'react';

export const SHORTCUTS: { keys: string[]; what: string }[] = [
  { keys: ['J', '↓'], what: 'Next transaction' },
  { keys: ['K', '↑'], what: 'Previous transaction' },
  { keys: ['Shift ↓', 'Shift ↑'], what: 'Select a range' },
  { keys: ['X', 'Space'], what: 'Select or unselect this one' },
  { keys: ['Ctrl A'], what: 'Select every loaded transaction' },
  { keys: ['PgDn', 'PgUp', 'Home', 'End'], what: 'Jump' },
  { keys: ['C'], what: 'Categorise' },
  { keys: ['T'], what: 'Add a tag' },
  { keys: ['N'], what: 'Write a note' },
  { keys: ['S'], what: 'Split into parts' },
  { keys: ['R'], what: 'Mark reviewed (again: unmark)' },
  { keys: ['E'], what: 'Exclude (again: include)' },
  { keys: ['A'], what: 'Apply the suggestion to similar transactions' },
  { keys: ['Z', 'Ctrl Z'], what: 'Undo the last action' },
  { keys: ['↵', 'O'], what: 'Open the details' },
  { keys: ['Esc'], what: 'Clear the selection, close a panel' },
  { keys: ['/'], what: 'Search' },
  { keys: ['?'], what: 'This sheet' },
];

export function ShortcutSheet({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  useEffect(() => ref.current?.focus(), []);
  return (
    <>
      <div className="overlay top" onClick={onClose} aria-hidden="true" />
      <div
        className="dialog shortcuts"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={(e) => {
          if (e.key === 'Escape' || e.key === '?') {
            e.preventDefault();
            e.stopPropagation();
            onClose();
          }
        }}
      >
        <h2 id={titleId}>Keyboard shortcuts</h2>
        <dl className="shortcut-list">
          {SHORTCUTS.map((s) => (
            <div key={s.what} className="shortcut">
              <dt>
                {s.keys.map((k) => (
                  <kbd key={k}>{k}</kbd>
                ))}
              </dt>
              <dd>{s.what}</dd>
            </div>
          ))}
        </dl>
        <p className="faint small">Actions apply to the selected transactions, or to the one under the cursor.</p>
        <div className="dialog-actions">
          <button ref={ref} type="button" className="btn" onClick={onClose}>
            Close <kbd>Esc</kbd>
          </button>
        </div>
      </div>
    </>
  );
}
