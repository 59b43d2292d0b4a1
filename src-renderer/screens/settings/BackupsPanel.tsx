/**
 * Settings → Backups (`/app/backups`, docs/decisions/0185-backups.md): whether the data dir is backed up on a
 * schedule, how often and how many archives are kept; the folder (the operator's, set with the CLI, so shown
 * read-only); the last backup and a failed last attempt; the archives in the folder, each restorable after typing
 * "restore"; and "Back up now". A backup holds every team, so on a server of several teams, or to a member who is not
 * the owner, the API answers 403 and the panel says who backs up instead.
 */
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../src-shared/api-client';
import { appBackupRoutes, type BackupStatus, type RestoreResult } from '../../../src-shared/contract/app-backups';
import { Progress } from '../../components/Progress';
import { DataTable } from '../../components/table/DataTable';
import { ErrorBanner, FormError, TextField } from '../../components/ui';
import { useRead } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { FORM_KEY, fieldErrorsFrom } from '../../lib/field-errors';
import { formatBytes, formatDateTime } from '../../lib/format';
import { useFormState } from '../../lib/use-form-state';
import { useToasts } from '../../stores/toasts';
import { wholeNumber } from './backup-form';
import { RestoreDialog } from './RestoreDialog';

type Archive = BackupStatus['backups'][number];

export function BackupsPanel() {
  const { t } = useTranslation('settings');
  const status = useRead(appBackupRoutes.status);
  const refused = status.error instanceof ApiClientError && status.error.status === 403;
  return (
    <section className="panel" aria-labelledby="backups-title">
      <h2 id="backups-title">{t('backups.title')}</h2>
      {refused ? (
        <p className="muted">{t('backups.refused')}</p>
      ) : status.error ? (
        <ErrorBanner error={status.error} onRetry={() => void status.refetch()} />
      ) : status.data ? (
        <BackupsBody status={status.data} />
      ) : (
        <div className="skeleton-block formats-skeleton" />
      )}
    </section>
  );
}

function BackupsBody({ status }: { status: BackupStatus }) {
  const { t } = useTranslation('settings');
  const now = useWrite(appBackupRoutes.now);
  const toast = useToasts();
  const [restoring, setRestoring] = useState<Archive | null>(null);
  const [restored, setRestored] = useState<RestoreResult | null>(null);
  const { lastBackup, lastRun } = status;

  async function backUpNow() {
    try {
      const after = await now.mutateAsync({});
      const made = after.lastBackup;
      toast.show(
        made?.fileName ? t('backups.made', { name: made.fileName, size: formatBytes(made.size) }) : t('backups.madeNoName'),
      );
    } catch (err) {
      toast.error(err, t('backups.failed'));
    }
  }

  return (
    <>
      <p className="muted">{t('backups.intro')}</p>
      {restored ? (
        <p className="banner info" role="status">
          {t('backups.restored', { name: restored.restoredFrom, safety: restored.safetyBackup })}
        </p>
      ) : null}
      <dl className="facts">
        <dt>{t('backups.folder')}</dt>
        <dd>
          <code data-testid="backup-folder">{status.settings.folder}</code>
          <div className="faint small fact-note">{t('backups.folderHint')}</div>
        </dd>
        <dt>{t('backups.last')}</dt>
        <dd data-testid="last-backup">
          {lastBackup
            ? t('backups.lastLine', {
                when: formatDateTime(lastBackup.finishedAt ?? lastBackup.startedAt),
                size: formatBytes(lastBackup.size),
                name: lastBackup.fileName ?? '—',
              })
            : t('backups.none')}
        </dd>
        {lastRun?.state === 'failed' ? (
          <>
            <dt>{t('backups.lastFailed')}</dt>
            <dd className="failed">
              {t('backups.failedLine', { when: formatDateTime(lastRun.startedAt), error: lastRun.error ?? '—' })}
            </dd>
          </>
        ) : null}
      </dl>
      <ScheduleForm key={settingsKey(status.settings)} settings={status.settings} />
      <div className="panel-actions">
        <button type="button" className="btn primary" disabled={now.isPending} onClick={() => void backUpNow()}>
          {now.isPending ? t('backups.working') : t('backups.now')}
        </button>
        {now.isPending || lastRun?.state === 'running' ? <Progress label={t('backups.working')} share={null} /> : null}
      </div>
      <h3>{t('backups.archives')}</h3>
      <DataTable
        label={t('backups.archives')}
        className="compact"
        rows={status.backups}
        rowKey={(b) => b.name}
        empty={<p className="muted">{t('backups.noArchives')}</p>}
        hideWhenEmpty
        columns={[
          { id: 'made', header: t('backups.madeAt'), className: 'date', cell: (b) => formatDateTime(b.createdAt) },
          { id: 'size', header: t('backups.size'), className: 'num', cell: (b) => formatBytes(b.size) },
          {
            id: 'trigger',
            header: t('backups.trigger'),
            cell: (b) => t(`backups.triggers.${b.trigger}`, { defaultValue: b.trigger }),
          },
          { id: 'name', header: t('backups.fileName'), cell: (b) => <span className="faint">{b.name}</span> },
          {
            id: 'actions',
            header: t('common:actions'),
            srOnlyHeader: true,
            className: 'num',
            cell: (b) => (
              <button
                type="button"
                className="btn small"
                aria-label={t('backups.restoreOne', { when: formatDateTime(b.createdAt) })}
                onClick={() => setRestoring(b)}
              >
                {t('backups.restore')}
              </button>
            ),
          },
        ]}
      />
      {restoring ? (
        <RestoreDialog
          archive={restoring}
          onCancel={() => setRestoring(null)}
          onRestored={(result) => {
            setRestoring(null);
            setRestored(result);
          }}
        />
      ) : null}
    </>
  );
}

const settingsKey = (s: BackupStatus['settings']) => `${s.enabled} ${s.intervalHours} ${s.keep}`;
const FIELDS: ReadonlySet<string> = new Set(['intervalHours', 'keep']);

function ScheduleForm({ settings }: { settings: BackupStatus['settings'] }) {
  const { t } = useTranslation('settings');
  const form = useFormState(() => ({ intervalHours: String(settings.intervalHours), keep: String(settings.keep) }));
  const [enabled, setEnabled] = useState(settings.enabled);
  const put = useWrite(appBackupRoutes.settings);
  const toast = useToasts();
  const dirty =
    enabled !== settings.enabled ||
    form.values.intervalHours !== String(settings.intervalHours) ||
    form.values.keep !== String(settings.keep);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const intervalHours = wholeNumber(form.values.intervalHours);
    const keep = wholeNumber(form.values.keep);
    const local = {
      ...(intervalHours === null ? { intervalHours: t('backups.wholeNumber') } : {}),
      ...(keep === null ? { keep: t('backups.wholeNumber') } : {}),
    };
    if (intervalHours === null || keep === null) return form.setErrors(local);
    try {
      await put.mutateAsync({ body: { enabled, intervalHours, keep } });
      toast.show(t('backups.saved'));
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 422) form.setErrors(fieldErrorsFrom(err, FIELDS));
      else toast.error(err, t('backups.saveFailed'));
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-label={t('backups.schedule')}>
      <h3>{t('backups.schedule')}</h3>
      <FormError message={form.errors[FORM_KEY]} />
      <label className="check">
        <input type="checkbox" name="enabled" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
        {t('backups.enabled')}
      </label>
      <div className="grid-2">
        <TextField
          name="intervalHours"
          label={t('backups.interval')}
          hint={t('backups.intervalHint')}
          value={form.values.intervalHours}
          onChange={form.set('intervalHours')}
          error={form.errors.intervalHours}
          inputMode="numeric"
          required
        />
        <TextField
          name="keep"
          label={t('backups.keep')}
          hint={t('backups.keepHint')}
          value={form.values.keep}
          onChange={form.set('keep')}
          error={form.errors.keep}
          inputMode="numeric"
          required
        />
      </div>
      <div className="panel-actions">
        <button type="submit" className="btn" disabled={!dirty || put.isPending}>
          {t('backups.save')}
        </button>
      </div>
    </form>
  );
}
