/**
 * Connecting the team to a remote: its address, its kind, an API key of the remote team, a connection test that
 * says which team and base currency the key reaches (or why not), and "Connect and sync", which keeps the remote and
 * the key on the server and starts the first round. The key is sent once and never shown again.
 */

import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  appSyncRoutes,
  type ConnectionTestResult,
  REMOTE_KINDS,
  type SyncStatusBody,
} from '../../../src-shared/contract/app-sync';
import { Field } from '../../components/ui';
import { useWrite } from '../../data/use-write';
import { useToasts } from '../../stores/toasts';
import { ApiKeyField } from './ApiKeyField';
import { remoteUrlProblem } from './conflict-view';
import { OAuthSignIn } from './OAuthSignIn';
import { expectRound } from './use-sync-status';

type Kind = (typeof REMOTE_KINDS)[number];
/** `auto`: the first round finds out (a probe of the remote's change feed). */
type KindChoice = 'auto' | Kind;

export function ConnectForm({ status }: { status: SyncStatusBody }) {
  const { t } = useTranslation('sync');
  const [baseUrl, setBaseUrl] = useState('');
  const [kind, setKind] = useState<KindChoice>('auto');
  const [apiKey, setApiKey] = useState('');
  const [touched, setTouched] = useState(false);
  const [result, setResult] = useState<ConnectionTestResult | null>(null);
  const test = useWrite(appSyncRoutes.test);
  const putRemote = useWrite(appSyncRoutes.putRemote);
  const putKey = useWrite(appSyncRoutes.putCredential);
  const syncNow = useWrite(appSyncRoutes.syncNow);
  const toast = useToasts();
  const urlError = touched ? remoteUrlProblem(baseUrl) : undefined;
  const keyError = touched && !apiKey.trim() ? t('apiKey.missing') : undefined;
  const valid = !remoteUrlProblem(baseUrl) && apiKey.trim() !== '';
  const busy = test.isPending || putRemote.isPending || putKey.isPending || syncNow.isPending;
  const disabled = !status.canManage || busy;

  const runTest = async () => {
    setTouched(true);
    if (!valid) return;
    setResult(null);
    try {
      setResult(await test.mutateAsync({ body: { baseUrl: baseUrl.trim(), apiKey: apiKey.trim() } }));
    } catch (err) {
      toast.error(err, t('test.failed'));
    }
  };

  const connect = async () => {
    setTouched(true);
    if (!valid) return;
    try {
      await putRemote.mutateAsync({ body: { baseUrl: baseUrl.trim(), ...(kind === 'auto' ? {} : { kind }) } });
      await putKey.mutateAsync({ body: { apiKey: apiKey.trim() } });
      expectRound();
      await syncNow.mutateAsync({});
      toast.show(t('connect.connected'));
    } catch (err) {
      toast.error(err, t('connect.failed'));
    }
  };

  return (
    <section className="panel sync-connect" aria-labelledby="sync-connect-title">
      <h2 id="sync-connect-title">{t('connect.title')}</h2>
      <p className="muted">{t('connect.intro')}</p>
      <form
        className="sync-form"
        aria-labelledby="sync-connect-title"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void connect();
        }}
      >
        <Field label={t('connect.address')} required error={urlError} hint={t('connect.addressHint')}>
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              className="input"
              type="url"
              inputMode="url"
              autoComplete="url"
              placeholder={t('connect.addressPlaceholder')}
              value={baseUrl}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              disabled={!status.canManage}
              onChange={(e) => {
                setBaseUrl(e.target.value);
                setResult(null);
              }}
            />
          )}
        </Field>
        <Field label={t('connect.kind')}>
          {({ id }) => (
            <select
              id={id}
              className="select"
              value={kind}
              disabled={!status.canManage}
              onChange={(e) => setKind(e.target.value as KindChoice)}
            >
              {(['auto', ...REMOTE_KINDS] as const).map((k) => (
                <option key={k} value={k}>
                  {t(`kinds.${k}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <ApiKeyField
          value={apiKey}
          storage={status.secretStorage}
          error={keyError}
          disabled={!status.canManage}
          onChange={(value) => {
            setApiKey(value);
            setResult(null);
          }}
        />
        <div role="status" aria-live="polite">
          {result ? <TestResult result={result} /> : null}
        </div>
        <div className="panel-actions">
          <button type="button" className="btn" onClick={() => void runTest()} disabled={disabled}>
            {test.isPending ? t('test.running') : t('test.run')}
          </button>
          <button type="submit" className="btn primary" disabled={disabled}>
            {putRemote.isPending || putKey.isPending || syncNow.isPending ? t('connect.connecting') : t('connect.submit')}
          </button>
        </div>
      </form>
      {/* The platform decides where the remote's page opens (platform.oauthSignIn). */}
      <OAuthSignIn baseUrl={baseUrl} kind={kind === 'auto' ? undefined : kind} disabled={disabled} />
    </section>
  );
}

export function TestResult({ result }: { result: ConnectionTestResult }) {
  const { t } = useTranslation('sync');
  if (result.ok)
    return (
      <div className="banner info sync-test ok">
        <div className="grow">
          <strong>{testOk(t, result.team?.name, result.team?.baseCurrency)}</strong>
        </div>
      </div>
    );
  return (
    <div className="banner warn sync-test">
      <div className="grow">
        <strong>{t('test.failed')}</strong>
        <small>{result.reason}</small>
      </div>
    </div>
  );
}

/** Which team the key reaches, with its base currency when the remote says. */
function testOk(t: TFunction<'sync'>, name?: string | null, currency?: string | null): string {
  if (name) return currency ? t('test.okWithCurrency', { name, currency }) : t('test.ok', { name });
  return currency ? t('test.okUnnamedWithCurrency', { currency }) : t('test.okUnnamed');
}
