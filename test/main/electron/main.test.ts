/**
 * The built Electron main process (out/main/index.js, from `electron-vite build`, made if stale) driven in plain Node with a
 * stand-in for the `electron` module (fake-electron/), since the Electron binary cannot run here. The server host
 * it starts is the built one, in a real child process, with a real database and real HTTP; only Electron's own
 * surface (windows, menus, IPC plumbing, safeStorage) is the stand-in's. What this cannot prove — Chromium
 * rendering the pages, real IPC between processes, the OS keychain and safeStorage, packaging — is listed in the
 * README as proven only where Electron runs.
 *
 * @module-tag slow (builds the app and spawns processes; left out of `npm run test:fast`)
 */
import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { preferredPort } from '../../../src-main/desktop/preferred-port';
import { DB_FILE_NAME, openDatabase } from '../../../src-main/store/db';
import { LATEST_VERSION } from '../../../src-main/store/migrations/index';
import { IPC } from '../../../src-shared/desktop-bridge';
import { ROOT } from '../../helpers/cli';
import { ensureDesktopBuild } from '../../helpers/desktop-build';
import { tmpDir } from '../../helpers/tmp';

const MAIN = path.join(ROOT, 'out/main/index.js');
const REGISTER = path.join(__dirname, 'fake-electron/register.cjs');

interface WindowSnapshot {
  options: {
    x?: number;
    y?: number;
    width: number;
    height: number;
    webPreferences: Record<string, unknown>;
  };
  destroyed: boolean;
  bounds: { x: number; y: number; width: number; height: number };
  urls: string[];
  lastPage: string | null;
  sent: { channel: string; payload: { state: string } }[];
}
interface MenuItem {
  label?: string;
  role?: string;
  submenu?: MenuItem[];
}
interface Snapshot {
  timeline: string[];
  windows: WindowSnapshot[];
  menu: MenuItem[] | null;
  ipcChannels: string[];
  dialogs: unknown[];
  external: string[];
  openedPaths: string[];
  hostPids: number[];
  hostsAlive: boolean[];
}

beforeAll(ensureDesktopBuild, 240_000);

/** One launch of the desktop app's main process under the stand-in. */
class Shell {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; timeline: string[] }>;
  private nextId = 1;
  private pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private output = '';
  private readonly darwin: boolean;

  constructor(
    readonly home: string,
    env: NodeJS.ProcessEnv = {},
  ) {
    this.darwin = env.FAKE_ELECTRON_PLATFORM === 'darwin';
    const { FINOPS_DATA_DIR: _ignored, ELECTRON_RENDERER_URL: _dev, FINOPS_UPDATE_FEED: _feed, ...inherited } = process.env;
    this.child = fork(MAIN, [], {
      cwd: ROOT,
      execArgv: ['--require', REGISTER],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: {
        ...inherited,
        HOME: home,
        XDG_CONFIG_HOME: path.join(home, 'config'),
        // No Secret Service: keytar cannot serve, so the shell's safeStorage file does (deterministic here and in CI).
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/finops-test-bus',
        DISPLAY: '',
        ...env,
      },
    });
    this.child.stdout?.on('data', (c) => {
      this.output += c;
    });
    this.child.stderr?.on('data', (c) => {
      this.output += c;
    });
    let timeline: string[] = [];
    this.child.on(
      'message',
      (m: { id?: number; ok?: boolean; value?: unknown; error?: string; type?: string; timeline?: string[] }) => {
        if (m.type === 'exit') timeline = m.timeline ?? [];
        const p = m.id === undefined ? undefined : this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id!);
        if (m.ok) p.resolve(m.value);
        else p.reject(new Error(m.error));
      },
    );
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve({ code, timeline })));
    running.push(this);
  }

  /** The app's folder as the shell computes it for the platform it believes it runs on (paths.ts). */
  get appDir(): string {
    return this.darwin
      ? path.join(this.home, 'Library', 'Application Support', 'Finops Desk')
      : path.join(this.home, 'config', 'Finops Desk');
  }

  get dataDir(): string {
    return path.join(this.appDir, 'data');
  }

  log(): string {
    const file = path.join(this.appDir, 'logs', 'finops-desk.log');
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  }

  call<T = unknown>(cmd: string, args: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ id, cmd, ...args });
    });
  }

  snapshot(): Promise<Snapshot> {
    return this.call<Snapshot>('snapshot');
  }

  invoke<T = unknown>(channel: string, frameUrl: string, ...args: unknown[]): Promise<T> {
    return this.call<T>('invoke', { channel, frameUrl, args });
  }

  /** Polls the snapshot until `check` holds (the output and the log are in the error otherwise). */
  async until(check: (s: Snapshot) => boolean, what: string, ms = 30_000): Promise<Snapshot> {
    const until = Date.now() + ms;
    for (;;) {
      const s = await this.snapshot();
      if (check(s)) return s;
      if (Date.now() > until) {
        throw new Error(`timed out waiting for ${what}\n${JSON.stringify(s.timeline)}\n${this.output}\n${this.log()}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Waits until window `w` shows the app (its last load is an http URL of the local server). */
  uiShown(w = 0): Promise<Snapshot> {
    return this.until(
      (s) => /^http:\/\/127\.0\.0\.1:\d+\/$/.test(s.windows[w]?.urls.at(-1) ?? ''),
      `window ${w} to show the app`,
    );
  }

  async quit(): Promise<{ code: number | null; timeline: string[] }> {
    this.child.send({ id: this.nextId++, cmd: 'quit' });
    return this.exited;
  }
}

const running: Shell[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) {
    if (s.child.exitCode === null && s.child.signalCode === null) {
      s.child.kill('SIGKILL');
      await s.exited;
    }
  }
});

const uiUrlOf = (s: Snapshot, w = 0) => s.windows[w]!.urls.at(-1)!;

function flatMenu(items: MenuItem[] | null): MenuItem[] {
  return (items ?? []).flatMap((i) => [i, ...flatMenu(i.submenu ?? null)]);
}

/** A GET with exactly this Host header. */
function getWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = http.request(
      { host: u.hostname, port: u.port, path: u.pathname, setHost: false, headers: { Host: host } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * What the host's operator allows, seen where a team owner names a host its workflows may call: an internal address
 * outside the allowance is refused (422), one inside is taken (200).
 */
function workflowHostStatus(origin: string, apiKey: string, entry: string): Promise<number> {
  return fetch(`${origin}/app/workflow-settings`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ httpHosts: [entry] }),
  }).then((r) => r.status);
}

describe('the desktop main process (built, under a stand-in for electron)', () => {
  describe('one launch, from start to quit', () => {
    let shell: Shell;
    let ui: string;
    let origin: string;
    afterAll(async () => {
      if (shell.child.exitCode === null) shell.child.kill('SIGKILL');
    });

    it('opens the window at once on its own page, then shows the app served by the local server on its stable port', async () => {
      shell = new Shell(tmpDir('finops-shell-', 'file'));
      running.splice(running.indexOf(shell), 1); // lives for this describe block
      const s = await shell.uiShown();
      const w = s.windows[0]!;
      expect(w.urls[0]).toMatch(/^data:text\/html/);
      ui = uiUrlOf(s);
      origin = new URL(ui).origin;
      expect(ui).toBe(`http://127.0.0.1:${preferredPort(shell.dataDir)}/`);
      expect(w.sent.map((m) => m.payload.state)).toContain('ready');
      expect(s.hostPids).toHaveLength(1);
    });

    it('locks the window down: context isolation, sandbox, no Node, no webview, its preload built beside main', async () => {
      const { windows } = await shell.snapshot();
      const prefs = windows[0]!.options.webPreferences;
      expect(prefs).toMatchObject({
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        webviewTag: false,
        webSecurity: true,
      });
      expect(prefs.preload).toBe(path.join(ROOT, 'out/preload/index.js'));
      expect(fs.existsSync(prefs.preload as string)).toBe(true);
      // Not packaged: a development build keeps developer tools.
      expect(prefs.devTools).toBe(true);
    });

    it('answers IPC for the app page only, and the key it hands over works against the server', async () => {
      const conn = await shell.invoke<{ baseUrl: string; apiKey: string; keyStorage: string }>(
        IPC.getConnection,
        `${origin}/customers`,
      );
      expect(conn).toMatchObject({ baseUrl: origin, keyStorage: 'encrypted-file' });
      const res = await fetch(`${origin}/v1/tags`, { headers: { authorization: `Bearer ${conn.apiKey}` } });
      expect(res.status).toBe(200);
      const otherPort = `http://127.0.0.1:${Number(new URL(origin).port) + 1}/`;
      for (const frame of ['https://evil.example/', otherPort, 'data:text/html;base64,PGgxPng8L2gxPg==', '']) {
        await expect(shell.invoke(IPC.getConnection, frame), frame).rejects.toThrow(/IPC refused/);
        await expect(shell.invoke(IPC.syncSetCredential, frame, 'https://r.example/v1', 'k')).rejects.toThrow(/IPC refused/);
      }
      const { ipcChannels } = await shell.snapshot();
      expect(ipcChannels.sort()).toEqual(
        Object.values(IPC)
          .filter((c) => c !== IPC.serverStatus)
          .sort(),
      );
    });

    it('answers only its own Host (DNS rebinding) while serving the window', async () => {
      const port = new URL(origin).port;
      expect(await getWithHost(`${origin}/v1/health`, `127.0.0.1:${port}`)).toBe(200);
      expect(await getWithHost(`${origin}/v1/health`, `rebind.example:${port}`)).toBe(403);
    });

    it('keeps navigation and redirects inside the app; only mailto: and help links leave, to the OS', async () => {
      const nav = (url: string, event = 'will-navigate') => shell.call<{ prevented: boolean }>('navigate', { url, event });
      expect((await nav(`${origin}/transactions`)).prevented).toBe(false);
      expect((await nav('https://evil.example/')).prevented).toBe(true);
      expect((await nav(`${origin}/x`, 'will-redirect')).prevented).toBe(false);
      expect((await nav('http://evil.example/', 'will-redirect')).prevented).toBe(true);
      expect((await nav('file:///etc/passwd', 'will-redirect')).prevented).toBe(true);
      for (const url of [
        'https://docs.example.com/help',
        'http://plain.example/',
        'file:///etc/passwd',
        'mailto:ap@acme.example',
      ]) {
        expect(await shell.call('openWindow', { url })).toEqual({ action: 'deny' });
      }
      // A mailto: link clicked in the page (a customer's address) goes to the mail program; redirected to, never.
      expect((await nav('mailto:billing@acme.example')).prevented).toBe(true);
      expect((await nav('mailto:redirected@acme.example', 'will-redirect')).prevented).toBe(true);
      expect((await shell.snapshot()).external).toEqual(['mailto:ap@acme.example', 'mailto:billing@acme.example']);
      await shell.until(() => shell.log().includes('(page): http://plain.example'), 'the refusals in the log');
      expect(shell.log()).toContain('external link refused (page): https://docs.example.com: not a host of the app’s help');
      expect(shell.log()).toContain('external link refused (page): a file: link: not an https link or a mailto: address');
    });

    it('opens a sync sign-in’s authorization URL in the OS browser for the app page, and nothing else', async () => {
      const signIn = `https://sync.example.com/v1/oauth/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: 'desk',
        redirect_uri: 'http://127.0.0.1:4711/callback',
        code_challenge: 'abc',
        code_challenge_method: 'S256',
        state: 's',
      })}`;
      const remote = 'https://sync.example.com/v1';
      await expect(shell.invoke(IPC.openSignIn, 'https://evil.example/', signIn, remote)).rejects.toThrow(/IPC refused/);
      for (const url of [
        'https://docs.example.com/other',
        'file:///etc/passwd',
        signIn.replace('127.0.0.1', 'evil.example'),
        signIn.replace('sync.example.com', 'evil.example'), // a well-formed sign-in, on another host than the remote's
      ]) {
        await expect(shell.invoke(IPC.openSignIn, `${origin}/sync`, url, remote), url).rejects.toThrow(/only a sync sign-in/);
      }
      await expect(shell.invoke(IPC.openSignIn, `${origin}/sync`, signIn)).rejects.toThrow(/only a sync sign-in/);
      await expect(shell.invoke(IPC.openSignIn, `${origin}/sync`, signIn, 'https://other.example/v1')).rejects.toThrow(
        /only a sync sign-in/,
      );
      expect((await shell.snapshot()).external).not.toContain(signIn);
      expect(shell.log()).toContain(
        'external link refused (sign-in): https://evil.example: not on the remote’s origin https://sync.example.com',
      );
      await shell.invoke(IPC.openSignIn, `${origin}/sync`, signIn, remote);
      expect((await shell.snapshot()).external).toContain(signIn);
      expect((await shell.snapshot()).external).not.toContain('https://docs.example.com/other');
    });

    it('denies every permission request and permission check', async () => {
      for (const permission of ['notifications', 'media', 'clipboard-read', 'geolocation']) {
        expect(await shell.call('permission', { kind: 'request', permission })).toBe(false);
        expect(await shell.call('permission', { kind: 'check', permission })).toBe(false);
      }
    });

    it('stores a sync credential from the app page encrypted in its own folder, never in SQLite, never read back', async () => {
      await shell.invoke(IPC.syncSetCredential, `${origin}/sync`, 'https://sync.example.com/v1', ' finops_remote_secret ');
      expect(await shell.invoke(IPC.syncHasCredential, `${origin}/sync`, 'https://sync.example.com/v1/')).toBe(true);
      expect(await shell.invoke(IPC.syncStorage, `${origin}/sync`)).toBe('encrypted-file');
      await expect(shell.invoke(IPC.syncSetCredential, `${origin}/sync`, 'http://sync.example.com/v1', 'k')).rejects.toThrow(
        /must use https/,
      );
      const file = fs.readFileSync(path.join(shell.appDir, 'secrets.json'), 'utf8');
      expect(Object.keys(JSON.parse(file).entries).sort()).toEqual([
        `local-api-key:${shell.dataDir}`,
        'sync-token:https://sync.example.com',
      ]);
      expect(file).not.toContain('finops_remote_secret');
      const db = new Database(path.join(shell.dataDir, DB_FILE_NAME), { readonly: true });
      const hits = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .pluck()
        .all()
        .filter((t) =>
          (db.prepare(`SELECT * FROM "${t}"`).all() as object[]).some((r) => JSON.stringify(r).includes('finops_remote_secret')),
        );
      db.close();
      expect(hits).toEqual([]);
      expect(await shell.invoke(IPC.syncClearCredential, `${origin}/sync`, 'https://sync.example.com/v1')).toBe(true);
    });

    it('keeps the private hosts the app page allows in its own folder and applies them to the running host', async () => {
      const { apiKey } = await shell.invoke<{ apiKey: string }>(IPC.getConnection, `${origin}/settings`);
      const allowList = (entry: string) => workflowHostStatus(origin, apiKey, entry);
      expect(await allowList('10.20.30.40:8080')).toBe(422);
      const inEnv = (process.env.FINOPS_ALLOW_PRIVATE_HOSTS ?? '').split(',').filter(Boolean);
      expect(await shell.invoke(IPC.getPrivateHosts, `${origin}/settings`)).toEqual({ entries: [], fromEnvironment: inEnv });

      const file = path.join(shell.appDir, 'private-hosts.json');
      const refused = await shell.invoke(IPC.setPrivateHosts, `${origin}/settings`, ['10.20.30.40:8080', 'mail.lan:99999']);
      expect(refused).toEqual({
        ok: false,
        refused: [{ entry: 'mail.lan:99999', message: '"mail.lan:99999": 99999 is not a port' }],
      });
      expect(fs.existsSync(file)).toBe(false);
      await expect(shell.invoke(IPC.setPrivateHosts, 'https://evil.example/', ['0.0.0.0/0'])).rejects.toThrow(/IPC refused/);
      await expect(shell.invoke(IPC.getPrivateHosts, 'https://evil.example/')).rejects.toThrow(/IPC refused/);

      const saved = await shell.invoke(IPC.setPrivateHosts, `${origin}/settings`, [' 10.20.30.40:8080 ', 'mail.lan:587']);
      expect(saved).toEqual({ ok: true, saved: { entries: ['10.20.30.40:8080', 'mail.lan:587'], fromEnvironment: inEnv } });
      expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ entries: ['10.20.30.40:8080', 'mail.lan:587'] });
      // Applied without a restart: the same host now takes the address.
      await expect.poll(() => allowList('10.20.30.40:8080')).toBe(200);
      expect((await shell.snapshot()).hostPids).toHaveLength(1);
      expect(shell.log()).toContain('private hosts allowed: 10.20.30.40:8080, mail.lan:587');
    });

    it('quits in order: the host stops cleanly (database checkpointed) before the app exits', async () => {
      const { code, timeline } = await shell.quit();
      expect(code).toBe(0);
      const at = (e: string) => timeline.indexOf(e);
      expect(at('before-quit prevented')).toBeGreaterThan(-1);
      expect(at('host 0 exit 0')).toBeGreaterThan(at('before-quit prevented'));
      expect(at('will-quit')).toBeGreaterThan(at('host 0 exit 0'));
      expect(timeline.at(-1)).toBe('exit 0');
      const wal = path.join(shell.dataDir, `${DB_FILE_NAME}-wal`);
      expect(fs.existsSync(wal) ? fs.statSync(wal).size : 0).toBe(0);
      expect(shell.log()).toContain('the local server stopped; bye');
    });
  });

  it('a release build: no developer tools in the window or the menu, the product menu instead of the default', async () => {
    const shell = new Shell(tmpDir('finops-shell-'), { FAKE_ELECTRON_PACKAGED: '1' });
    const s = await shell.uiShown();
    expect(s.windows[0]!.options.webPreferences.devTools).toBe(false);
    const roles = flatMenu(s.menu).map((i) => i.role);
    expect(roles).not.toContain('toggleDevTools');
    expect(roles).not.toContain('reload');
    expect(flatMenu(s.menu).map((i) => i.label)).toEqual(
      expect.arrayContaining(['Open the Log Folder', 'Restart the Local Server']),
    );
    expect((await shell.quit()).code).toBe(0);
  });

  it('a crashed server: the shell page while it restarts, then the app again at the same address', async () => {
    const shell = new Shell(tmpDir('finops-shell-'));
    const ui = uiUrlOf(await shell.uiShown());
    await shell.call('killHost', { signal: 'SIGKILL' });
    const down = await shell.until(
      (s) => /restarts in/.test(s.windows[0]!.lastPage ?? '') || s.hostPids.length > 1,
      'the restart',
    );
    expect(down.windows[0]!.sent.map((m) => m.payload.state)).toContain('restarting');
    const back = await shell.until(
      (s) => s.hostPids.length === 2 && uiUrlOf(s) === ui && s.hostsAlive[1] === true,
      'the app again',
    );
    expect(back.windows[0]!.urls.some((u) => u.startsWith('data:') && back.windows[0]!.urls.indexOf(u) > 1)).toBe(true);

    // The shell page's "Restart the server" link, as a click would follow it: intercepted, never loaded.
    const nav = await shell.call<{ prevented: boolean }>('navigate', { url: 'http://finops-shell.invalid/restart-server' });
    expect(nav.prevented).toBe(true);
    await shell.until((s) => s.hostPids.length === 3 && s.hostsAlive[2] === true && uiUrlOf(s) === ui, 'a manual restart');
    expect(shell.log()).not.toMatch(/uncaught|unhandled/);
    expect((await shell.quit()).code).toBe(0);
  });

  it('a page that fails to load or whose renderer dies: the shell page with a reload, which brings the app back', async () => {
    const shell = new Shell(tmpDir('finops-shell-'));
    const ui = uiUrlOf(await shell.uiShown());
    await shell.call('failLoad', { code: -6, description: 'ERR_FILE_NOT_FOUND', url: ui });
    let s = await shell.until((x) => /could not show the app/.test(x.windows[0]!.lastPage ?? ''), 'the failure page');
    expect(s.windows[0]!.lastPage).toContain('http://finops-shell.invalid/reload');
    await shell.call('navigate', { url: 'http://finops-shell.invalid/reload' });
    await shell.until((x) => uiUrlOf(x) === ui, 'the app after reload');
    await shell.call('renderGone', {});
    s = await shell.until((x) => /stopped \(crashed, exit code 139\)/.test(x.windows[0]!.lastPage ?? ''), 'the crash page');
    await shell.call('navigate', { url: 'http://finops-shell.invalid/reload' });
    await shell.until((x) => uiUrlOf(x) === ui, 'the app after the crash');
    expect(s.hostPids).toHaveLength(1);
    expect((await shell.quit()).code).toBe(0);
  });

  it('macOS: closing the window keeps the app and the server; a crash is still restarted; activate or a second launch reopens the app', async () => {
    const shell = new Shell(tmpDir('finops-shell-'), { FAKE_ELECTRON_PLATFORM: 'darwin' });
    const ui = uiUrlOf(await shell.uiShown());
    await shell.call('closeWindow', {});
    await shell.call('killHost', { signal: 'SIGKILL' });
    const s = await shell.until((x) => x.hostPids.length === 2 && x.hostsAlive[1] === true, 'the restart with no window');
    expect(s.timeline).not.toContain('app.quit');
    await new Promise((r) => setTimeout(r, 300));
    expect(shell.log()).not.toMatch(/uncaught|unhandled|destroyed/i);
    await shell.call('appEmit', { event: 'activate' });
    await shell.uiShown(1);
    expect(uiUrlOf(await shell.snapshot(), 1)).toBe(ui);
    expect(fs.existsSync(path.join(shell.appDir, 'window-state.json'))).toBe(true);
    // A second launch while no window is open opens one (it used to throw on the destroyed window).
    await shell.call('closeWindow', { window: 1 });
    await shell.call('appEmit', { event: 'second-instance' });
    await shell.uiShown(2);
    expect((await shell.quit()).code).toBe(0);
  });

  it('remembers the window bounds and keeps the origin (so the view settings) from one launch to the next', async () => {
    const home = tmpDir('finops-shell-');
    const first = new Shell(home);
    const ui = uiUrlOf(await first.uiShown());
    await first.call('setBounds', { bounds: { x: 140, y: 90, width: 1500, height: 950 } });
    expect((await first.quit()).code).toBe(0);
    const second = new Shell(home);
    const s = await second.uiShown();
    expect(uiUrlOf(s)).toBe(ui);
    expect(s.windows[0]!.options).toMatchObject({ x: 140, y: 90, width: 1500, height: 950 });
    expect((await second.quit()).code).toBe(0);
  });

  it('starts the host with the private hosts saved before, leaving out a hand-edited bad entry (said in the log)', async () => {
    const home = tmpDir('finops-shell-');
    const appDir = path.join(home, 'config', 'Finops Desk');
    fs.mkdirSync(appDir, { recursive: true });
    fs.writeFileSync(path.join(appDir, 'private-hosts.json'), JSON.stringify({ entries: ['10.20.30.40', 'not a host'] }));
    const shell = new Shell(home);
    const origin = new URL(uiUrlOf(await shell.uiShown())).origin;
    const { apiKey } = await shell.invoke<{ apiKey: string }>(IPC.getConnection, `${origin}/`);
    expect(await workflowHostStatus(origin, apiKey, '10.20.30.40:8080')).toBe(200);
    expect(await workflowHostStatus(origin, apiKey, '10.20.30.41')).toBe(422);
    expect(await shell.invoke(IPC.getPrivateHosts, `${origin}/settings`)).toMatchObject({ entries: ['10.20.30.40'] });
    expect(shell.log()).toContain('private-hosts.json: left out "not a host" is not an address, a CIDR range or a host name');
    expect((await shell.quit()).code).toBe(0);
  });

  it('a server that cannot start (database newer than the app): the reason on the shell page, no restart loop, no crash', async () => {
    const home = tmpDir('finops-shell-');
    const dataDir = path.join(home, 'config', 'Finops Desk', 'data');
    fs.mkdirSync(dataDir, { recursive: true });
    const raw = new Database(path.join(dataDir, DB_FILE_NAME));
    raw.pragma('user_version = 9999');
    raw.close();
    const shell = new Shell(home);
    const s = await shell.until((x) => /could not be kept running/.test(x.windows[0]?.lastPage ?? ''), 'the failure page');
    expect(s.windows[0]!.lastPage).toMatch(/newer than this version/);
    expect(s.windows[0]!.lastPage).toContain(path.join(home, 'config', 'Finops Desk', 'logs', 'finops-desk.log'));
    expect(s.hostPids).toHaveLength(1);
    expect(shell.log()).not.toMatch(/uncaught|unhandled/);
    expect((await shell.quit()).code).toBe(0);
  });

  it('a database to migrate: the window says "Updating the database (1 of 1)…" and where the backup went, then the app', async () => {
    const home = tmpDir('finops-shell-');
    const dataDir = path.join(home, 'config', 'Finops Desk', 'data');
    fs.mkdirSync(dataDir, { recursive: true });
    openDatabase(dataDir, { targetVersion: LATEST_VERSION - 1 }).close();
    const shell = new Shell(home);
    const s = await shell.uiShown();
    const pages = s.windows[0]!.urls.filter((u) => u.startsWith('data:')).map((u) =>
      Buffer.from(u.slice(u.indexOf(',') + 1), 'base64').toString('utf8'),
    );
    const updating = pages.find((p) => p.includes('Updating the database (1 of 1)…'));
    expect(updating).toContain(`backed up first, to ${path.join(dataDir, 'backups', 'before-migration-v')}`);
    expect(shell.log()).toMatch(/server: migrating: step 1 of 1/);
    expect(s.hostPids).toHaveLength(1);
    expect((await shell.quit()).code).toBe(0);
  });

  it('a second instance hands over to the first and quits without starting anything', async () => {
    const shell = new Shell(tmpDir('finops-shell-'), { FAKE_ELECTRON_SECOND_INSTANCE: '1' });
    const { code, timeline } = await shell.exited;
    expect(code).toBe(0);
    expect(timeline).not.toContain('host 0 spawn');
    expect(timeline.some((e) => e.startsWith('window'))).toBe(false);
  });
});
