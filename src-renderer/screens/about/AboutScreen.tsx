/** Health and About: is the server answering, which versions run, and (desktop) the local server's state. */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DesktopAppInfo, ServerStatus } from '../../../src-shared/desktop-bridge';
import { PageHeader } from '../../components/PageHeader';
import { t } from '../../i18n';
import { formatDateTime } from '../../lib/format';
import { platform } from '../../platform/current';
import { useConnection } from '../../stores/connection';

function statusText(s: ServerStatus): string {
  switch (s.state) {
    case 'ready':
      return t('about:server.ready', { url: s.url });
    case 'starting':
      return t('about:server.starting', { attempt: s.attempt });
    case 'restarting':
      return t('about:server.restarting', { seconds: Math.ceil(s.inMs / 1000), reason: s.reason });
    case 'failed':
      return t('about:server.failed', { reason: s.reason });
    case 'stopped':
      return t('about:server.stopped');
  }
}

export function AboutScreen() {
  const { t } = useTranslation('about');
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
      <PageHeader namespace="about">
        <button type="button" className="btn" onClick={() => void checkHealth()}>
          {t('checkAgain')}
        </button>
      </PageHeader>
      <section className="panel" aria-label={t('health')}>
        <h2>
          {t('server.title')}{' '}
          {health ? (
            <span className="status-pill ok">
              <span className="dot ok" /> {t('healthy')}
            </span>
          ) : (
            <span className="status-pill bad">
              <span className="dot bad" /> {t('unreachable')}
            </span>
          )}
        </h2>
        <dl className="facts">
          <dt>{t('address')}</dt>
          <dd>{connection.baseUrl || '—'}</dd>
          <dt>{t('serverVersion')}</dt>
          <dd>{health?.version ?? '—'}</dd>
          <dt>{t('schema')}</dt>
          <dd>{health ? t('schemaVersion', { version: health.schemaVersion }) : '—'}</dd>
          <dt>{t('serverTime')}</dt>
          <dd>{health?.time ? formatDateTime(health.time) : '—'}</dd>
          {healthError ? (
            <>
              <dt>{t('problem')}</dt>
              <dd>{healthError}</dd>
            </>
          ) : null}
          <dt>{t('apiReference')}</dt>
          <dd>{connection.baseUrl ? <a href={`${connection.baseUrl}/v1/docs`}>{`${connection.baseUrl}/v1/docs`}</a> : '—'}</dd>
        </dl>
      </section>
      {platform.desktop ? (
        <section className="panel" aria-label={t('desktop.title')}>
          <h2>{t('desktop.title')}</h2>
          <dl className="facts">
            <dt>{t('desktop.localServer')}</dt>
            <dd>{server ? statusText(server) : '—'}</dd>
            <dt>{t('desktop.version')}</dt>
            <dd>{info?.appVersion ?? '—'}</dd>
            <dt>Electron / Chrome / Node</dt>
            <dd>{info ? `${info.electronVersion} / ${info.chromeVersion} / ${info.nodeVersion}` : '—'}</dd>
            <dt>{t('desktop.platform')}</dt>
            <dd>{info?.platform ?? '—'}</dd>
            <dt>{t('desktop.dataFolder')}</dt>
            <dd>{info?.dataDir ?? '—'}</dd>
          </dl>
          <div className="panel-actions">
            <button type="button" className="btn" onClick={() => void platform.desktop?.restartServer()}>
              {t('desktop.restart')}
            </button>
          </div>
        </section>
      ) : null}
    </div>
  );
}
