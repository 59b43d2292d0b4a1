/**
 * The app's one window: created where it was last left (desktop/window-state.ts), locked down (context isolation,
 * sandbox, no Node, navigation and redirects only within the app's origin, new windows and mailto: only as the
 * links desktop/external-links.ts lets out, to the OS browser or mail program), and showing either the app or the
 * shell's own page (desktop/shell-page.ts). Every send goes through `send`, which does nothing once the window is
 * gone (macOS keeps the app running with no window).
 */
import { BrowserWindow, screen } from 'electron';
import { isMailtoLink } from '../desktop/external-links';
import { loadFailureNeedsPage, type ShellAction, type ShellPageFacts, shellActionOf, shellPageUrl } from '../desktop/shell-page';
import { isAppUrl } from '../desktop/url-policy';
import { loadWindowState, MIN_SIZE, placeWindow, saveWindowState } from '../desktop/window-state';
import { PRODUCT_NAME } from '../paths';
import { openExternalFor } from './external';

export interface AppWindowOptions {
  preload: string;
  icon: string;
  stateFile: string;
  developer: boolean;
  appOrigins(): string[];
  onShellAction(action: ShellAction): void;
  /** The page failed to load or its renderer ended (the shell shows its page with the problem). */
  onPageProblem(problem: string): void;
  onClosed(): void;
  log(message: string): void;
}

export class AppWindow {
  readonly win: BrowserWindow;
  private showing: { kind: 'ui'; url: string } | { kind: 'shell' } | null = null;

  constructor(private readonly options: AppWindowOptions) {
    const place = placeWindow(
      loadWindowState(options.stateFile),
      screen.getAllDisplays().map((d) => d.workArea),
    );
    this.win = new BrowserWindow({
      ...(place.x === undefined ? {} : { x: place.x, y: place.y }),
      width: place.width,
      height: place.height,
      minWidth: MIN_SIZE.width,
      minHeight: MIN_SIZE.height,
      show: false,
      title: PRODUCT_NAME,
      icon: options.icon,
      backgroundColor: '#f6f7f9',
      webPreferences: {
        preload: options.preload,
        contextIsolation: true,
        nodeIntegration: false,
        sandbox: true,
        webSecurity: true,
        webviewTag: false,
        spellcheck: false,
        devTools: options.developer,
      },
    });
    if (place.maximized) this.win.maximize();
    this.win.once('ready-to-show', () => this.win.show());
    this.guardNavigation();
    this.watchPage();
    this.win.on('close', () => this.saveState());
    this.win.on('closed', () => options.onClosed());
  }

  get alive(): boolean {
    return !this.win.isDestroyed() && !this.win.webContents.isDestroyed();
  }

  send(channel: string, payload: unknown): void {
    if (this.alive) this.win.webContents.send(channel, payload);
  }

  /** Loads the app unless it is already showing at this address. */
  showUi(url: string): void {
    if (!this.alive || (this.showing?.kind === 'ui' && this.showing.url === url)) return;
    this.showing = { kind: 'ui', url };
    this.load(url);
  }

  showShellPage(facts: ShellPageFacts): void {
    if (!this.alive) return;
    this.showing = { kind: 'shell' };
    this.load(shellPageUrl(facts));
  }

  focus(): void {
    if (!this.alive) return;
    if (this.win.isMinimized()) this.win.restore();
    this.win.show();
    this.win.focus();
  }

  private load(url: string): void {
    // A failed load is reported by did-fail-load (and shown); the promise's rejection says nothing more.
    this.win.loadURL(url).catch((err: Error) => this.options.log(`load failed: ${err.message}`));
  }

  /**
   * Navigation, redirects and new windows: the app's origin only; shell-page actions; a mailto: link clicked, and
   * the page links external-links.ts allows in a new window, to the OS (a redirect never opens anything).
   */
  private guardNavigation(): void {
    const wc = this.win.webContents;
    const onNavigate = (event: { preventDefault(): void }, url: string, clicked: boolean) => {
      const action = shellActionOf(url);
      if (action) {
        event.preventDefault();
        this.options.onShellAction(action);
        return;
      }
      if (isAppUrl(url, this.options.appOrigins())) return;
      event.preventDefault();
      if (clicked && isMailtoLink(url)) openExternalFor(url, { for: 'page' }, this.options.log);
    };
    wc.on('will-navigate', (event, url) => onNavigate(event, url, true));
    wc.on('will-redirect', (event, url) => onNavigate(event, url, false));
    wc.setWindowOpenHandler(({ url }) => {
      openExternalFor(url, { for: 'page' }, this.options.log);
      return { action: 'deny' };
    });
  }

  private watchPage(): void {
    const wc = this.win.webContents;
    wc.on('did-fail-load', (_event, errorCode, errorDescription, validatedURL, isMainFrame) => {
      if (!loadFailureNeedsPage(errorCode, isMainFrame, validatedURL)) return;
      this.showing = null;
      this.options.onPageProblem(`${validatedURL} could not be loaded: ${errorDescription} (${errorCode})`);
    });
    wc.on('render-process-gone', (_event, details) => {
      this.showing = null;
      this.options.onPageProblem(`the window's page stopped (${details.reason}, exit code ${details.exitCode})`);
    });
  }

  private saveState(): void {
    try {
      saveWindowState(this.options.stateFile, { bounds: this.win.getNormalBounds(), maximized: this.win.isMaximized() });
    } catch (err) {
      this.options.log(`window state not saved: ${(err as Error).message}`);
    }
  }
}
