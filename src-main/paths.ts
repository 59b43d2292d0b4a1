import os from 'node:os';
import path from 'node:path';

export const PRODUCT_NAME = 'Finops Desk';

/**
 * Where data lives when neither --data-dir nor FINOPS_DATA_DIR says: the same folder the desktop app uses
 * (Electron's userData for "Finops Desk", plus /data), so the CLI and the app see one database by default.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.FINOPS_DATA_DIR) return env.FINOPS_DATA_DIR;
  const home = os.homedir();
  const appData =
    platform === 'win32'
      ? (env.APPDATA ?? path.join(home, 'AppData', 'Roaming'))
      : platform === 'darwin'
        ? path.join(home, 'Library', 'Application Support')
        : (env.XDG_CONFIG_HOME ?? path.join(home, '.config'));
  return path.join(appData, PRODUCT_NAME, 'data');
}
