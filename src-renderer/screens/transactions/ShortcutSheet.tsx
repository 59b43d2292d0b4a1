/** Every shortcut of the transaction review, in one sheet (opened with ?). */
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Kbd } from '../../components/ui';

/** Each shortcut's keys and what it does (`shortcutSheet.keys.<id>`). */
export const SHORTCUTS: { keys: string[]; id: string }[] = [
  { keys: ['J', '↓'], id: 'next' },
  { keys: ['K', '↑'], id: 'previous' },
  { keys: ['Shift ↓', 'Shift ↑'], id: 'range' },
  { keys: ['X', 'Space'], id: 'toggle' },
  { keys: ['Ctrl A'], id: 'all' },
  { keys: ['PgDn', 'PgUp', 'Home', 'End'], id: 'jump' },
  { keys: ['C'], id: 'categorise' },
  { keys: ['T'], id: 'tag' },
  { keys: ['N'], id: 'note' },
  { keys: ['S'], id: 'split' },
  { keys: ['R'], id: 'reviewed' },
  { keys: ['E'], id: 'exclude' },
  { keys: ['A'], id: 'similar' },
  { keys: ['Z', 'Ctrl Z'], id: 'undo' },
  { keys: ['↵', 'O'], id: 'open' },
  { keys: ['Esc'], id: 'escape' },
  { keys: ['/'], id: 'search' },
  { keys: ['?'], id: 'sheet' },
];

export function ShortcutSheet({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('transactions');
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
        <h2 id={titleId}>{t('shortcutSheet.title')}</h2>
        <dl className="shortcut-list">
          {SHORTCUTS.map((s) => (
            <div key={s.id} className="shortcut">
              <dt>
                {s.keys.map((k) => (
                  <Kbd key={k} k={k} />
                ))}
              </dt>
              <dd>{t(`shortcutSheet.keys.${s.id}`)}</dd>
            </div>
          ))}
        </dl>
        <p className="faint small">{t('shortcutSheet.note')}</p>
        <div className="dialog-actions">
          <button ref={ref} type="button" className="btn" onClick={onClose}>
            {t('common:close')} <Kbd k="Esc" />
          </button>
        </div>
      </div>
    </>
  );
}
