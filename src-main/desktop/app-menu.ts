/**
 * The application menu of the product's own, replacing Electron's default one (whose View menu opens developer
 * tools and whose Help menu links to Electron's web site). A release build offers editing, zoom, full screen and
 * the product's own help (log folder, restarting the local server, updates, about); developer tools and reloads
 * only in development. macOS gets its application menu and Window conventions.
 */
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  openLogFolder(): void;
  restartServer(): void;
  checkForUpdates(): void;
  /** The newer version found by an update check, if any: opens its download page. */
  openUpdate?: { version: string; open(): void };
}

export interface MenuOptions {
  platform: NodeJS.Platform;
  productName: string;
  /** Development (not packaged): adds reload and developer tools. */
  developer: boolean;
  actions: MenuActions;
}

const sep: MenuItemConstructorOptions = { type: 'separator' };

export function appMenuTemplate(options: MenuOptions): MenuItemConstructorOptions[] {
  const { platform, productName, developer, actions } = options;
  const mac = platform === 'darwin';
  const update: MenuItemConstructorOptions[] = actions.openUpdate
    ? [{ label: `Download version ${actions.openUpdate.version}…`, click: actions.openUpdate.open }]
    : [{ label: 'Check for Updates…', click: actions.checkForUpdates }];

  const appMenu: MenuItemConstructorOptions = {
    label: productName,
    submenu: [
      { role: 'about' },
      ...update,
      sep,
      { role: 'services' },
      sep,
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      sep,
      { role: 'quit' },
    ],
  };
  const file: MenuItemConstructorOptions = { label: 'File', submenu: [mac ? { role: 'close' } : { role: 'quit' }] };
  const edit: MenuItemConstructorOptions = {
    label: 'Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      sep,
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { role: 'delete' },
      sep,
      { role: 'selectAll' },
    ],
  };
  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      sep,
      { role: 'togglefullscreen' },
      ...(developer
        ? [sep, { role: 'reload' as const }, { role: 'forceReload' as const }, { role: 'toggleDevTools' as const }]
        : []),
    ],
  };
  const windowMenu: MenuItemConstructorOptions = {
    label: 'Window',
    submenu: mac ? [{ role: 'minimize' }, { role: 'zoom' }, sep, { role: 'front' }] : [{ role: 'minimize' }, { role: 'close' }],
  };
  const help: MenuItemConstructorOptions = {
    role: 'help',
    submenu: [
      { label: 'Open the Log Folder', click: actions.openLogFolder },
      { label: 'Restart the Local Server', click: actions.restartServer },
      ...(mac ? [] : [sep, ...update, { role: 'about' as const }]),
    ],
  };
  return [...(mac ? [appMenu] : []), file, edit, view, windowMenu, help];
}
