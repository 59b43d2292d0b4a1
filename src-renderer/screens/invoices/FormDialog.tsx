/** A small modal form of the invoice screens: a title, fields, and the action with Cancel; Esc cancels. */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

export function FormDialog(props: {
  title: string;
  children: React.ReactNode;
  submitLabel: string;
  busy: boolean;
  onSubmit: () => void;
  onCancel: () => void;
  className?: string;
}) {
  const { t } = useTranslation('invoices');
  const titleId = useId();
  return (
    <>
      <div className="overlay top" onClick={props.onCancel} aria-hidden="true" />
      <form
        className={`dialog ${props.className ?? ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          props.onSubmit();
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            props.onCancel();
          }
        }}
      >
        <h2 id={titleId}>{props.title}</h2>
        {props.children}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={props.onCancel}>
            {t('common:cancel')}
          </button>
          <button type="submit" className="btn primary" disabled={props.busy}>
            {props.submitLabel}
          </button>
        </div>
      </form>
    </>
  );
}
