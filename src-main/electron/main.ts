/**
 * The Electron main process: a thin shell. It owns the window, the keychain and the server host's lifetime, and
 * relays; all logic sits in plain modules under src-main/desktop/ (tested in Node, without Electron):
 * supervisor.ts (start, restart policy, stop), server-host.ts (the utility process), desktop-key.ts (per-install
 * API key), secret-store.ts (keychain), url-policy.ts (navigation / IPC / external-link decisions).
 *
 * The window loads the UI from the local server itself (same origin as the API: no CORS, and the server's CSP
 * header applies). In development (`electron-vite dev`) it loads the renderer dev server instead, which proxies
 * `/v1` to the local server on a fixed port (FINOPS_DEV_API_PORT, see electron.vite.config.ts).
 */
import path from 'node:path';
import { app, BrowserWindow, dialog, type IpcMainInvokeEvent, ipcMain, session, shell } from 'electron';
import { UI_CONTENT_SECURITY_POLICY } from '../../src-shared/csp';
import { type DesktopAppInfo, type DesktopConnection, IPC } from '../../src-shared/desktop-bridge';
import type { ReadyEvent } from '../desktop/protocol';
import { openSecretStore, type SecretStore, secretAccounts } from '../desktop/secret-store';
import { ServerSupervisor } from '../desktop/supervisor';
import { isAppUrl, isSafeExternalUrl } from '../desktop/url-policy';
import { defaultDataDir, PRODUCT_NAME } from '../paths';
import { utilityProcessLauncher } from './utility-launcher';

app.setName(PRODUCT_NAME);

const devRendererUrl = process.env.ELECTRON_RENDERER_URL ?? null;
export const DEV_API_PORT = Number(process.env.FINOPS_DEV_API_PORT ?? 41999);

let mainWindow: BrowserWindow | null = null;
let supervisor: ServerSupervisor | null = null;
let secrets: SecretStore | null = null;
let current: ReadyEvent | null = null;
const dataDir = defaultDataDir();

function appOrigins(): string[] {
  return [current?.url, devRendererUrl].filter((o): o is string => Boolean(o));
}

function uiUrl(): string {
  return devRendererUrl ?? `${current?.url}/`;
}

/** IPC is answered only for our own page, never for a frame that navigated elsewhere. */
function assertTrusted(event: IpcMainInvokeEvent): void {
  const url = event.senderFrame?.url ?? '';
  if (!isAppUrl(url, appOrigins())) throw new Error(`IPC refused for ${url}`);
}

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1320,
    height: 860,
    minWidth: 960,
    minHeight: 600,
    show: false,
    title: PRODUCT_NAME,
    // out/main/index.js → <app root>/resources/icon.png (shipped beside the code).
    icon: path.join(__dirname, '../../resources/icon.png'),
    backgroundColor: '#f6f7f9',
    webPreferences: {
      preload: path.join(__dirname, '../preload/index.js'),
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
      webSecurity: true,
      spellcheck: false,
    },
  });
  win.once('ready-to-show', () => win.show());
  win.webContents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url, appOrigins())) event.preventDefault();
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  return win;
}

function hardenSession(): void {
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  ses.webRequest.onHeadersReceived((details, callback) => {
    const headers = { ...details.responseHeaders };
    if (!devRendererUrl && isAppUrl(details.url, appOrigins()) && details.resourceType === 'mainFrame') {
      headers['Content-Security-Policy'] = [UI_CONTENT_SECURITY_POLICY];
    }
    callback({ responseHeaders: headers });
  });
}

function registerIpc(): void {
  ipcMain.handle(IPC.getConnection, async (event): Promise<DesktopConnection> => {
    assertTrusted(event);
    const ready = await supervisor!.whenReady();
    return {
      baseUrl: devRendererUrl ? new URL(devRendererUrl).origin : ready.url,
      apiKey: ready.apiKey,
      keyStorage: secrets?.kind === 'os-keychain' ? 'os-keychain' : 'session-only',
    };
  });
  ipcMain.handle(IPC.getServerStatus, (event) => {
    assertTrusted(event);
    return supervisor!.status;
  });
  ipcMain.handle(IPC.restartServer, async (event) => {
    assertTrusted(event);
    await supervisor!.restart();
  });
  ipcMain.handle(IPC.getAppInfo, (event): DesktopAppInfo => {
    assertTrusted(event);
    return {
      appVersion: app.getVersion(),
      electronVersion: process.versions.electron ?? '',
      chromeVersion: process.versions.chrome ?? '',
      nodeVersion: process.versions.node,
      platform: `${process.platform} ${process.arch}`,
      dataDir,
    };
  });
}

async function main(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  app.on('second-instance', () => {
    if (mainWindow?.isMinimized()) mainWindow.restore();
    mainWindow?.focus();
  });
  await app.whenReady();
  hardenSession();
  registerIpc();

  const opened = await openSecretStore();
  secrets = opened.store;
  if (opened.fallbackReason) console.warn(`[finops] ${opened.fallbackReason}; the local API key lasts for this session only`);
  const account = secretAccounts.localApiKey(dataDir);

  supervisor = new ServerSupervisor({
    launch: utilityProcessLauncher(path.join(__dirname, 'server-host.js')),
    dataDir,
    port: devRendererUrl ? DEV_API_PORT : 0,
    webRoot: devRendererUrl ? null : path.join(__dirname, '../renderer'),
    initialApiKey: await secrets.get(account),
  });
  supervisor.onStatus((status) => mainWindow?.webContents.send(IPC.serverStatus, status));
  supervisor.onReady((ready) => {
    const moved = current !== null && current.url !== ready.url;
    current = ready;
    if (ready.keyCreated) void secrets?.set(account, ready.apiKey).catch((err) => console.warn(`[finops] keychain: ${err}`));
    if (moved && !devRendererUrl) void mainWindow?.loadURL(uiUrl());
  });

  try {
    await supervisor.start();
  } catch (err) {
    dialog.showErrorBox(
      `${PRODUCT_NAME} could not start its local server`,
      `${(err as Error).message}\n\nData folder: ${dataDir}`,
    );
    app.exit(1);
    return;
  }
  mainWindow = createWindow();
  await mainWindow.loadURL(uiUrl());
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) {
      mainWindow = createWindow();
      void mainWindow.loadURL(uiUrl());
    }
  });
}

let quitting = false;
app.on('before-quit', (event) => {
  if (quitting || !supervisor) return;
  event.preventDefault();
  quitting = true;
  void supervisor.stop().finally(() => app.quit());
});
app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

void main();
