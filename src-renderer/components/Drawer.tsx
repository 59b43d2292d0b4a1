/**
 * A side drawer over the screen for a form: its title, Close (Esc), the body and footer it is given. A click on the
 * shade closes it unless `busy`; Ctrl/⌘+Enter calls `onSubmit` when there is one.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Kbd } from './ui';

export function Drawer(props: {
  title: string;
  onClose: () => void;
  onSubmit?: () => void;
  busy?: boolean;
  /** `wide` for a form with a table (an invoice's lines). */
  className?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      <div className="overlay" onClick={() => !props.busy && props.onClose()} aria-hidden="true" />
      <aside
        className={props.className ? `drawer ${props.className}` : 'drawer'}
        role="dialog"
        aria-modal="true"
        aria-label={props.title}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            props.onClose();
          } else if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && props.onSubmit) {
            e.preventDefault();
            props.onSubmit();
          }
        }}
      >
        <div className="drawer-header">
          <h2>{props.title}</h2>
          <button type="button" className="btn ghost" onClick={props.onClose}>
            {t('close')} <Kbd k="Esc" />
          </button>
        </div>
        {props.children}
      </aside>
    </>
  );
}
