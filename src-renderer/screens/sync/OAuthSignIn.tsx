/**
 * Signing in to the remote with an account there (OAuth authorization code + PKCE; docs/decisions/0145-sync-screen.md):
 * the server starts the sign-in and keeps its secrets. In the web UI the window goes to the remote's page, and the
 * remote sends it back to /sync, where `useOAuthReturn` finishes the sign-in with this session and starts the first
 * round. In the desktop window the system browser opens the remote's page and the answer reaches the local server
 * on a loopback redirect, which finishes the sign-in itself; `LoopbackWait` follows it until it ends.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { appSyncRoutes, type REMOTE_KINDS } from '../../../src-shared/contract/app-sync';
import { Field } from '../../components/ui';
import { useWrite } from '../../data/use-write';
import { api } from '../../lib/api';
import { platform } from '../../platform/current';
import { useToasts } from '../../stores/toasts';
import { remoteUrlProblem } from './conflict-view';
import { expectRound } from './use-sync-status';

export function OAuthSignIn(props: { baseUrl: string; kind?: (typeof REMOTE_KINDS)[number]; disabled: boolean }) {
  const { t } = useTranslation('sync');
  const { redirect } = platform.oauthSignIn;
  const [clientId, setClientId] = useState('');
  const [port, setPort] = useState('');
  const [touched, setTouched] = useState(false);
  const [waiting, setWaiting] = useState<string | null>(null);
  const start = useWrite(appSyncRoutes.oauthStart);
  const toast = useToasts();
  const clientError = touched && !clientId.trim() ? t('oauth.clientIdMissing') : undefined;
  const portNumber = port.trim() ? Number(port) : undefined;
  const portError =
    touched && portNumber !== undefined && !(Number.isInteger(portNumber) && portNumber > 0 && portNumber < 65536)
      ? t('oauth.portInvalid')
      : undefined;

  const signIn = async () => {
    setTouched(true);
    if (remoteUrlProblem(props.baseUrl) || !clientId.trim() || portError) return;
    try {
      const res = await start.mutateAsync({
        body: {
          baseUrl: props.baseUrl.trim(),
          ...(props.kind ? { kind: props.kind } : {}),
          clientId: clientId.trim(),
          ...(redirect === 'loopback' ? { redirect, port: portNumber } : {}),
        },
      });
      await platform.oauthSignIn.open(res.authorizeUrl, props.baseUrl.trim());
      if (redirect === 'loopback') setWaiting(res.state);
    } catch (err) {
      toast.error(err, t('oauth.failed'));
    }
  };

  const redirectUri =
    redirect === 'loopback'
      ? `http://127.0.0.1:${portNumber ?? t('oauth.portPlaceholder')}/callback`
      : `${window.location.origin}/app/sync/oauth/callback`;
  return (
    <fieldset className="sync-oauth">
      <legend>{t('oauth.title')}</legend>
      <Field label={t('oauth.clientId')} error={clientError} hint={t('oauth.clientIdHint', { redirect: redirectUri })}>
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            className="input"
            autoComplete="off"
            spellCheck={false}
            value={clientId}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            disabled={props.disabled || waiting !== null}
            onChange={(e) => setClientId(e.target.value)}
          />
        )}
      </Field>
      {redirect === 'loopback' ? (
        <Field label={t('oauth.port')} error={portError} hint={t('oauth.portHint')}>
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              className="input"
              inputMode="numeric"
              autoComplete="off"
              value={port}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              disabled={props.disabled || waiting !== null}
              onChange={(e) => setPort(e.target.value)}
            />
          )}
        </Field>
      ) : null}
      {waiting ? (
        <LoopbackWait state={waiting} onEnd={() => setWaiting(null)} />
      ) : (
        <div className="panel-actions">
          <button type="button" className="btn" onClick={() => void signIn()} disabled={props.disabled || start.isPending}>
            {start.isPending ? t('oauth.starting') : t('oauth.signIn')}
          </button>
        </div>
      )}
    </fieldset>
  );
}

const WAIT_POLL_MS = 1000;

/** Follows a loopback sign-in while the person is in the system browser; it can be cancelled. */
function LoopbackWait(props: { state: string; onEnd: () => void }) {
  const { t } = useTranslation('sync');
  const toast = useToasts();
  const syncNow = useWrite(appSyncRoutes.syncNow);
  const cancel = useWrite(appSyncRoutes.oauthCancel);
  const params = { state: props.state };
  const progress = useQuery({
    queryKey: ['sync-oauth-sign-in', props.state],
    queryFn: ({ signal }) => api.call(appSyncRoutes.oauthProgress, { params, signal }),
    refetchInterval: (q) => (q.state.data?.status === 'waiting' || !q.state.data ? WAIT_POLL_MS : false),
  });
  const status = progress.data?.status;
  const message = progress.data?.message;
  const { onEnd } = props;
  const ended = useRef(false);
  useEffect(() => {
    if (ended.current) return;
    if (progress.error || (status && status !== 'waiting')) ended.current = true;
    if (progress.error) {
      toast.error(progress.error, t('oauth.failed'));
      onEnd();
    } else if (status === 'done') {
      onEnd();
      expectRound();
      syncNow.mutateAsync({}).then(
        () => toast.show(t('oauth.connected')),
        (err: unknown) => toast.error(err, t('oauth.failed')),
      );
    } else if (status === 'failed') {
      toast.error(new Error(message ?? ''), t('oauth.failed'));
      onEnd();
    } else if (status === 'cancelled') onEnd();
  }, [status, message, progress.error, onEnd, syncNow, toast, t]);

  return (
    <div className="panel-actions" role="status" aria-live="polite">
      <span className="faint">{t('oauth.waiting')}</span>
      <button
        type="button"
        className="btn"
        disabled={cancel.isPending}
        onClick={() => void cancel.mutateAsync({ params }).then(onEnd, (err: unknown) => toast.error(err, t('oauth.failed')))}
      >
        {t('oauth.cancel')}
      </button>
    </div>
  );
}

/** Finishes a sign-in the remote sent back to /sync (`oauth_state`, `oauth_code` or `oauth_error`), once. */
export function useOAuthReturn(): boolean {
  const { t } = useTranslation('sync');
  const finish = useWrite(appSyncRoutes.oauthFinish);
  const syncNow = useWrite(appSyncRoutes.syncNow);
  const toast = useToasts();
  const handled = useRef(false);
  useEffect(() => {
    if (handled.current) return;
    const q = new URLSearchParams(window.location.search);
    const state = q.get('oauth_state');
    const code = q.get('oauth_code');
    const error = q.get('oauth_error');
    if (!state && !error) return;
    handled.current = true;
    // The answer is used once: it leaves the address bar (and the history) at once.
    window.history.replaceState(window.history.state, '', window.location.pathname);
    if (error || !state || !code) {
      toast.error(new Error(t('oauth.refused', { reason: q.get('oauth_error_description') ?? error ?? '' })), t('oauth.failed'));
      return;
    }
    void (async () => {
      try {
        await finish.mutateAsync({ body: { state, code } });
        expectRound();
        await syncNow.mutateAsync({});
        toast.show(t('oauth.connected'));
      } catch (err) {
        toast.error(err, t('oauth.failed'));
      }
    })();
  }, [finish, syncNow, toast, t]);
  return finish.isPending;
}
