/**
 * Settings. Web build: who is signed in, the browser sessions of this account (each can be signed out), sign-out.
 * Desktop build: the local server and key, managed by the app, shown read-only. Both: the theme. Team, category,
 * rule and sync settings are not built yet and are listed as such.
 */
import { useEffect, useState } from 'react';
import { appSessionRoutes } from '../../../src-shared/contract/app-session';
import { DataTable } from '../../components/table/DataTable';
import { ErrorBanner } from '../../components/ui';
import { useRead } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { formatDateTime } from '../../lib/format';
import { platform } from '../../platform/current';
import { useConnection } from '../../stores/connection';
import { type ThemeChoice, useTheme } from '../../stores/theme';
import { useToasts } from '../../stores/toasts';

export function SettingsScreen() {
  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>Settings</h1>
          <p>Your account, this window’s connection and how the app looks.</p>
        </div>
      </header>
      {platform.kind === 'desktop' ? <DesktopConnectionPanel /> : <AccountPanel />}
      <AppearancePanel />
      <section className="panel placeholder" aria-label="More settings (not built yet)">
        <span className="tagline">Not built yet</span>
        <p>Team, categories, rules, bank connections and sync settings come in a later release.</p>
      </section>
    </div>
  );
}

function AccountPanel() {
  const session = useConnection((s) => s.session);
  const signOut = useConnection((s) => s.signOut);
  const sessions = useRead(appSessionRoutes.list);
  const revoke = useWrite(appSessionRoutes.revoke);
  const toast = useToasts();
  if (!session) return null;
  return (
    <section className="panel" aria-labelledby="account-title">
      <h2 id="account-title">Account</h2>
      <dl className="facts">
        <dt>Signed in as</dt>
        <dd>
          {session.user.fullName} ({session.user.email})
        </dd>
        <dt>Team</dt>
        <dd>
          {session.team.name} <span className="faint">· {session.user.role}</span>
        </dd>
        <dt>Signed out</dt>
        <dd>after 12 hours without use, and 7 days after signing in at the latest</dd>
      </dl>
      <div className="panel-actions">
        <button type="button" className="btn" onClick={() => signOut().catch((err) => toast.error(err, 'Could not sign out'))}>
          Sign out
        </button>
      </div>
      <h3>Signed-in browsers</h3>
      {sessions.error ? <ErrorBanner error={sessions.error} onRetry={() => void sessions.refetch()} /> : null}
      <DataTable
        label="Signed-in browsers"
        className="compact"
        rows={sessions.data?.data ?? []}
        rowKey={(s) => s.id}
        columns={[
          {
            id: 'browser',
            header: 'Browser',
            cell: (s) => (
              <div className="cell-text wide" title={s.userAgent ?? undefined}>
                {browserName(s.userAgent)}
              </div>
            ),
          },
          { id: 'address', header: 'Address', cell: (s) => s.ip ?? '—' },
          { id: 'signed-in', header: 'Signed in', className: 'date', cell: (s) => formatDateTime(s.createdAt) },
          { id: 'last-used', header: 'Last used', className: 'date', cell: (s) => formatDateTime(s.lastSeenAt) },
          {
            id: 'actions',
            header: 'Actions',
            srOnlyHeader: true,
            className: 'num',
            cell: (s) =>
              s.current ? (
                <span className="status-pill ok">This browser</span>
              ) : (
                <button
                  type="button"
                  className="btn small"
                  onClick={() =>
                    revoke
                      .mutateAsync({ params: { id: s.id } })
                      .then(() => toast.show('That browser is signed out'))
                      .catch((err) => toast.error(err, 'Could not sign that browser out'))
                  }
                >
                  Sign out
                </button>
              ),
          },
        ]}
      />
    </section>
  );
}

function browserName(ua: string | null): string {
  if (!ua) return 'Unknown browser';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : ua.split(/[ /]/)[0] || 'Browser';
  const os = /Windows/.test(ua)
    ? 'Windows'
    : /Mac OS X/.test(ua)
      ? 'macOS'
      : /Android/.test(ua)
        ? 'Android'
        : /Linux/.test(ua)
          ? 'Linux'
          : '';
  return os ? `${browser} on ${os}` : browser;
}

const THEMES: { id: ThemeChoice; label: string }[] = [
  { id: 'system', label: 'System' },
  { id: 'light', label: 'Light' },
  { id: 'dark', label: 'Dark' },
];

function AppearancePanel() {
  const { choice, set } = useTheme();
  return (
    <section className="panel" aria-labelledby="appearance-title">
      <h2 id="appearance-title">Appearance</h2>
      <fieldset className="theme-choice" aria-describedby="theme-hint">
        <legend>Theme</legend>
        <div className="segmented">
          {THEMES.map((t) => (
            <label key={t.id} className="segment">
              <input type="radio" name="theme" value={t.id} checked={choice === t.id} onChange={() => set(t.id)} />
              <span>{t.label}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <p id="theme-hint" className="faint">
        System follows your computer’s light or dark setting. Kept in this browser.
      </p>
    </section>
  );
}

function DesktopConnectionPanel() {
  const { connection } = useConnection();
  const [storage, setStorage] = useState<string>('…');
  useEffect(() => {
    platform.desktop
      ?.keyStorage()
      .then((k) =>
        setStorage(
          k === 'os-keychain'
            ? 'OS keychain'
            : k === 'encrypted-file'
              ? 'Encrypted by the OS, in the app folder (no keychain available)'
              : 'This session only (no keychain available)',
        ),
      );
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
