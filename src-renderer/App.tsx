/**
 * The app frame: navigation on the left, a top bar (notifications, who is signed in), the current screen, toasts.
 * The web build shows the sign-in form until someone is signed in (docs/decisions/0110); the desktop app is always
 * connected through its own key. The frame applies the user's language and formats, and at the first sign-in asks
 * which formats to use.
 */
import { useEffect, useLayoutEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type User, userRoutes } from '../src-shared/contract/users';
import { NotificationBell } from './components/NotificationBell';
import { useChangeStream } from './data/use-change-stream';
import { useRead } from './data/use-read';
import { setLanguage } from './i18n';
import { DEFAULT_PREFERENCES, setFormatPreferences } from './lib/format';
import { useRouter } from './lib/router';
import { platform } from './platform/current';
import { AboutScreen } from './screens/about/AboutScreen';
import { CustomersScreen } from './screens/customers/CustomersScreen';
import { SCREENS } from './screens/registry';
import { SearchPalette } from './screens/search/SearchPalette';
import { FormatsQuestion } from './screens/settings/FormatsQuestion';
import { hasChosenFormats } from './screens/settings/formats';
import { SettingsScreen } from './screens/settings/SettingsScreen';
import { TeamSettingsScreen } from './screens/settings/TeamSettingsScreen';
import { SignInScreen } from './screens/sign-in/SignInScreen';
import { SyncIndicator } from './screens/sync/SyncIndicator';
import { TimerControl } from './screens/time/TimerControl';
import { isConnected, useConnection } from './stores/connection';
import { useNumberFormat } from './stores/number-format';
import { useToasts } from './stores/toasts';

interface NavEntry {
  path: string;
  titleKey: string;
  built: boolean;
  render: () => React.ReactNode;
}

const WORK: NavEntry[] = [
  { path: '/customers', titleKey: 'customers:title', built: true, render: () => <CustomersScreen /> },
  ...SCREENS,
];

const SYSTEM: NavEntry[] = [
  { path: '/settings', titleKey: 'settings:title', built: true, render: () => <SettingsScreen /> },
  { path: '/team-settings', titleKey: 'team:title', built: true, render: () => <TeamSettingsScreen /> },
  { path: '/about', titleKey: 'about:title', built: true, render: () => <AboutScreen /> },
];

function findEntry(path: string): NavEntry {
  const all = [...WORK, ...SYSTEM];
  return all.find((e) => path === e.path || path.startsWith(`${e.path}/`)) ?? WORK[0]!;
}

function NavItem({ entry, current }: { entry: NavEntry; current: boolean }) {
  const { t } = useTranslation('app');
  const navigate = useRouter((r) => r.navigate);
  return (
    <a
      href={entry.path}
      className="nav-item"
      aria-current={current ? 'page' : undefined}
      onClick={(e) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        navigate(entry.path);
      }}
    >
      <span>{t(entry.titleKey)}</span>
      {entry.built ? null : <span className="nav-badge">{t('nav.notBuilt')}</span>}
    </a>
  );
}

function ConnectionStatus() {
  const { t } = useTranslation('app');
  const { health, healthError, connection } = useConnection();
  const state = health ? 'ok' : healthError ? 'bad' : 'wait';
  const text = t(`connection.${state}`);
  return (
    <div className="sidebar-footer" title={connection.baseUrl}>
      <span className={`dot ${state}`} aria-hidden="true" />
      <span>{text}</span>
      <span className="sidebar-kind">{t(`connection.${platform.kind}`)}</span>
    </div>
  );
}

function UserMenu() {
  const { t } = useTranslation('app');
  const session = useConnection((s) => s.session);
  const signOut = useConnection((s) => s.signOut);
  const toast = useToasts();
  if (!session) return null;
  return (
    <div className="user-menu">
      <span className="user-name" title={session.user.email}>
        {session.user.fullName}
        <span className="faint"> · {session.team.name}</span>
      </span>
      <button
        type="button"
        className="btn ghost small"
        onClick={() => signOut().catch((err) => toast.error(err, t('signOutFailed')))}
      >
        {t('signOut')}
      </button>
    </div>
  );
}

function Toasts() {
  const { t } = useTranslation('app');
  const { toasts, dismiss } = useToasts();
  const info = toasts.filter((t) => t.kind === 'info');
  const errors = toasts.filter((t) => t.kind === 'error');
  return (
    <div className="toast-stack">
      <div role="status" aria-live="polite" className="toast-group">
        {info.map((toast) => (
          <div key={toast.id} className="toast">
            <span>{toast.text}</span>
            {toast.action ? (
              <button
                type="button"
                className="toast-action"
                onClick={() => {
                  toast.action?.run();
                  dismiss(toast.id);
                }}
              >
                {toast.action.label}
              </button>
            ) : null}
          </div>
        ))}
      </div>
      <div role="alert" aria-live="assertive" className="toast-group">
        {errors.map((toast) => (
          <div key={toast.id} className="toast error">
            <div>
              <strong>{toast.text}</strong>
              {toast.detail ? <small>{toast.detail}</small> : null}
            </div>
            <button type="button" className="toast-close" aria-label={t('dismiss')} onClick={() => dismiss(toast.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </div>
  );
}

/**
 * Applies the signed-in user's language and formatting preferences (`/v1/users/me`, and the number format of this
 * browser) and returns the key the current screen is mounted under, or undefined until they are applied.
 * Formatted text is everywhere (memoized rows, chart ticks), so a preference that changes value remounts the
 * screen; nothing else does. The screen waits for the first answer rather than mounting with the browser's
 * defaults and remounting when it comes: a remount throws away what the screen holds, such as an import's preview
 * or a half-filled form (docs/decisions/0111). They are applied in a layout effect, before the screen mounts and
 * before anything is painted: a language change re-renders every translated component, which must not happen
 * while the frame itself renders.
 */
function usePreferences(enabled: boolean): { key: string | undefined; user: User | undefined } {
  const me = useRead(userRoutes.me, undefined, { enabled });
  const numberFormat = useNumberFormat((s) => s.choice);
  const user = me.data;
  const key = user
    ? `${user.locale} ${user.dateFormat} ${user.timezone} ${user.timeFormat} ${numberFormat}`
    : !enabled || me.failureCount > 0 // not signed in, or unanswered: the defaults, without waiting out retries
      ? `defaults ${numberFormat}`
      : undefined;
  const [applied, setApplied] = useState<string | undefined>(undefined);
  useLayoutEffect(() => {
    if (key === undefined || key === applied) return;
    // A user who never chose has the server's default locale ("en"), which is nobody's choice: the browser's
    // language and number conventions serve until they answer the question (FormatsQuestion).
    const locale = user && hasChosenFormats(user) ? user.locale : DEFAULT_PREFERENCES.locale;
    setFormatPreferences(
      user
        ? { locale, dateFormat: user.dateFormat, timezone: user.timezone, timeFormat: user.timeFormat, numberFormat }
        : { numberFormat },
    );
    void setLanguage(locale);
    setApplied(key);
  }, [key, applied, user, numberFormat]);
  return { key: key === applied ? key : undefined, user };
}

export function App() {
  const { t } = useTranslation('app');
  const path = useRouter((r) => r.path);
  const load = useConnection((s) => s.load);
  const connected = useConnection(isConnected);
  const sessionState = useConnection((s) => s.sessionState);
  const connectionKey = useConnection((s) => `${s.connection.baseUrl} ${s.connection.apiKey} ${s.session?.id ?? ''}`);
  const entry = findEntry(path);
  // Every screen's data stays current with the server's changes, whoever makes them.
  useChangeStream(connected, connectionKey);
  const { key: screenKey, user } = usePreferences(connected);

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    if (connected) document.title = `${t(entry.titleKey)} · Finops Desk`;
  }, [entry, connected, t]);

  if (platform.auth === 'session' && sessionState !== 'signed-in') {
    return (
      <>
        {sessionState === 'checking' ? <div className="signin-page" aria-busy="true" /> : <SignInScreen />}
        <Toasts />
      </>
    );
  }

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        {t('skip')}
      </a>
      <nav className="sidebar" aria-label={t('mainNav')}>
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            F
          </span>
          Finops Desk
        </div>
        <div className="nav-section">{t('nav.work')}</div>
        {WORK.map((e) => (
          <NavItem key={e.path} entry={e} current={e === entry} />
        ))}
        <div className="nav-section">{t('nav.system')}</div>
        {SYSTEM.map((e) => (
          <NavItem key={e.path} entry={e} current={e === entry} />
        ))}
        <ConnectionStatus />
      </nav>
      <div className="main-col">
        <header className="topbar">
          <SearchPalette enabled={connected} />
          <span className="spacer" />
          <TimerControl enabled={connected} />
          <SyncIndicator enabled={connected} />
          <NotificationBell enabled={connected} />
          <UserMenu />
        </header>
        <main className="main" id="main" tabIndex={-1} key={screenKey} aria-busy={screenKey === undefined || undefined}>
          {screenKey === undefined ? null : entry.render()}
        </main>
      </div>
      {user && screenKey !== undefined ? <FormatsQuestion user={user} /> : null}
      <Toasts />
    </div>
  );
}
