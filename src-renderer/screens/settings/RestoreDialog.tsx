/**
 * Settings → Backups → Restore…: replaces all the data with an archive's, so the person types "restore" (the API's
 * `RestoreBody.confirm`) before the button enables. Says that the current data is backed up first; the panel shows
 * that safety backup's name afterwards. A modal dialog: focus starts in the field, stays inside, Esc cancels, and
 * goes back to the button that opened it.
 */
import { useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { appBackupRoutes, type BackupStatus, type RestoreResult } from '../../../src-shared/contract/app-backups';
import { Progress } from '../../components/Progress';
import { FormError } from '../../components/ui';
import { useWrite } from '../../data/use-write';
import { formatBytes, formatDateTime } from '../../lib/format';
import { useToasts } from '../../stores/toasts';

/** The word typed to confirm, as the API asks for it (in every language: it is what the server checks). */
const CONFIRM_WORD = 'restore';

export function RestoreDialog(props: {
  archive: BackupStatus['backups'][number];
  onCancel: () => void;
  onRestored: (result: RestoreResult) => void;
}) {
  const { t } = useTranslation('settings');
  const { archive } = props;
  const restore = useWrite(appBackupRoutes.restore);
  const client = useQueryClient();
  const toast = useToasts();
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | undefined>();
  const titleId = useId();
  const textId = useId();
  const inputId = useId();
  const dialogRef = useRef<HTMLFormElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const confirmed = typed.trim().toLowerCase() === CONFIRM_WORD;
  const busy = restore.isPending;

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    inputRef.current?.focus();
    return () => opener?.focus();
  }, []);

  const cancel = () => {
    if (!busy) props.onCancel();
  };

  async function submit() {
    if (!confirmed || busy) return;
    setError(undefined);
    try {
      const result = await restore.mutateAsync({ body: { name: archive.name, confirm: CONFIRM_WORD } });
      // Every screen's data is now the backup's, not only the backups' list.
      void client.invalidateQueries();
      toast.show(t('backups.restoredToast', { when: formatDateTime(result.createdAt) }));
      props.onRestored(result);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }

  /** Tab and Shift+Tab go round the dialog's controls; Esc cancels. */
  function onKeyDown(e: KeyboardEvent) {
    if (e.key === 'Escape') {
      e.stopPropagation();
      cancel();
      return;
    }
    if (e.key !== 'Tab' || !dialogRef.current) return;
    const controls = [...dialogRef.current.querySelectorAll<HTMLElement>('input, button:not([disabled])')];
    const first = controls[0];
    const last = controls[controls.length - 1];
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last?.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first?.focus();
    }
  }

  return (
    <>
      <div className="overlay top" onClick={cancel} aria-hidden="true" />
      <form
        ref={dialogRef}
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={textId}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId}>{t('backups.restoreTitle')}</h2>
        <div id={textId} className="muted">
          <p>
            {t('backups.restoreText', {
              when: formatDateTime(archive.createdAt),
              size: formatBytes(archive.size),
              name: archive.name,
            })}
          </p>
          <p>{t('backups.restoreSafety')}</p>
        </div>
        <FormError message={error} />
        <div className="field">
          <label htmlFor={inputId}>{t('backups.restoreType', { word: CONFIRM_WORD })}</label>
          <input
            ref={inputRef}
            id={inputId}
            name="confirm"
            className="input"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            readOnly={busy}
          />
        </div>
        {busy ? <Progress label={t('backups.restoring')} share={null} /> : null}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={cancel} disabled={busy}>
            {t('common:cancel')}
          </button>
          <button type="submit" className="btn danger solid" disabled={!confirmed || busy}>
            {busy ? t('backups.restoring') : t('backups.restoreConfirm')}
          </button>
        </div>
      </form>
    </>
  );
}
