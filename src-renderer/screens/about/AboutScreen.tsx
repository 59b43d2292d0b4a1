/** Health and About: is the server answering, which versions run, and (desktop) the local server's state. */
import { useEffect, useState } from 'react';
import type { DesktopAppInfo, ServerStatus } from '../../../src-shared/desktop-bridge';
import { platform } from '../../platform/current';
import { useConnection } from '../../stores/connection';

function statusText(s: ServerStatus): string {
  switch (s.state) {
    case 'ready':
      return `Running at ${s.url}`;
    case 'starting':
      return `Starting (attempt ${s.attempt})`;
    case 'restarting':
      return `Restarting in ${Math.ceil(s.inMs / 1000)} s: ${s.reason}`;
    case 'failed':
      return `Stopped: ${s.reason}`;
    case 'stopped':
      return 'Stopped';
  }
}

export function AboutScreen() {
  const { connection, health, healthError, checkHealth } = useConnection();
  const [info, setInfo] = useState<DesktopAppInfo | null>(null);
  const [server, setServer] = useState<ServerStatus | null>(null);

  useEffect(() => {
    void checkHealth();
    const d = platform.desktop;
    if (!d) return;
    void d.appInfo().then(setInfo);
    void d.serverStatus().then(setServer);
    return d.onServerStatus(setServer);
  }, [checkHealth]);

  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>Health and about</h1>
          <p>The state of the server this window talks to.</p>
        </div>
        <button type="button" className="btn" onClick={() => void checkHealth()}>
          Check again
        </button>
      </header>
      <section className="panel" aria-label="Server health">
        <h2>
          Server{' '}
          {health ? (
            <span className="status-pill ok">
              <span className="dot ok" /> Healthy
            </span>
          ) : (
            <span className="status-pill bad">
              <span className="dot bad" /> Not reachable
            </span>
          )}
        </h2>
        <dl className="facts">
          <dt>Address</dt>
          <dd>{connection.baseUrl || '—'}</dd>
          <dt>Server version</dt>
          <dd>{health?.version ?? '—'}</dd>
          <dt>Database schema</dt>
          <dd>{health ? `version ${health.schemaVersion}` : '—'}</dd>
          <dt>Server time</dt>
          <dd>{health?.time ?? '—'}</dd>
          {healthError ? (
            <>
              <dt>Problem</dt>
              <dd>{healthError}</dd>
            </>
          ) : null}
          <dt>API reference</dt>
          <dd>{connection.baseUrl ? <a href={`${connection.baseUrl}/v1/docs`}>{`${connection.baseUrl}/v1/docs`}</a> : '—'}</dd>
        </dl>
      </section>
      {platform.desktop ? (
        <section className="panel" aria-label="Desktop app">
          <h2>Desktop app</h2>
          <dl className="facts">
            <dt>Local server</dt>
            <dd>{server ? statusText(server) : '—'}</dd>
            <dt>Version</dt>
            <dd>{info?.appVersion ?? '—'}</dd>
            <dt>Electron / Chrome / Node</dt>
            <dd>{info ? `${info.electronVersion} / ${info.chromeVersion} / ${info.nodeVersion}` : '—'}</dd>
            <dt>Platform</dt>
            <dd>{info?.platform ?? '—'}</dd>
            <dt>Data folder</dt>
            <dd>{info?.dataDir ?? '—'}</dd>
          </dl>
          <div className="panel-actions">
            <button type="button" className="btn" onClick={() => void platform.desktop?.restartServer()}>
              Restart local server
            </button>
          </div>
        </section>
      ) : null}
    </div>
  );
}
