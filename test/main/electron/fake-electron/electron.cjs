'use strict';
/**
 * A stand-in for the `electron` module, for driving the built main process (out/main/index.js) in plain Node where
 * the Electron binary cannot run. It implements the parts of Electron's API the shell uses, with the behaviour the
 * shell depends on, and nothing is faked below it:
 * - `utilityProcess.fork` starts the built server host (out/main/server-host.js) as a real Node child: a real
 *   server, a real SQLite file, real HTTP on loopback;
 * - `webContents.loadURL` really fetches http URLs and, like Chromium, reports a refused connection through
 *   `did-fail-load` (-102) and a load replaced by a newer one as aborted (-3); `data:` pages are decoded and kept;
 * - `app.quit()` emits `before-quit` (which may be prevented), closes the windows, then `will-quit` and exits;
 *   closing the last window emits `window-all-closed` (unless quitting), as Electron does;
 * - a destroyed window's `webContents.send` throws, as Electron's does;
 * - `safeStorage` encrypts for real (AES-256-GCM with a fixed key); `ipcMain.handle` refuses a second handler.
 *
 * The test talks to it over the child's IPC channel (`process.on('message')`): it asks for a snapshot of what the
 * shell did (windows and their settings, pages, sent messages, menu, IPC channels, dialogs, a timeline of
 * lifecycle events) and drives it (invoke an IPC channel as a given frame, navigate, close, quit, kill the host…).
 */
const { EventEmitter } = require('node:events');
const childProcess = require('node:child_process');
const crypto = require('node:crypto');
const path = require('node:path');
const { aesGcmCipher } = require('../../../helpers/aes-gcm.cjs');

const timeline = [];
const mark = (event) => timeline.push(event);
const record = { dialogs: [], external: [], openedPaths: [], menu: null, permissionRequests: [] };

// ---------- app ----------
class App extends EventEmitter {
  constructor() {
    super();
    this.ready = false;
    this.quitting = false;
    this.paths = { userData: '/nonexistent-user-data' };
    this.isPackaged = process.env.FAKE_ELECTRON_PACKAGED === '1';
    this.name = 'Electron';
  }
  setName(name) {
    this.name = name;
  }
  getName() {
    return this.name;
  }
  setPath(name, value) {
    this.paths[name] = value;
  }
  getPath(name) {
    return this.paths[name] ?? path.join(this.paths.userData, name);
  }
  getVersion() {
    return require(path.join(process.cwd(), 'package.json')).version;
  }
  getAppPath() {
    return process.cwd();
  }
  isReady() {
    return this.ready;
  }
  whenReady() {
    return new Promise((resolve) =>
      setImmediate(() => {
        if (!this.ready) {
          this.ready = true;
          mark('ready');
          this.emit('ready');
        }
        resolve();
      }),
    );
  }
  requestSingleInstanceLock() {
    return process.env.FAKE_ELECTRON_SECOND_INSTANCE !== '1';
  }
  quit() {
    mark('app.quit');
    const event = preventable();
    this.emit('before-quit', event);
    if (event.defaultPrevented) {
      mark('before-quit prevented');
      return;
    }
    this.quitting = true;
    for (const w of BrowserWindow.getAllWindows()) w.close();
    const willQuit = preventable();
    this.emit('will-quit', willQuit);
    if (willQuit.defaultPrevented) return;
    mark('will-quit');
    this.emit('quit');
    this.exit(0);
  }
  exit(code) {
    mark(`exit ${code}`);
    finish(code);
  }
}
const app = new App();

function preventable() {
  return {
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true;
    },
  };
}

function finish(code) {
  const done = () => process.exit(code);
  if (process.send && process.connected) process.send({ type: 'exit', code, timeline, snapshot: snapshot() }, done);
  else done();
}

// ---------- windows ----------
const windows = [];

class WebContents extends EventEmitter {
  constructor(win) {
    super();
    this.win = win;
    this.urls = [];
    this.pages = [];
    this.sent = [];
    this.loads = 0;
    this.openHandler = null;
  }
  isDestroyed() {
    return this.win.destroyed;
  }
  getURL() {
    return this.urls.at(-1) ?? '';
  }
  send(channel, payload) {
    if (this.win.destroyed) throw new TypeError('Object has been destroyed');
    this.sent.push({ channel, payload });
  }
  setWindowOpenHandler(handler) {
    this.openHandler = handler;
  }
  async loadURL(url) {
    if (this.win.destroyed) throw new TypeError('Object has been destroyed');
    const load = ++this.loads;
    this.urls.push(url);
    const fail = (code, description) => {
      this.emit('did-fail-load', preventable(), code, description, url, true);
      throw new Error(`${description} (${code}) loading '${url}'`);
    };
    if (url.startsWith('data:')) {
      this.pages.push(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64').toString('utf8'));
    } else {
      let ok = false;
      try {
        const res = await fetch(url);
        ok = res.ok;
      } catch {
        ok = false;
      }
      if (load !== this.loads) return fail(-3, 'ERR_ABORTED');
      if (!ok) return fail(-102, 'ERR_CONNECTION_REFUSED');
    }
    if (load !== this.loads) return fail(-3, 'ERR_ABORTED');
    this.emit('did-finish-load');
    if (!this.win.shown) this.win.emit('ready-to-show');
  }
}

class BrowserWindow extends EventEmitter {
  constructor(options = {}) {
    super();
    this.options = options;
    this.destroyed = false;
    this.shown = false;
    this.maximized = false;
    this.bounds = {
      x: options.x ?? 300,
      y: options.y ?? 100,
      width: options.width ?? 800,
      height: options.height ?? 600,
    };
    this.webContents = new WebContents(this);
    windows.push(this);
    mark(`window ${windows.length - 1} created`);
  }
  static getAllWindows() {
    return windows.filter((w) => !w.destroyed);
  }
  isDestroyed() {
    return this.destroyed;
  }
  loadURL(url) {
    return this.webContents.loadURL(url);
  }
  show() {
    this.shown = true;
  }
  focus() {}
  restore() {}
  isMinimized() {
    return false;
  }
  maximize() {
    this.maximized = true;
  }
  isMaximized() {
    return this.maximized;
  }
  getNormalBounds() {
    return { ...this.bounds };
  }
  close() {
    if (this.destroyed) return;
    const event = preventable();
    this.emit('close', event);
    if (event.defaultPrevented) return;
    this.destroyed = true;
    mark(`window ${windows.indexOf(this)} closed`);
    this.emit('closed');
    if (!app.quitting && BrowserWindow.getAllWindows().length === 0) app.emit('window-all-closed');
  }
}

// ---------- the rest of the API the shell uses ----------
const screen = { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] };

const sessionHandlers = {};
const session = {
  defaultSession: {
    setPermissionRequestHandler: (h) => {
      sessionHandlers.request = h;
    },
    setPermissionCheckHandler: (h) => {
      sessionHandlers.check = h;
    },
    setDevicePermissionHandler: (h) => {
      sessionHandlers.device = h;
    },
    webRequest: {
      onHeadersReceived: (h) => {
        sessionHandlers.headers = h;
      },
    },
  },
};

const ipcHandlers = new Map();
const ipcMain = {
  handle(channel, handler) {
    if (ipcHandlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    ipcHandlers.set(channel, handler);
  },
};

const plain = (items) =>
  items.map((i) => ({
    ...(i.label ? { label: i.label } : {}),
    ...(i.role ? { role: i.role } : {}),
    ...(i.type ? { type: i.type } : {}),
    ...(Array.isArray(i.submenu) ? { submenu: plain(i.submenu) } : {}),
  }));
const Menu = {
  buildFromTemplate: (template) => ({ template }),
  setApplicationMenu: (menu) => {
    record.menu = menu;
  },
};

const dialog = {
  showErrorBox: (title, content) => record.dialogs.push({ kind: 'error', title, content }),
  showMessageBox: async (options) => {
    record.dialogs.push({ kind: 'message', message: options.message });
    return { response: 1 };
  },
};

const shell = {
  openExternal: async (url) => {
    record.external.push(url);
  },
  openPath: async (p) => {
    record.openedPaths.push(p);
    return '';
  },
};

const cipher = aesGcmCipher(crypto.createHash('sha256').update('fake safeStorage key').digest());
const safeStorage = {
  isEncryptionAvailable: () => process.env.FAKE_SAFE_STORAGE !== 'off',
  getSelectedStorageBackend: () => 'gnome_libsecret',
  encryptString: (plainText) => cipher.encrypt(plainText),
  decryptString: (encrypted) => cipher.decrypt(encrypted),
};

const hosts = [];
const utilityProcess = {
  fork(entry, args, options = {}) {
    const child = childProcess.fork(entry, args, {
      stdio: options.stdio === 'pipe' ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['inherit', 'inherit', 'inherit', 'ipc'],
      env: options.env,
      execArgv: [],
    });
    const wrapper = new EventEmitter();
    wrapper.pid = child.pid;
    wrapper.stdout = child.stdout;
    wrapper.stderr = child.stderr;
    wrapper.postMessage = (message) => {
      if (child.connected) child.send(message);
    };
    wrapper.kill = () => child.kill('SIGTERM');
    child.on('message', (message) => wrapper.emit('message', message));
    child.on('exit', (code) => {
      mark(`host ${hosts.indexOf(child)} exit ${code}`);
      wrapper.emit('exit', code);
    });
    hosts.push(child);
    mark(`host ${hosts.length - 1} spawn`);
    return wrapper;
  },
};

// ---------- the test's side ----------
function snapshot() {
  return {
    ready: app.ready,
    timeline: [...timeline],
    windows: windows.map((w) => ({
      options: JSON.parse(JSON.stringify(w.options)),
      destroyed: w.destroyed,
      shown: w.shown,
      maximized: w.maximized,
      bounds: w.bounds,
      urls: w.webContents.urls,
      lastPage: w.webContents.pages.at(-1) ?? null,
      sent: w.webContents.sent,
    })),
    menu: record.menu ? plain(record.menu.template) : null,
    ipcChannels: [...ipcHandlers.keys()],
    dialogs: record.dialogs,
    external: record.external,
    openedPaths: record.openedPaths,
    hostPids: hosts.map((h) => h.pid),
    hostsAlive: hosts.map((h) => h.exitCode === null && h.signalCode === null),
  };
}

const commands = {
  snapshot,
  async invoke({ channel, frameUrl, args = [] }) {
    const handler = ipcHandlers.get(channel);
    if (!handler) throw new Error(`no handler for ${channel}`);
    return handler({ senderFrame: { url: frameUrl } }, ...args);
  },
  navigate({ window = 0, event = 'will-navigate', url }) {
    const e = preventable();
    windows[window].webContents.emit(event, e, url);
    return { prevented: e.defaultPrevented };
  },
  openWindow({ window = 0, url }) {
    return windows[window].webContents.openHandler({ url });
  },
  failLoad({ window = 0, code, description, url }) {
    windows[window].webContents.emit('did-fail-load', preventable(), code, description, url, true);
  },
  renderGone({ window = 0 }) {
    windows[window].webContents.emit('render-process-gone', preventable(), { reason: 'crashed', exitCode: 139 });
  },
  setBounds({ window = 0, bounds }) {
    windows[window].bounds = bounds;
  },
  closeWindow({ window = 0 }) {
    windows[window].close();
  },
  appEmit({ event }) {
    app.emit(event, preventable());
  },
  quit() {
    app.quit();
  },
  killHost({ signal = 'SIGKILL' }) {
    const live = hosts.filter((h) => h.exitCode === null && h.signalCode === null);
    live.at(-1)?.kill(signal);
    return live.length;
  },
  permission({ kind, permission }) {
    if (kind === 'check') return sessionHandlers.check(null, permission, 'http://127.0.0.1', {});
    return new Promise((resolve) => sessionHandlers.request(null, permission, resolve, {}));
  },
};

process.on('message', async (message) => {
  if (!message || typeof message.cmd !== 'string') return;
  try {
    const value = await commands[message.cmd](message);
    process.send({ id: message.id, ok: true, value: value === undefined ? null : value });
  } catch (err) {
    process.send({ id: message.id, ok: false, error: err instanceof Error ? err.message : String(err) });
  }
});

module.exports = {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  safeStorage,
  screen,
  session,
  shell,
  utilityProcess,
};
