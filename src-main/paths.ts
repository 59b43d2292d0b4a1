import os from 'node:os';
import path from 'node:path';

export const PRODUCT_NAME = 'Finops Desk';

/**
 * The desktop app's own folder (Electron's userData, set to this explicitly): the per-user application data folder
 * plus the product name. The app keeps its window state, settings, log and encrypted secrets file here.
 */
export function defaultAppDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const home = os.homedir();
  const appData =
    platform === 'win32'
      ? (env.APPDATA ?? path.join(home, 'AppData', 'Roaming'))
      : platform === 'darwin'
        ? path.join(home, 'Library', 'Application Support')
        : (env.XDG_CONFIG_HOME ?? path.join(home, '.config'));
  return path.join(appData, PRODUCT_NAME);
}

/**
 * Where data lives when neither --data-dir nor FINOPS_DATA_DIR says: the same folder the desktop app uses (its
 * app folder plus /data), so the CLI and the app see one database by default.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.FINOPS_DATA_DIR) return env.FINOPS_DATA_DIR;
  return path.join(defaultAppDir(env, platform), 'data');
}

/**
 * The path a file has outside the app's archive when electron-builder unpacked it (`asarUnpack`): code that hands
 * a path to something that does not read through Electron's archive support (a worker thread's script, a file it
 * opens) must use this one. Unchanged outside a packaged app.
 */
export function unpackedPath(p: string): string {
  return p.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}
