/**
 * The app frame: navigation on the left, a top bar (notifications, who is signed in), the current screen, toasts.
 * The web build shows the sign-in form until someone is signed in (docs/decisions/0110); the desktop app is always
 * connected through its own key.
 */
import { useEffect, useRef } from 'react';
import { userRoutes } from '../src-shared/contract/users';
import { NotificationBell } from './components/NotificationBell';
import { useChangeStream } from './data/use-change-stream';
import { useRead } from './data/use-read';
import { setFormatPreferences } from './lib/format';
import { useRouter } from './lib/router';
import { platform } from './platform/current';
import { AboutScreen } from './screens/about/AboutScreen';
import { CustomersScreen } from './screens/customers/CustomersScreen';
import { NotBuiltYet } from './screens/placeholder/NotBuiltYet';
import { SCREENS } from './screens/registry';
import { SettingsScreen } from './screens/settings/SettingsScreen';
import { SignInScreen } from './screens/sign-in/SignInScreen';
import { SyncIndicator } from './screens/sync/SyncIndicator';
import { isConnected, useConnection } from './stores/connection';
import { useToasts } from './stores/toasts';

interface NavEntry {
  path: string;
  label: string;
  built: boolean;
  render: () => React.ReactNode;
}

const WORK: NavEntry[] = [
  { path: '/customers', label: 'Customers', built: true, render: () => <CustomersScreen /> },
  ...SCREENS,
  {
    path: '/invoices',
    label: 'Invoices',
    built: false,
    render: () => <NotBuiltYet title="Invoices" what="Drafting, sending and following up invoices." />,
  },
];

const SYSTEM: NavEntry[] = [
  { path: '/settings', label: 'Settings', built: true, render: () => <SettingsScreen /> },
  {
    path: '/team-settings',
    label: 'Team settings',
    built: false,
    render: () => (
      <NotBuiltYet title="Team settings" what="Team details, members, categories, rules, bank connections and sync settings." />
    ),
  },
  { path: '/about', label: 'Health and about', built: true, render: () => <AboutScreen /> },
];

function findEntry(path: string): NavEntry {
  const all = [...WORK, ...SYSTEM];
  return all.find((e) => path === e.path || path.startsWith(`${e.path}/`)) ?? WORK[0]!;
}

function NavItem({ entry, current }: { entry: NavEntry; current: boolean }) {
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
      <span>{entry.label}</span>
      {entry.built ? null : <span className="nav-badge">not built</span>}
    </a>
  );
}

function ConnectionStatus() {
  const { health, healthError, connection } = useConnection();
  const state = health ? 'ok' : healthError ? 'bad' : 'wait';
  const text = health ? 'Connected' : healthError ? 'Server unreachable' : 'Connecting…';
  return (
    <div className="sidebar-footer" title={connection.baseUrl}>
      <span className={`dot ${state}`} aria-hidden="true" />
      <span>{text}</span>
      <span className="sidebar-kind">{platform.kind === 'desktop' ? 'Desktop' : 'Web'}</span>
    </div>
  );
}

function UserMenu() {
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
        onClick={() => signOut().catch((err) => toast.error(err, 'Could not sign out'))}
      >
        Sign out
      </button>
    </div>
  );
}

function Toasts() {
  const { toasts, dismiss } = useToasts();
  const info = toasts.filter((t) => t.kind === 'info');
  const errors = toasts.filter((t) => t.kind === 'error');
  return (
    <div className="toast-stack">
      <div role="status" aria-live="polite" className="toast-group">
        {info.map((t) => (
          <div key={t.id} className="toast">
            <span>{t.text}</span>
            {t.action ? (
              <button
                type="button"
                className="toast-action"
                onClick={() => {
                  t.action?.run();
                  dismiss(t.id);
                }}
              >
                {t.action.label}
              </button>
            ) : null}
          </div>
        ))}
      </div>
      <div role="alert" aria-live="assertive" className="toast-group">
        {errors.map((t) => (
          <div key={t.id} className="toast error">
            <div>
              <strong>{t.text}</strong>
              {t.detail ? <small>{t.detail}</small> : null}
            </div>
            <button type="button" className="toast-close" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </div>
  );
}

/**
 * Applies the signed-in user's formatting preferences (`/v1/users/me`) and returns the key the current screen is
 * mounted under, or undefined while the first answer is awaited. Formatted text is everywhere (memoized rows,
 * chart ticks), so a preference that changes value remounts the screen; nothing else does. The screen waits for
 * the first answer rather than mounting with the browser's defaults and remounting when it comes: a remount throws
 * away what the screen holds, such as an import's preview or a half-filled form (docs/decisions/0111).
 */
function usePreferences(enabled: boolean): string | undefined {
  const me = useRead(userRoutes.me, undefined, { enabled });
  const user = me.data;
  const key = user
    ? `${user.locale} ${user.dateFormat} ${user.timezone} ${user.timeFormat}`
    : !enabled || me.failureCount > 0 // not signed in, or unanswered: the defaults, without waiting out retries
      ? 'defaults'
      : undefined;
  // Applied while rendering, so the screen mounted under this key renders with them (not one render later).
  const applied = useRef<string | undefined>(undefined);
  if (user && key !== applied.current) {
    setFormatPreferences({
      locale: user.locale,
      dateFormat: user.dateFormat,
      timezone: user.timezone,
      timeFormat: user.timeFormat,
    });
    applied.current = key;
  }
  return key;
}

export function App() {
  const path = useRouter((r) => r.path);
  const load = useConnection((s) => s.load);
  const connected = useConnection(isConnected);
  const sessionState = useConnection((s) => s.sessionState);
  const connectionKey = useConnection((s) => `${s.connection.baseUrl} ${s.connection.apiKey} ${s.session?.id ?? ''}`);
  const entry = findEntry(path);
  // Every screen's data stays current with the server's changes, whoever makes them.
  useChangeStream(connected, connectionKey);
  const screenKey = usePreferences(connected);

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    if (connected) document.title = `${entry.label} · Finops Desk`;
  }, [entry, connected]);

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
        Skip to content
      </a>
      <nav className="sidebar" aria-label="Main">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            F
          </span>
          Finops Desk
        </div>
        <div className="nav-section">Work</div>
        {WORK.map((e) => (
          <NavItem key={e.path} entry={e} current={e === entry} />
        ))}
        <div className="nav-section">System</div>
        {SYSTEM.map((e) => (
          <NavItem key={e.path} entry={e} current={e === entry} />
        ))}
        <ConnectionStatus />
      </nav>
      <div className="main-col">
        <header className="topbar">
          <span className="spacer" />
          <SyncIndicator enabled={connected} />
          <NotificationBell enabled={connected} />
          <UserMenu />
        </header>
        <main className="main" id="main" tabIndex={-1} key={screenKey} aria-busy={screenKey === undefined || undefined}>
          {screenKey === undefined ? null : entry.render()}
        </main>
      </div>
      <Toasts />
    </div>
  );
}
