/**
 * Signing in to the remote with an account there (OAuth authorization code + PKCE; docs/decisions/0145-sync-screen.md):
 * the server starts the sign-in and keeps its secrets, the window goes to the remote's page, and the remote sends
 * it back to /sync, where `useOAuthReturn` finishes the sign-in with this session and starts the first round.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { appSyncRoutes, type REMOTE_KINDS } from '../../../src-shared/contract/app-sync';
import { Field } from '../../components/ui';
import { useWrite } from '../../data/use-write';
import { useToasts } from '../../stores/toasts';
import { remoteUrlProblem } from './conflict-view';
import { expectRound } from './use-sync-status';

export function OAuthSignIn(props: { baseUrl: string; kind: (typeof REMOTE_KINDS)[number]; disabled: boolean }) {
  const { t } = useTranslation('sync');
  const [clientId, setClientId] = useState('');
  const [touched, setTouched] = useState(false);
  const start = useWrite(appSyncRoutes.oauthStart);
  const toast = useToasts();
  const clientError = touched && !clientId.trim() ? t('oauth.clientIdMissing') : undefined;

  const signIn = async () => {
    setTouched(true);
    if (remoteUrlProblem(props.baseUrl) || !clientId.trim()) return;
    try {
      const res = await start.mutateAsync({
        body: { baseUrl: props.baseUrl.trim(), kind: props.kind, clientId: clientId.trim() },
      });
      window.location.assign(res.authorizeUrl);
    } catch (err) {
      toast.error(err, t('oauth.failed'));
    }
  };

  return (
    <fieldset className="sync-oauth">
      <legend>{t('oauth.title')}</legend>
      <Field
        label={t('oauth.clientId')}
        error={clientError}
        hint={t('oauth.clientIdHint', { redirect: `${window.location.origin}/app/sync/oauth/callback` })}
      >
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            className="input"
            autoComplete="off"
            spellCheck={false}
            value={clientId}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            disabled={props.disabled}
            onChange={(e) => setClientId(e.target.value)}
          />
        )}
      </Field>
      <div className="panel-actions">
        <button type="button" className="btn" onClick={() => void signIn()} disabled={props.disabled || start.isPending}>
          {start.isPending ? t('oauth.starting') : t('oauth.signIn')}
        </button>
      </div>
    </fieldset>
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
