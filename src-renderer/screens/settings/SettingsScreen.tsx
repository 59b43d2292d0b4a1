/**
 * Settings. Web build: the server address and API key, kept in this browser's localStorage, with a check that
 * the key is accepted before saving. Desktop build: both are managed by the app (local server, key in the OS
 * keychain), shown read-only.
 */
import { type FormEvent, useEffect, useState } from 'react';
import { ApiClientError, createApiClient } from '../../../src-shared/api-client';
import { customerRoutes } from '../../../src-shared/contract/customers';
import { ErrorBanner, Field } from '../../components/ui';
import { checkApiKey, checkServerUrl } from '../../lib/server-url';
import { platform } from '../../platform/current';
import { useConnection } from '../../stores/connection';
import { useToasts } from '../../stores/toasts';

export function SettingsScreen() {
  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>Settings</h1>
          <p>How this window reaches your Finops Desk data.</p>
        </div>
      </header>
      {platform.kind === 'desktop' ? <DesktopConnectionPanel /> : <WebConnectionPanel />}
    </div>
  );
}

function WebConnectionPanel() {
  const { connection, save } = useConnection();
  const toast = useToasts((s) => s.show);
  const [serverUrl, setServerUrl] = useState(connection.baseUrl);
  const [apiKey, setApiKey] = useState(connection.apiKey);
  const [errors, setErrors] = useState<{ serverUrl?: string; apiKey?: string }>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setServerUrl(connection.baseUrl);
    setApiKey(connection.apiKey);
  }, [connection]);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const url = checkServerUrl(serverUrl);
    const key = checkApiKey(apiKey);
    setErrors({ serverUrl: url.ok ? undefined : url.message, apiKey: key.ok ? undefined : key.message });
    if (!url.ok || !key.ok) return;
    setBusy(true);
    setFailure(null);
    try {
      // Prove the key works before keeping it: one customer, the cheapest authenticated read.
      const client = createApiClient({ baseUrl: url.origin, token: () => key.key });
      await client.call(customerRoutes.list, { query: { pageSize: 1 } });
      save({ baseUrl: url.origin, apiKey: key.key });
      toast('Connected. Settings saved in this browser.');
    } catch (err) {
      if (err instanceof ApiClientError && (err.status === 401 || err.status === 403)) {
        setErrors({ apiKey: err.status === 401 ? 'This key is not valid on that server (unknown or revoked).' : err.message });
      } else {
        setFailure(err);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="panel" onSubmit={onSubmit} noValidate aria-label="Server connection">
      <h2>Server connection</h2>
      <p className="muted">
        Create a key on the server machine with <code>finops token create --team "Your team"</code>. It is stored only in this
        browser.
      </p>
      {failure ? <ErrorBanner error={failure} /> : null}
      <Field
        label="Server address"
        error={errors.serverUrl}
        hint="The address this page is served from, unless you use another server"
      >
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            name="serverUrl"
            className="input"
            value={serverUrl}
            onChange={(e) => setServerUrl(e.target.value)}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            spellCheck={false}
          />
        )}
      </Field>
      <Field label="API key" error={errors.apiKey} hint="finops_ followed by 64 characters">
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            name="apiKey"
            className="input"
            type="password"
            value={apiKey}
            onChange={(e) => setApiKey(e.target.value)}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            autoComplete="off"
            spellCheck={false}
          />
        )}
      </Field>
      <div className="panel-actions">
        <button type="submit" className="btn primary" disabled={busy}>
          {busy ? 'Checking…' : 'Save and connect'}
        </button>
        {connection.apiKey ? (
          <button
            type="button"
            className="btn"
            onClick={() => {
              platform.clearConnection?.();
              save({ baseUrl: globalThis.location.origin, apiKey: '' });
              toast('Key removed from this browser');
            }}
          >
            Forget key
          </button>
        ) : null}
      </div>
    </form>
  );
}

function DesktopConnectionPanel() {
  const { connection } = useConnection();
  const [storage, setStorage] = useState<string>('…');
  useEffect(() => {
    platform.desktop
      ?.keyStorage()
      .then((k) => setStorage(k === 'os-keychain' ? 'OS keychain' : 'This session only (no keychain available)'));
  }, []);
  return (
    <section className="panel" aria-label="Server connection">
      <h2>Local server</h2>
      <p className="muted">The desktop app runs its own server and key; there is nothing to enter.</p>
      <dl className="facts">
        <dt>Server address</dt>
        <dd>{connection.baseUrl}</dd>
        <dt>API key</dt>
        <dd>…{connection.apiKey.slice(-4)}</dd>
        <dt>Key stored in</dt>
        <dd>{storage}</dd>
      </dl>
    </section>
  );
}
