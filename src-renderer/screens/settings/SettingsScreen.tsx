/**
 * Settings. Web build: who is signed in, the browser sessions of this account (each can be signed out), sign-out.
 * Desktop build: the local server and key, managed by the app, shown read-only, and the private network addresses
 * its user allows (PrivateHostsPanel). Both: the personal formats (language, numbers, dates, time zone), the theme,
 * and the data dir's backups (BackupsPanel: on a server of one team, for its owner). What belongs to the team is in
 * Team settings.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { appSessionRoutes } from '../../../src-shared/contract/app-session';
import { AppLink } from '../../components/AppLink';
import { PageHeader } from '../../components/PageHeader';
import { DataTable } from '../../components/table/DataTable';
import { ErrorBanner } from '../../components/ui';
import { useRead } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { i18n } from '../../i18n';
import { formatDateTime } from '../../lib/format';
import { platform } from '../../platform/current';
import { useConnection } from '../../stores/connection';
import { type ThemeChoice, useTheme } from '../../stores/theme';
import { useToasts } from '../../stores/toasts';
import { BackupsPanel } from './BackupsPanel';
import { FormatsPanel } from './FormatsPanel';
import { PrivateHostsPanel } from './PrivateHostsPanel';

export function SettingsScreen() {
  const { t } = useTranslation('settings');
  return (
    <div className="page">
      <PageHeader namespace="settings" />
      {platform.kind === 'desktop' ? <DesktopConnectionPanel /> : <AccountPanel />}
      {platform.desktop?.privateHosts ? <PrivateHostsPanel bridge={platform.desktop.privateHosts} /> : null}
      <FormatsPanel />
      <AppearancePanel />
      <BackupsPanel />
      <section className="panel" aria-labelledby="more-title">
        <h2 id="more-title">{t('more.title')}</h2>
        <p className="muted">
          {t('more.text')} <AppLink to="/team-settings">{t('more.link')}</AppLink>
        </p>
      </section>
    </div>
  );
}

function AccountPanel() {
  const { t } = useTranslation('settings');
  const session = useConnection((s) => s.session);
  const signOut = useConnection((s) => s.signOut);
  const sessions = useRead(appSessionRoutes.list);
  const revoke = useWrite(appSessionRoutes.revoke);
  const toast = useToasts();
  if (!session) return null;
  return (
    <section className="panel" aria-labelledby="account-title">
      <h2 id="account-title">{t('account.title')}</h2>
      <dl className="facts">
        <dt>{t('account.signedInAs')}</dt>
        <dd>
          {session.user.fullName} ({session.user.email})
        </dd>
        <dt>{t('account.team')}</dt>
        <dd>
          {session.team.name} <span className="faint">· {t(`account.roles.${session.user.role}`)}</span>
        </dd>
        <dt>{t('account.signedOut')}</dt>
        <dd>{t('account.signedOutWhen')}</dd>
      </dl>
      <div className="panel-actions">
        <button type="button" className="btn" onClick={() => signOut().catch((err) => toast.error(err, t('app:signOutFailed')))}>
          {t('app:signOut')}
        </button>
      </div>
      <h3>{t('sessions.title')}</h3>
      {sessions.error ? <ErrorBanner error={sessions.error} onRetry={() => void sessions.refetch()} /> : null}
      <DataTable
        label={t('sessions.title')}
        className="compact"
        rows={sessions.data?.data ?? []}
        rowKey={(s) => s.id}
        columns={[
          {
            id: 'browser',
            header: t('sessions.browser'),
            cell: (s) => (
              <div className="cell-text wide" title={s.userAgent ?? undefined}>
                {browserName(s.userAgent)}
              </div>
            ),
          },
          { id: 'address', header: t('sessions.address'), cell: (s) => s.ip ?? '—' },
          { id: 'signed-in', header: t('sessions.signedIn'), className: 'date', cell: (s) => formatDateTime(s.createdAt) },
          { id: 'last-used', header: t('sessions.lastUsed'), className: 'date', cell: (s) => formatDateTime(s.lastSeenAt) },
          {
            id: 'actions',
            header: t('common:actions'),
            srOnlyHeader: true,
            className: 'num',
            cell: (s) =>
              s.current ? (
                <span className="status-pill ok">{t('sessions.thisBrowser')}</span>
              ) : (
                <button
                  type="button"
                  className="btn small"
                  onClick={() =>
                    revoke
                      .mutateAsync({ params: { id: s.id } })
                      .then(() => toast.show(t('sessions.revoked')))
                      .catch((err) => toast.error(err, t('sessions.revokeFailed')))
                  }
                >
                  {t('app:signOut')}
                </button>
              ),
          },
        ]}
      />
    </section>
  );
}

function browserName(ua: string | null): string {
  if (!ua) return i18n.t('settings:sessions.unknownBrowser');
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : ua.split(/[ /]/)[0] || i18n.t('settings:sessions.browser');
  const os = /Windows/.test(ua)
    ? 'Windows'
    : /Mac OS X/.test(ua)
      ? 'macOS'
      : /Android/.test(ua)
        ? 'Android'
        : /Linux/.test(ua)
          ? 'Linux'
          : '';
  return os ? i18n.t('settings:sessions.browserOn', { browser, os }) : browser;
}

const THEMES: ThemeChoice[] = ['system', 'light', 'dark'];

function AppearancePanel() {
  const { t } = useTranslation('settings');
  const { choice, set } = useTheme();
  return (
    <section className="panel" aria-labelledby="appearance-title">
      <h2 id="appearance-title">{t('appearance.title')}</h2>
      <fieldset className="theme-choice" aria-describedby="theme-hint">
        <legend>{t('appearance.theme')}</legend>
        <div className="segmented">
          {THEMES.map((id) => (
            <label key={id} className="segment">
              <input type="radio" name="theme" value={id} checked={choice === id} onChange={() => set(id)} />
              <span>{t(`appearance.themes.${id}`)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <p id="theme-hint" className="faint">
        {t('appearance.hint')}
      </p>
    </section>
  );
}

function DesktopConnectionPanel() {
  const { t } = useTranslation('settings');
  const { connection } = useConnection();
  const [storage, setStorage] = useState<string>('…');
  useEffect(() => {
    platform.desktop
      ?.keyStorage()
      .then((k) =>
        setStorage(
          k === 'os-keychain'
            ? t('desktop.keychain')
            : k === 'encrypted-file'
              ? t('desktop.encryptedFile')
              : t('desktop.sessionOnly'),
        ),
      );
  }, [t]);
  return (
    <section className="panel" aria-label={t('desktop.label')}>
      <h2>{t('desktop.title')}</h2>
      <p className="muted">{t('desktop.intro')}</p>
      <dl className="facts">
        <dt>{t('desktop.address')}</dt>
        <dd>{connection.baseUrl}</dd>
        <dt>{t('desktop.key')}</dt>
        <dd>…{connection.apiKey.slice(-4)}</dd>
        <dt>{t('desktop.keyStored')}</dt>
        <dd>{storage}</dd>
      </dl>
    </section>
  );
}
