/**
 * The shell's own page, shown in the window whenever the app itself cannot be (docs/decisions/0044-desktop-lifecycle.md):
 * the local server is starting, restarting, stopped or given up, or the window's page failed to load or crashed.
 * Instead of Chromium's connection error it says what is happening, offers to restart the server (or reload), and
 * says where the log is.
 *
 * The page is a `data:` URL without any script (its CSP allows none): its buttons are links to
 * `SHELL_ACTION_ORIGIN`, a reserved `.invalid` name that no DNS answers, which the shell intercepts in
 * `will-navigate` (`shellActionOf`) — so the page needs no IPC and the IPC trust rules stay as they are; a link
 * that somehow escaped would only fail to resolve.
 */
import type { ServerStatus } from '../../src-shared/desktop-bridge';
import type { ProgressEvent } from './protocol';

export const SHELL_ACTION_ORIGIN = 'http://finops-shell.invalid';

export type ShellAction = 'restart-server' | 'open-log-folder' | 'reload';
const ACTIONS: readonly ShellAction[] = ['restart-server', 'open-log-folder', 'reload'];

export function shellActionOf(url: string): ShellAction | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.origin !== SHELL_ACTION_ORIGIN) return null;
  const action = u.pathname.slice(1);
  return (ACTIONS as readonly string[]).includes(action) ? (action as ShellAction) : null;
}

export interface ShellPageFacts {
  productName: string;
  status: ServerStatus;
  logFile: string;
  dataDir: string;
  /** The window's page itself failed (did not load, or its process ended) while the server may be fine. */
  pageProblem?: string;
  /** What the starting server last said it is doing (opening the database, a migration step). */
  progress?: ProgressEvent | null;
  /** Where this start backed the database up before migrating it. */
  backupPath?: string | null;
}

/** While starting: what opening the database is doing, when it has said so; null for the plain "Starting…". */
function startingStep(facts: ShellPageFacts): { title: string; detail: string | null } | null {
  const p = facts.progress;
  if (!p) return null;
  const backedUp = facts.backupPath ? `The database was backed up first, to ${facts.backupPath}.` : null;
  switch (p.phase) {
    case 'opening':
    case 'checking':
      return { title: 'Checking the database…', detail: null };
    case 'backup':
      return { title: 'Updating the database…', detail: backedUp };
    case 'migration': {
      const lines = ['This can take several minutes on a large database; the app opens when it is done.'];
      if (backedUp) lines.push(backedUp);
      return { title: `Updating the database (${p.step} of ${p.steps})…`, detail: lines.join('\n') };
    }
    case 'migrated':
    case 'listening':
      return null;
  }
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

function headline(facts: ShellPageFacts): { title: string; detail: string | null; actions: ShellAction[] } {
  const s = facts.status;
  if (facts.pageProblem && s.state === 'ready') {
    return { title: 'The window could not show the app', detail: facts.pageProblem, actions: ['reload', 'restart-server'] };
  }
  switch (s.state) {
    case 'starting': {
      const step = startingStep(facts);
      if (step) return { ...step, actions: [] };
      return {
        title: s.attempt > 1 ? `Starting the local server again (attempt ${s.attempt})…` : 'Starting the local server…',
        detail: null,
        actions: [],
      };
    }
    case 'restarting':
      return {
        title: `The local server stopped; it restarts in ${Math.max(1, Math.round(s.inMs / 1000))} s`,
        detail: s.reason,
        actions: ['restart-server'],
      };
    case 'failed':
      return { title: 'The local server could not be kept running', detail: s.reason, actions: ['restart-server'] };
    case 'stopped':
      return { title: 'The local server is stopped', detail: null, actions: ['restart-server'] };
    case 'ready':
      return { title: 'Opening…', detail: null, actions: [] };
  }
}

const LABELS: Record<ShellAction, string> = {
  'restart-server': 'Restart the server',
  'open-log-folder': 'Open the log folder',
  reload: 'Reload the window',
};

const STYLE = `
:root{color-scheme:light dark;font-family:system-ui,-apple-system,"Segoe UI",sans-serif;background:#f6f7f9;color:#1d2430}
@media (prefers-color-scheme:dark){:root{background:#161a20;color:#e6e9ee}.muted{color:#9aa4b2}a.button{background:#2b6f7e}}
body{max-width:40rem;margin:15vh auto;padding:0 1.5rem;line-height:1.5}
h1{font-size:1.35rem;font-weight:600}.muted{color:#5b6675;font-size:.9rem}
code{word-break:break-all}p.detail{white-space:pre-wrap}
a.button{display:inline-block;margin:.5rem .5rem 0 0;padding:.5rem 1rem;border-radius:6px;background:#1b5b69;color:#fff;text-decoration:none}
a.secondary{background:transparent;color:inherit;border:1px solid currentColor}`;

export function shellPageHtml(facts: ShellPageFacts): string {
  const { title, detail, actions } = headline(facts);
  const buttons = [...actions, 'open-log-folder' as const]
    .map(
      (a, i) =>
        `<a class="button${i === 0 && a !== 'open-log-folder' ? '' : ' secondary'}" href="${SHELL_ACTION_ORIGIN}/${a}">${LABELS[a]}</a>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${escapeHtml(facts.productName)}</title><style>${STYLE}</style></head><body>
<h1>${escapeHtml(title)}</h1>
${detail ? `<p class="detail">${escapeHtml(detail)}</p>` : ''}
<p>${buttons}</p>
<p class="muted">Log: <code>${escapeHtml(facts.logFile)}</code><br>Data: <code>${escapeHtml(facts.dataDir)}</code></p>
</body></html>`;
}

export function shellPageUrl(facts: ShellPageFacts): string {
  return `data:text/html;charset=utf-8;base64,${Buffer.from(shellPageHtml(facts), 'utf8').toString('base64')}`;
}

/** Chromium's "the navigation was replaced" code: not a failure worth a page. */
const ERR_ABORTED = -3;

/** Should a `did-fail-load` replace the window's content with the shell page? */
export function loadFailureNeedsPage(errorCode: number, isMainFrame: boolean, url: string): boolean {
  return isMainFrame && errorCode !== ERR_ABORTED && !url.startsWith('data:');
}
