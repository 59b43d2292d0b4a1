/** The app frame: navigation on the left, the current screen on the right, toasts on top. */
import { useEffect } from 'react';
import { useChangeStream } from './data/use-change-stream';
import { useRouter } from './lib/router';
import { platform } from './platform/current';
import { AboutScreen } from './screens/about/AboutScreen';
import { CustomersScreen } from './screens/customers/CustomersScreen';
import { NotBuiltYet } from './screens/placeholder/NotBuiltYet';
import { SettingsScreen } from './screens/settings/SettingsScreen';
import { hasApiKey, useConnection } from './stores/connection';
import { useToasts } from './stores/toasts';

interface NavEntry {
  path: string;
  label: string;
  built: boolean;
  render: () => React.ReactNode;
}

const WORK: NavEntry[] = [
  { path: '/customers', label: 'Customers', built: true, render: () => <CustomersScreen /> },
  {
    path: '/transactions',
    label: 'Transactions',
    built: false,
    render: () => <NotBuiltYet title="Transactions" what="Bank and card transactions with categories, tags and attachments." />,
  },
  {
    path: '/runway',
    label: 'Runway',
    built: false,
    render: () => <NotBuiltYet title="Runway" what="Cash runway, cash-flow and revenue forecasts and stress tests." />,
  },
  {
    path: '/workflows',
    label: 'Workflows',
    built: false,
    render: () => <NotBuiltYet title="Workflows" what="Starting published workflows and following their runs." />,
  },
  {
    path: '/sync',
    label: 'Sync',
    built: false,
    render: () => <NotBuiltYet title="Sync" what="Synchronising this data with a remote Finops server." />,
  },
];

const SYSTEM: NavEntry[] = [
  { path: '/settings', label: 'Settings', built: true, render: () => <SettingsScreen /> },
  { path: '/about', label: 'Health and about', built: true, render: () => <AboutScreen /> },
];

function findEntry(path: string): NavEntry {
  const all = [...WORK, ...SYSTEM];
  return all.find((e) => path === e.path || path.startsWith(`${e.path}/`)) ?? WORK[0]!;
}

function NavItem({ entry, current }: { entry: NavEntry; current: boolean }) {
  const navigate = useRouter((r) => r.navigate);
  return (
    <button type="button" className="nav-item" aria-current={current ? 'page' : undefined} onClick={() => navigate(entry.path)}>
      <span>{entry.label}</span>
      {entry.built ? null : <span className="nav-badge">not built</span>}
    </button>
  );
}

function ConnectionStatus() {
  const { health, healthError, connection } = useConnection();
  const state = health ? 'ok' : healthError ? 'bad' : 'wait';
  const text = health
    ? connection.apiKey
      ? 'Connected'
      : 'Server up, no API key'
    : healthError
      ? 'Server unreachable'
      : 'Connecting…';
  return (
    <div className="sidebar-footer" title={connection.baseUrl}>
      <span className={`dot ${state}`} aria-hidden="true" />
      <span>{text}</span>
      <span className="sidebar-kind">{platform.kind === 'desktop' ? 'Desktop' : 'Web'}</span>
    </div>
  );
}

export function App() {
  const path = useRouter((r) => r.path);
  const load = useConnection((s) => s.load);
  const connected = useConnection(hasApiKey);
  const connectionKey = useConnection((s) => `${s.connection.baseUrl} ${s.connection.apiKey}`);
  const toasts = useToasts((s) => s.toasts);
  const entry = findEntry(path);
  // Every screen's data stays current with the server's changes, whoever makes them.
  useChangeStream(connected, connectionKey);

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    document.title = `${entry.label} · Finops Desk`;
  }, [entry]);

  return (
    <div className="shell">
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
      <main className="main">{entry.render()}</main>
      <div className="toast-stack" role="status" aria-live="polite">
        {toasts.map((t) => (
          <div key={t.id} className="toast">
            {t.text}
          </div>
        ))}
      </div>
    </div>
  );
}
