/**
 * The team's remote and its last round: state (with "offline" when the remote did not answer), live progress,
 * when it last synced and what moved, what waits to be sent, open conflicts, where the key is kept, the last
 * error; and the owner's actions: sync now, test the connection with the kept key, replace the key, disconnect.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { appSyncRoutes, type ConnectionTestResult, type SyncStatusBody } from '../../../src-shared/contract/app-sync';
import { Progress } from '../../components/Progress';
import { ConfirmDialog } from '../../components/ui';
import { useWrite } from '../../data/use-write';
import { formatDateTime, formatNumber } from '../../lib/format';
import { useToasts } from '../../stores/toasts';
import { ApiKeyField } from './ApiKeyField';
import { TestResult } from './ConnectForm';
import { phaseText } from './conflict-view';
import { expectRound } from './use-sync-status';

type Remote = NonNullable<SyncStatusBody['remote']>;

/** The pill's colour for each standing: up to date is done, conflicts wait for a choice. */
const PILL_TONE: Record<SyncStatusBody['standing'], string> = {
  not_connected: 'completed',
  never_synced: 'completed',
  up_to_date: 'completed',
  open_conflicts: 'waiting',
  running: 'running',
  failed: 'failed',
  credentials_expired: 'failed',
  refused: 'failed',
};

export function StatusPill({ status }: { status: SyncStatusBody }) {
  const { t } = useTranslation('sync');
  const standing = status.standing;
  const text =
    standing === 'never_synced' || standing === 'not_connected'
      ? t('status.neverSynced')
      : standing === 'up_to_date'
        ? t('states.idle')
        : standing === 'open_conflicts'
          ? t('states.conflicts', { count: status.openConflicts })
          : t(`states.${standing}`);
  return (
    <span className="sync-pills">
      <span className={`run-pill ${PILL_TONE[standing]}`} data-testid="sync-standing">
        {text}
      </span>
      {status.online ? null : <span className="run-pill waiting">{t('status.offline')}</span>}
    </span>
  );
}

export function StatusPanel({ status, remote }: { status: SyncStatusBody; remote: Remote }) {
  const { t } = useTranslation('sync');
  const syncNow = useWrite(appSyncRoutes.syncNow);
  const test = useWrite(appSyncRoutes.test);
  const disconnect = useWrite(appSyncRoutes.deleteRemote);
  const [result, setResult] = useState<ConnectionTestResult | null>(null);
  const [replacing, setReplacing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const toast = useToasts();
  const running = remote.state === 'running';
  const { phase, done, total } = remote.progress;
  const summary = remote.lastSummary;
  const keyFrom = status.credential.from ?? 'none';

  const start = () => {
    expectRound();
    syncNow
      .mutateAsync({})
      .then(() => toast.show(t('syncStarted')))
      .catch((err) => toast.error(err, t('syncFailed')));
  };

  return (
    <section className="panel sync-status" aria-labelledby="sync-status-title">
      <div className="sync-status-head">
        <h2 id="sync-status-title">{t('status.title', { name: remote.name })}</h2>
        <StatusPill status={status} />
      </div>
      {running ? <Progress label={phaseText(phase, done, total)} share={total > 0 ? Math.min(1, done / total) : null} /> : null}
      {!status.online ? (
        <div className="banner warn">
          <div className="grow">
            <strong>{t('status.offline')}</strong>
            <small>{t('status.offlineDetail')}</small>
            {remote.lastError ? <small>{remote.lastError}</small> : null}
          </div>
        </div>
      ) : remote.lastError && !running ? (
        <div className="banner error">
          <div className="grow">
            <strong>{t('status.lastError')}</strong>
            <small>{remote.lastError}</small>
          </div>
        </div>
      ) : null}
      {!status.credential.present ? (
        <div className="banner warn">
          <div className="grow">
            <strong>{t('status.keyMissingTitle')}</strong>
            <small>{t('status.keyMissingDetail')}</small>
          </div>
        </div>
      ) : null}
      <dl className="facts">
        <dt>{t('status.address')}</dt>
        <dd>{remote.baseUrl}</dd>
        <dt>{t('status.kind')}</dt>
        <dd>{t(`kinds.${remote.kind}`)}</dd>
        <dt>{t('status.lastSync')}</dt>
        <dd>
          {remote.lastSuccessAt ? formatDateTime(remote.lastSuccessAt) : t('status.neverSynced')}
          {summary ? (
            <span className="faint">
              {' '}
              · {t('status.summary', { pulled: summary.pulled, pushed: summary.pushed, count: summary.conflicts })}
            </span>
          ) : null}
        </dd>
        <dt>{t('status.pending')}</dt>
        <dd data-testid="sync-pending">
          {status.pendingChanges === 0 ? t('status.nothing') : t('status.changes', { count: status.pendingChanges })}
        </dd>
        <dt>{t('status.conflicts')}</dt>
        <dd data-testid="sync-open-conflicts">{formatNumber(status.openConflicts)}</dd>
        <dt>{t('status.key')}</dt>
        <dd>{t(`status.keyFrom.${keyFrom}`)}</dd>
        <dt>{t('status.rounds')}</dt>
        <dd>{status.scheduled ? t('status.scheduled') : t('status.onDemand')}</dd>
      </dl>
      <div role="status" aria-live="polite">
        {result ? <TestResult result={result} /> : null}
      </div>
      {status.canManage ? (
        <>
          <div className="panel-actions">
            <button type="button" className="btn primary" onClick={start} disabled={running || syncNow.isPending}>
              {t('syncNow')}
            </button>
            <button
              type="button"
              className="btn"
              disabled={!status.credential.present || test.isPending}
              onClick={() => {
                setResult(null);
                test
                  .mutateAsync({ body: { baseUrl: remote.baseUrl } })
                  .then(setResult)
                  .catch((err) => toast.error(err, t('test.failed')));
              }}
            >
              {test.isPending ? t('test.running') : t('test.run')}
            </button>
            <button type="button" className="btn" onClick={() => setReplacing(true)} disabled={replacing}>
              {t('replaceKey')}
            </button>
            <span className="spacer" />
            <button type="button" className="btn danger" onClick={() => setConfirming(true)} disabled={running}>
              {t('disconnect.button')}
            </button>
          </div>
          {replacing || !status.credential.present ? (
            <KeyForm storage={status.secretStorage} onDone={() => setReplacing(false)} cancellable={replacing} />
          ) : null}
        </>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title={t('disconnect.title')}
          body={t('disconnect.body')}
          confirmLabel={t('disconnect.button')}
          danger
          busy={disconnect.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={() =>
            disconnect
              .mutateAsync({})
              .then(() => toast.show(t('disconnect.done')))
              .catch((err) => toast.error(err, t('disconnect.failed')))
              .finally(() => setConfirming(false))
          }
        />
      ) : null}
    </section>
  );
}

function KeyForm(props: { storage: SyncStatusBody['secretStorage']; cancellable: boolean; onDone: () => void }) {
  const { t } = useTranslation('sync');
  const [apiKey, setApiKey] = useState('');
  const save = useWrite(appSyncRoutes.putCredential);
  const toast = useToasts();
  return (
    <form
      className="sync-key-form"
      aria-label={t('replaceKey')}
      onSubmit={(e) => {
        e.preventDefault();
        if (!apiKey.trim()) return;
        save
          .mutateAsync({ body: { apiKey: apiKey.trim() } })
          .then(() => {
            toast.show(t('keySaved'));
            setApiKey('');
            props.onDone();
          })
          .catch((err) => toast.error(err, t('keyFailed')));
      }}
    >
      <ApiKeyField value={apiKey} storage={props.storage} onChange={setApiKey} />
      <div className="panel-actions">
        <button type="submit" className="btn primary" disabled={!apiKey.trim() || save.isPending}>
          {t('saveKey')}
        </button>
        {props.cancellable ? (
          <button type="button" className="btn" onClick={props.onDone}>
            {t('common:cancel')}
          </button>
        ) : null}
      </div>
    </form>
  );
}
