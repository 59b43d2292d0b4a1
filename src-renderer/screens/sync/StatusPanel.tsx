/**
 * The team's remote and its last round: state (with "offline" when the remote did not answer), live progress,
 * when it last synced and what moved, what waits to be sent, open conflicts, where the key is kept, the last
 * error; and the owner's actions: sync now, test the connection with the kept key, replace the key, disconnect.
 */
import { useState } from 'react';
import { appSyncRoutes, type ConnectionTestResult, type SyncStatusBody } from '../../../src-shared/contract/app-sync';
import { Progress } from '../../components/Progress';
import { ConfirmDialog } from '../../components/ui';
import { useWrite } from '../../data/use-write';
import { formatDateTime } from '../../lib/format';
import { useToasts } from '../../stores/toasts';
import { ApiKeyField } from './ApiKeyField';
import { TestResult } from './ConnectForm';
import { S } from './strings';
import { expectRound } from './use-sync-status';

type Remote = NonNullable<SyncStatusBody['remote']>;

export function StatusPill({ status }: { status: SyncStatusBody }) {
  const state = status.remote?.state ?? 'idle';
  const never = state === 'idle' && !status.remote?.lastSuccessAt;
  return (
    <span className="sync-pills">
      <span className={`run-pill ${state === 'idle' ? 'completed' : state === 'running' ? 'running' : 'failed'}`}>
        {never ? S.neverSynced : S.states[state]}
      </span>
      {status.online ? null : <span className="run-pill waiting">{S.offline}</span>}
    </span>
  );
}

export function StatusPanel({ status, remote }: { status: SyncStatusBody; remote: Remote }) {
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
      .then(() => toast.show(S.syncStarted))
      .catch((err) => toast.error(err, S.syncFailed));
  };

  return (
    <section className="panel sync-status" aria-labelledby="sync-status-title">
      <div className="sync-status-head">
        <h2 id="sync-status-title">
          {S.statusTitle}: {remote.name}
        </h2>
        <StatusPill status={status} />
      </div>
      {running ? <Progress label={S.phase(phase, done, total)} share={total > 0 ? Math.min(1, done / total) : null} /> : null}
      {!status.online ? (
        <div className="banner warn">
          <div className="grow">
            <strong>{S.offline}</strong>
            <small>{S.offlineDetail}</small>
            {remote.lastError ? <small>{remote.lastError}</small> : null}
          </div>
        </div>
      ) : remote.lastError && !running ? (
        <div className="banner error">
          <div className="grow">
            <strong>{S.lastError}</strong>
            <small>{remote.lastError}</small>
          </div>
        </div>
      ) : null}
      {!status.credential.present ? (
        <div className="banner warn">
          <div className="grow">
            <strong>{S.keyMissingTitle}</strong>
            <small>{S.keyMissingDetail}</small>
          </div>
        </div>
      ) : null}
      <dl className="facts">
        <dt>{S.factAddress}</dt>
        <dd>{remote.baseUrl}</dd>
        <dt>{S.factKind}</dt>
        <dd>{S.kinds[remote.kind]}</dd>
        <dt>{S.factLastSync}</dt>
        <dd>
          {remote.lastSuccessAt ? formatDateTime(remote.lastSuccessAt) : S.neverSynced}
          {summary ? <span className="faint"> · {S.summary(summary.pulled, summary.pushed, summary.conflicts)}</span> : null}
        </dd>
        <dt>{S.factPending}</dt>
        <dd data-testid="sync-pending">{S.changes(status.pendingChanges)}</dd>
        <dt>{S.factConflicts}</dt>
        <dd data-testid="sync-open-conflicts">{status.openConflicts}</dd>
        <dt>{S.factKey}</dt>
        <dd>{S.keyFrom[keyFrom]}</dd>
        <dt>{S.factRounds}</dt>
        <dd>{S.rounds(status.scheduled)}</dd>
      </dl>
      <div role="status" aria-live="polite">
        {result ? <TestResult result={result} /> : null}
      </div>
      {status.canManage ? (
        <>
          <div className="panel-actions">
            <button type="button" className="btn primary" onClick={start} disabled={running || syncNow.isPending}>
              {S.syncNow}
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
                  .catch((err) => toast.error(err, S.testFailed));
              }}
            >
              {test.isPending ? S.testing : S.test}
            </button>
            <button type="button" className="btn" onClick={() => setReplacing(true)} disabled={replacing}>
              {S.replaceKey}
            </button>
            <span className="spacer" />
            <button type="button" className="btn danger" onClick={() => setConfirming(true)} disabled={running}>
              {S.disconnect}
            </button>
          </div>
          {replacing || !status.credential.present ? (
            <KeyForm storage={status.secretStorage} onDone={() => setReplacing(false)} cancellable={replacing} />
          ) : null}
        </>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title={S.disconnectTitle}
          body={S.disconnectBody}
          confirmLabel={S.disconnect}
          danger
          busy={disconnect.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={() =>
            disconnect
              .mutateAsync({})
              .then(() => toast.show(S.disconnected))
              .catch((err) => toast.error(err, S.disconnectFailed))
              .finally(() => setConfirming(false))
          }
        />
      ) : null}
    </section>
  );
}

function KeyForm(props: { storage: SyncStatusBody['secretStorage']; cancellable: boolean; onDone: () => void }) {
  const [apiKey, setApiKey] = useState('');
  const save = useWrite(appSyncRoutes.putCredential);
  const toast = useToasts();
  return (
    <form
      className="sync-key-form"
      aria-label={S.replaceKey}
      onSubmit={(e) => {
        e.preventDefault();
        if (!apiKey.trim()) return;
        save
          .mutateAsync({ body: { apiKey: apiKey.trim() } })
          .then(() => {
            toast.show(S.keySaved);
            setApiKey('');
            props.onDone();
          })
          .catch((err) => toast.error(err, S.keyFailed));
      }}
    >
      <ApiKeyField value={apiKey} storage={props.storage} onChange={setApiKey} />
      <div className="panel-actions">
        <button type="submit" className="btn primary" disabled={!apiKey.trim() || save.isPending}>
          {S.saveKey}
        </button>
        {props.cancellable ? (
          <button type="button" className="btn" onClick={props.onDone}>
            {S.cancel}
          </button>
        ) : null}
      </div>
    </form>
  );
}
