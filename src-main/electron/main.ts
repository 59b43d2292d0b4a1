/**
 * The Electron main process: a thin shell. It owns the window, the secret store and the server host's lifetime,
 * and relays; the decisions sit in plain modules under src-main/desktop/ (tested in Node, without Electron):
 * supervisor.ts (start, restart policy, stop), server-host.ts (the utility process), desktop-key.ts (per-install
 * API key), secret-store.ts / encrypted-file-store.ts / secret-relay.ts (keychain, safeStorage file, sync
 * credentials for the host), url-policy.ts (navigation / IPC), external-links.ts (what opens outside the app),
 * shell-page.ts (what the window shows when the app cannot be), window-state.ts, app-menu.ts, update-check.ts,
 * log-file.ts, preferred-port.ts, private-hosts.ts (the private addresses the user allows, set in Settings).
 * docs/decisions/0040, 0042–0044, 0191.
 *
 * The window loads the UI from the local server itself (same origin as the API: no CORS, and the server's CSP
 * header applies). In development (`electron-vite dev`) it loads the renderer dev server instead, which proxies
 * `/v1` to the local server on a fixed port (FINOPS_DEV_API_PORT, see electron.vite.config.ts).
 *
 * Order of things: the window opens at once on the shell page ("Starting…"), the secret store is opened, the
 * server host started; the app is shown when the host is ready, the shell page again whenever it is not. Quitting
 * stops the host cleanly (its database checkpointed and closed) before the app exits.
 */
import path from 'node:path';
import { app, dialog, Menu, session, shell } from 'electron';
import { IPC, type ServerStatus } from '../../src-shared/desktop-bridge';
import { appMenuTemplate } from '../desktop/app-menu';
import { LOG_FILE_NAME, LogFile } from '../desktop/log-file';
import { preferredPort } from '../desktop/preferred-port';
import { PRIVATE_HOSTS_FILE, PrivateHostsSetting } from '../desktop/private-hosts';
import type { ProgressEvent, ReadyEvent } from '../desktop/protocol';
import type { ShellAction } from '../desktop/shell-page';
import { ServerSupervisor } from '../desktop/supervisor';
import { checkForUpdate, packagedUpdateFeed, readUpdateSettings, SETTINGS_FILE, type UpdateCheck } from '../desktop/update-check';
import { isAppUrl } from '../desktop/url-policy';
import { WINDOW_STATE_FILE } from '../desktop/window-state';
import { type SecretStore, secretAccounts } from '../infra/secret-store';
import { defaultAppDir, defaultDataDir, PRODUCT_NAME } from '../paths';
import { openExternalFor } from './external';
import { registerIpc } from './ipc';
import { openShellSecrets } from './secrets';
import { hardenSession } from './session';
import { utilityProcessLauncher } from './utility-launcher';
import { AppWindow } from './window';

app.setName(PRODUCT_NAME);
const appDir = defaultAppDir();
app.setPath('userData', appDir);
const dataDir = defaultDataDir();
const log = new LogFile(path.join(appDir, 'logs', LOG_FILE_NAME));
const say = (message: string) => log.write('shell', message);
const privateHosts = new PrivateHostsSetting(path.join(appDir, PRIVATE_HOSTS_FILE));
for (const { message } of privateHosts.ignoredAtLoad) say(`${PRIVATE_HOSTS_FILE}: left out ${message}`);

const devRendererUrl = process.env.ELECTRON_RENDERER_URL ?? null;
export const DEV_API_PORT = Number(process.env.FINOPS_DEV_API_PORT ?? 41999);
const developer = !app.isPackaged;

let window: AppWindow | null = null;
let supervisor: ServerSupervisor | null = null;
let secrets: SecretStore | null = null;
let current: ReadyEvent | null = null;
/** Why the window's page itself failed (cleared when the server starts afresh or the person reloads). */
let pageProblem: string | null = null;
/** Set when the shell could not even start the server (the shell page says why). */
let startupFailure: string | null = null;
/** What the starting server last reported (a migration step…) and where it backed up: for the shell page. */
let progress: ProgressEvent | null = null;
let backupPath: string | null = null;
let newerVersion: (Extract<UpdateCheck, { state: 'newer' }> & { feedUrl: string }) | null = null;
let quitting = false;

// Saved in Settings: the running host applies it now; a host started later gets it in its start message.
privateHosts.onChange((entries) => {
  say(`private hosts allowed: ${entries.length === 0 ? 'none' : entries.join(', ')}`);
  supervisor?.setPrivateHosts(entries);
});

process.on('uncaughtException', (err) => say(`uncaught exception: ${err.stack ?? err.message}`));
process.on('unhandledRejection', (reason) => say(`unhandled rejection: ${(reason as Error)?.stack ?? String(reason)}`));

function appOrigins(): string[] {
  return [current?.url, devRendererUrl].filter((o): o is string => Boolean(o));
}

function uiUrl(): string {
  return devRendererUrl ?? `${current?.url}/`;
}

function serverStatus(): ServerStatus {
  if (startupFailure) return { state: 'failed', reason: startupFailure };
  return supervisor?.status ?? { state: 'starting', attempt: 1 };
}

/** Shows what the window should show now: the app when the server is ready, else the shell's own page. */
function render(): void {
  if (!window?.alive || quitting) return;
  const status = serverStatus();
  if (status.state === 'ready' && current && !pageProblem) window.showUi(uiUrl());
  else
    window.showShellPage({
      productName: PRODUCT_NAME,
      status,
      logFile: log.file,
      dataDir,
      ...(pageProblem ? { pageProblem } : {}),
      progress,
      backupPath,
    });
}

function openWindow(): void {
  window = new AppWindow({
    // out/main/index.js → out/preload/index.js and <app root>/resources/icon.png (shipped beside the code).
    preload: path.join(__dirname, '../preload/index.js'),
    icon: path.join(__dirname, '../../resources/icon.png'),
    stateFile: path.join(appDir, WINDOW_STATE_FILE),
    developer,
    appOrigins,
    onShellAction,
    onPageProblem: (problem) => {
      say(problem);
      pageProblem = problem;
      render();
    },
    onClosed: () => {
      window = null;
    },
    log: say,
  });
  render();
}

function restartServer(): void {
  startupFailure = null;
  pageProblem = null;
  render();
  // Without a supervisor the start itself failed (the shell page said why): try the whole start again.
  if (!supervisor) startServer().catch(failedToStart);
  else supervisor.restart().catch((err: Error) => say(`restart failed: ${err.message}`));
}

function openLogFolder(): void {
  void shell.openPath(path.dirname(log.file));
}

function onShellAction(action: ShellAction): void {
  if (action === 'restart-server') restartServer();
  else if (action === 'open-log-folder') openLogFolder();
  else {
    pageProblem = null;
    render();
  }
}

function setMenu(): void {
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      appMenuTemplate({
        platform: process.platform,
        productName: PRODUCT_NAME,
        developer,
        actions: {
          openLogFolder,
          restartServer,
          checkForUpdates: () => void checkUpdates(true),
          ...(newerVersion ? { openUpdate: { version: newerVersion.version, open: openDownload } } : {}),
        },
      }),
    ),
  );
}

function openDownload(): void {
  if (newerVersion) openExternalFor(newerVersion.downloadUrl, { for: 'update', feedUrl: newerVersion.feedUrl }, say);
}

/** One update check; `byPerson` (the menu) answers in a dialog, the automatic one only logs and fills the menu. */
async function checkUpdates(byPerson: boolean): Promise<void> {
  const { feedUrl } = readUpdateSettings(path.join(appDir, SETTINGS_FILE), process.env, packagedUpdateFeed(app.getAppPath()));
  if (!feedUrl) {
    if (byPerson) void dialog.showMessageBox({ message: 'This build has no update channel.', detail: `Settings: ${appDir}` });
    return;
  }
  const result = await checkForUpdate({
    feedUrl,
    currentVersion: app.getVersion(),
    platform: process.platform,
    arch: process.arch,
  });
  say(`update check: ${JSON.stringify(result)}`);
  if (result.state === 'newer') {
    newerVersion = { ...result, feedUrl };
    setMenu();
  }
  if (!byPerson) return;
  const message =
    result.state === 'newer'
      ? `Version ${result.version} is available.`
      : result.state === 'current'
        ? `${PRODUCT_NAME} ${result.version} is the latest version.`
        : `Could not check for updates: ${result.reason}`;
  const buttons = result.state === 'newer' ? ['Download', 'Later'] : ['OK'];
  const { response } = await dialog.showMessageBox({ message, buttons });
  if (result.state === 'newer' && response === 0) openDownload();
}

function scheduleUpdateCheck(): void {
  const settings = readUpdateSettings(path.join(appDir, SETTINGS_FILE), process.env, packagedUpdateFeed(app.getAppPath()));
  if (!settings.check || !settings.feedUrl) return;
  // Well after start, and never awaited: a slow or absent network must not touch the app.
  setTimeout(() => void checkUpdates(false).catch((err: Error) => say(`update check: ${err.message}`)), 15_000).unref();
}

async function startServer(): Promise<void> {
  const opened = await openShellSecrets(appDir);
  secrets = opened.store;
  if (opened.fallbackReason) say(`${opened.fallbackReason}; secrets are kept ${opened.store.kind}`);
  const account = secretAccounts.localApiKey(dataDir);
  const initialApiKey = await secrets.get(account).catch((err: Error) => {
    say(`the stored local key could not be read (a new one is made): ${err.message}`);
    return null;
  });
  supervisor = new ServerSupervisor({
    launch: utilityProcessLauncher(path.join(__dirname, 'server-host.js'), log),
    dataDir,
    port: devRendererUrl ? DEV_API_PORT : preferredPort(dataDir),
    webRoot: devRendererUrl ? null : path.join(__dirname, '../renderer'),
    initialApiKey,
    secrets,
    allowPrivateHosts: privateHosts.entries,
  });
  supervisor.onStatus((status) => {
    say(`server: ${JSON.stringify(status)}`);
    // Every (re)start reports afresh; the backup of an earlier attempt stays worth naming.
    progress = null;
    window?.send(IPC.serverStatus, status);
    // A ready host is shown by onReady, which knows its (possibly new) address.
    if (status.state !== 'ready') render();
  });
  supervisor.onProgress((p) => {
    say(`server: ${p.message}`);
    progress = p;
    if (p.path) backupPath = p.path;
    render();
  });
  supervisor.onReady((ready) => {
    current = ready;
    pageProblem = null;
    if (ready.keyCreated) secrets?.set(account, ready.apiKey).catch((err: Error) => say(`keychain: ${err.message}`));
    render();
  });
  // A start that gives up is on the shell page already (the status says why); nothing more to do here.
  await supervisor.start().catch((err: Error) => say(`the local server could not start: ${err.message}`));
}

async function main(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  app.on('second-instance', () => {
    if (!app.isReady()) return;
    if (window?.alive) window.focus();
    else openWindow();
  });
  await app.whenReady();
  say(`${PRODUCT_NAME} ${app.getVersion()} starting; data ${dataDir}`);
  setMenu();
  hardenSession(session.defaultSession, (url) => isAppUrl(url, appOrigins()), !devRendererUrl);
  registerIpc({
    appOrigins,
    supervisor: () => supervisor,
    secrets: () => secrets,
    privateHosts,
    rendererBaseUrl: (serverUrl) => (devRendererUrl ? new URL(devRendererUrl).origin : serverUrl),
    dataDir,
    log: say,
  });
  openWindow();
  app.on('activate', () => {
    if (!window?.alive) openWindow();
  });
  scheduleUpdateCheck();
  await startServer();
}

app.on('before-quit', (event) => {
  if (quitting || !supervisor) return;
  event.preventDefault();
  quitting = true;
  say('quitting: stopping the local server');
  void supervisor.stop().finally(() => {
    say('the local server stopped; bye');
    app.quit();
  });
});
app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

/** A failure before the server could even be supervised (the keychain, the window): shown, never unhandled. */
function failedToStart(err: Error): void {
  startupFailure = `${PRODUCT_NAME} could not start: ${err.message}`;
  say(`${startupFailure}\n${err.stack ?? ''}`);
  try {
    if (!window?.alive) throw new Error('no window');
    render();
  } catch {
    dialog.showErrorBox(`${PRODUCT_NAME} could not start`, `${err.message}\n\nLog: ${log.file}`);
  }
}

main().catch(failedToStart);
