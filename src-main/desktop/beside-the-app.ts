/**
 * A `finops` command run on the desktop app's own data dir judges as the app does (docs/decisions/0191): the app's
 * user is that data dir's operator (0176), so the private addresses they allowed in Settings (the shell's
 * `private-hosts.json` in the app folder) and the folders they chose to watch hold for the command too. Without this,
 * a workflow run advanced or a mailbox fetched from the CLI beside the app was refused the company's mail server
 * the app reaches.
 *
 * Only that one data dir: any other (`--data-dir`, `$FINOPS_DATA_DIR` elsewhere) is a server's or a test's, whose
 * operator says what they allow with `--allow-private-hosts` or the environment. `finops serve` is left out too: it
 * states its operator's choices at start, whatever folder it serves.
 */
import path from 'node:path';
import { configureOperator } from '../operator/settings';
import { defaultAppDir } from '../paths';
import { allowanceInForce, loadPrivateHosts, PRIVATE_HOSTS_FILE } from './private-hosts';

/** Whether `dataDir` is the desktop app's own (its app folder's `data`), whatever `$FINOPS_DATA_DIR` says. */
export function isDesktopDataDir(dataDir: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return path.resolve(dataDir) === path.resolve(defaultAppDir(env), 'data');
}

/**
 * Takes the desktop app's operator settings for this process when `dataDir` is the app's; says whether it did. The
 * environment's entries stay allowed beside the app's, as in the app (`allowanceInForce`).
 */
export function adoptDesktopOperator(dataDir: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (!isDesktopDataDir(dataDir, env)) return false;
  const { entries } = loadPrivateHosts(path.join(defaultAppDir(env), PRIVATE_HOSTS_FILE));
  configureOperator({ inboxRoots: 'any', allowPrivateHosts: allowanceInForce(entries, env) });
  return true;
}
