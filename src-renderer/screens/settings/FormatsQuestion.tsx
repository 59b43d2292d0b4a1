/**
 * The question at the first sign-in: which formats to use, suggested from the browser's language and time zone,
 * so that nobody reads ISO dates and "-EUR 35.11" by default. Shown while the user has never chosen (their locale
 * is the server's region-less default) and has not put it off in this browser; "Later" keeps the defaults, and
 * Settings → Formats changes them at any time.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '../../../src-shared/contract/users';
import { useToasts } from '../../stores/toasts';
import { FormatsFields } from './FormatsFields';
import { type FormatsDraft, hasChosenFormats, suggestFormats, suggestLocale } from './formats';
import { useSaveFormats } from './use-save-formats';

const laterKey = (userId: string) => `finops.formatsLater.${userId}`;

function putOff(userId: string): boolean {
  try {
    return globalThis.localStorage?.getItem(laterKey(userId)) === '1';
  } catch {
    return false;
  }
}

export function FormatsQuestion({ user }: { user: User }) {
  const { t } = useTranslation('settings');
  const [later, setLater] = useState(() => putOff(user.id));
  const [draft, setDraft] = useState<FormatsDraft>(() =>
    suggestFormats(suggestLocale(globalThis.navigator?.language), Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'),
  );
  const { save, pending } = useSaveFormats();
  const toast = useToasts();
  const titleId = useId();
  const boxRef = useRef<HTMLDivElement>(null);
  const open = !later && !hasChosenFormats(user);

  useEffect(() => {
    if (open) boxRef.current?.querySelector('select')?.focus();
  }, [open]);
  if (!open) return null;

  const putItOff = () => {
    try {
      globalThis.localStorage?.setItem(laterKey(user.id), '1');
    } catch {}
    setLater(true);
  };
  // Another locale brings its own date format, clock and week start; the number format stays as chosen.
  const change = (next: FormatsDraft) =>
    setDraft(
      next.locale === draft.locale ? next : { ...suggestFormats(next.locale, next.timezone), numberFormat: next.numberFormat },
    );

  return (
    <>
      <div className="overlay top" aria-hidden="true" />
      <div
        ref={boxRef}
        className="dialog wide formats-question"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={(e) => {
          if (e.key === 'Escape') putItOff();
        }}
      >
        <h2 id={titleId}>{t('question.title')}</h2>
        <p className="muted">{t('question.intro')}</p>
        <FormatsFields draft={draft} onChange={change} />
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={putItOff}>
            {t('question.later')}
          </button>
          <button
            type="button"
            className="btn primary"
            disabled={pending}
            onClick={() => save(draft).catch((err) => toast.error(err, t('formats.saveFailed')))}
          >
            {t('question.use')}
          </button>
        </div>
      </div>
    </>
  );
}
