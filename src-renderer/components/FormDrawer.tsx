/**
 * A record's form in a drawer (a rule, a category): the form itself (submitted by its button, Enter in a field or
 * Ctrl/⌘+Enter), the error of the last save above it, and the footer — save, and on the right delete (asked first by
 * `deleting`, the screen's own confirmation) and cancel.
 */
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Drawer } from './Drawer';
import { ErrorBanner, Kbd } from './ui';

export function FormDrawer(props: {
  title: string;
  saveLabel: string;
  onSave: () => void;
  onClose: () => void;
  busy: boolean;
  failure: unknown;
  className?: string;
  /** Offers Delete (an existing record); `deleteBlocked` says why it cannot be, as the button's tooltip. */
  onDelete?: () => void;
  deleteBlocked?: string;
  /** The confirmation of a delete, shown over the drawer. */
  deleting?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const formId = useId();
  return (
    <Drawer title={props.title} onClose={props.onClose} onSubmit={props.onSave} busy={props.busy} className={props.className}>
      <form
        id={formId}
        className="drawer-body"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          props.onSave();
        }}
      >
        {props.failure ? <ErrorBanner error={props.failure} /> : null}
        {props.children}
      </form>
      <div className="drawer-footer">
        <button type="submit" form={formId} className="btn primary" disabled={props.busy}>
          {props.saveLabel} <Kbd k="Ctrl ↵" />
        </button>
        <span className="spacer" />
        {props.onDelete ? (
          <button
            type="button"
            className="btn danger"
            disabled={props.busy || props.deleteBlocked !== undefined}
            title={props.deleteBlocked}
            onClick={props.onDelete}
          >
            {t('delete')}
          </button>
        ) : null}
        <button type="button" className="btn ghost" onClick={props.onClose} disabled={props.busy}>
          {t('cancel')}
        </button>
      </div>
      {props.deleting}
    </Drawer>
  );
}
