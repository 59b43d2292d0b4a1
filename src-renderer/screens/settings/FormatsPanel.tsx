/** Settings → Formats: the user's language and region, number and date formats, time zone, clock, week start. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { userRoutes } from '../../../src-shared/contract/users';
import { ErrorBanner } from '../../components/ui';
import { useRead } from '../../data/use-read';
import { useNumberFormat } from '../../stores/number-format';
import { useToasts } from '../../stores/toasts';
import { FormatsFields } from './FormatsFields';
import { draftOf, type FormatsDraft } from './formats';
import { useSaveFormats } from './use-save-formats';

export function FormatsPanel() {
  const { t } = useTranslation('settings');
  const me = useRead(userRoutes.me);
  const numberFormat = useNumberFormat((s) => s.choice);
  const [edited, setEdited] = useState<FormatsDraft | null>(null);
  const { save, pending } = useSaveFormats();
  const toast = useToasts();
  const draft = edited ?? (me.data ? draftOf(me.data, numberFormat) : null);

  async function submit() {
    if (!edited) return;
    try {
      await save(edited);
      setEdited(null);
      toast.show(t('formats.saved'));
    } catch (err) {
      toast.error(err, t('formats.saveFailed'));
    }
  }

  return (
    <section className="panel" aria-labelledby="formats-title">
      <h2 id="formats-title">{t('formats.title')}</h2>
      <p className="muted">{t('formats.intro')}</p>
      {me.error ? <ErrorBanner error={me.error} onRetry={() => void me.refetch()} /> : null}
      {draft ? <FormatsFields draft={draft} onChange={setEdited} /> : <div className="skeleton-block formats-skeleton" />}
      <div className="panel-actions">
        <button type="button" className="btn primary" disabled={!edited || pending} onClick={() => void submit()}>
          {t('formats.save')}
        </button>
        {edited ? (
          <button type="button" className="btn" onClick={() => setEdited(null)}>
            {t('common:cancel')}
          </button>
        ) : null}
      </div>
    </section>
  );
}
