/**
 * "A newer version exists": a plain check against a release feed (docs/decisions/0043-desktop-packaging.md).
 *
 * The feed is the folder a release is uploaded to, holding electron-builder's channel files (`latest.yml` for
 * Windows, `latest-mac.yml`, `latest-linux.yml`, `latest-linux-arm64.yml`, written by `npm run package` when the
 * release gives a publish URL). The check reads `version:` and the installer's `path:` from the file of this
 * platform and, when the version is newer, the shell offers to open the download in the browser. Nothing is
 * downloaded or installed by the app.
 *
 * Off by default — the app is offline-first and a finance tool should not call out unasked: the automatic check at
 * start runs only when `settings.json` says `{"updates": {"check": true}}`, after the window is up, with a
 * timeout, and its failure is logged, never shown as an error and never in the way of the app. "Check for
 * Updates…" in the menu is a person's explicit request and works whenever a feed is known. The feed URL comes from
 * `$FINOPS_UPDATE_FEED`, else settings.json `updates.feedUrl`, else the package's `updateFeed` field (set by the
 * release build); none → no channel.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface UpdateSettings {
  /** Check automatically after start. */
  check: boolean;
  feedUrl: string | null;
}

export const SETTINGS_FILE = 'settings.json';

function feedUrlOrNull(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const u = new URL(value);
    const local = u.hostname === '127.0.0.1' || u.hostname === 'localhost';
    return u.protocol === 'https:' || (u.protocol === 'http:' && local) ? u.href.replace(/\/?$/, '/') : null;
  } catch {
    return null;
  }
}

export function readUpdateSettings(
  settingsFile: string,
  env: NodeJS.ProcessEnv = process.env,
  packagedFeed: string | null = null,
): UpdateSettings {
  let updates: { check?: unknown; feedUrl?: unknown } = {};
  try {
    const parsed = JSON.parse(fs.readFileSync(settingsFile, 'utf8')) as { updates?: typeof updates };
    if (parsed && typeof parsed.updates === 'object' && parsed.updates !== null) updates = parsed.updates;
  } catch {
    // No settings file (the usual case) or a damaged one: defaults.
  }
  return {
    check: updates.check === true,
    feedUrl: feedUrlOrNull(env.FINOPS_UPDATE_FEED) ?? feedUrlOrNull(updates.feedUrl) ?? feedUrlOrNull(packagedFeed),
  };
}

/** The feed the release build wrote into the app's package.json (`-c.extraMetadata.updateFeed=URL`), if any. */
export function packagedUpdateFeed(appPath: string): string | null {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(appPath, 'package.json'), 'utf8')) as { updateFeed?: unknown };
    return typeof pkg.updateFeed === 'string' ? pkg.updateFeed : null;
  } catch {
    return null;
  }
}

export function feedFileName(platform: NodeJS.Platform, arch: string): string {
  if (platform === 'darwin') return 'latest-mac.yml';
  if (platform === 'win32') return 'latest.yml';
  return arch === 'arm64' ? 'latest-linux-arm64.yml' : 'latest-linux.yml';
}

/** The top-level `key: value` lines of a channel file (its only structure the check needs). */
export function parseChannelFile(text: string): { version: string | null; path: string | null } {
  const top = (key: string) => {
    const m = text.match(new RegExp(`^${key}:\\s*['"]?([^'"\\r\\n]+?)['"]?\\s*$`, 'm'));
    return m?.[1] ?? null;
  };
  return { version: top('version'), path: top('path') };
}

function parseVersion(v: string): { nums: number[]; pre: string | null } | null {
  const m = v.trim().match(/^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+.*)?$/);
  return m ? { nums: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] ?? null } : null;
}

/** Semantic-version order of the parts a release uses: numbers, then a pre-release below its release. */
export function isNewer(candidate: string, current: string): boolean {
  const a = parseVersion(candidate);
  const b = parseVersion(current);
  if (!a || !b) return false;
  for (let i = 0; i < 3; i++) {
    if (a.nums[i] !== b.nums[i]) return (a.nums[i] ?? 0) > (b.nums[i] ?? 0);
  }
  if (a.pre === b.pre) return false;
  if (a.pre === null) return true;
  if (b.pre === null) return false;
  return a.pre.localeCompare(b.pre, 'en', { numeric: true }) > 0;
}

export type UpdateCheck =
  | { state: 'newer'; version: string; downloadUrl: string }
  | { state: 'current'; version: string }
  | { state: 'failed'; reason: string };

export interface CheckOptions {
  feedUrl: string;
  currentVersion: string;
  platform: NodeJS.Platform;
  arch: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** Never throws: every failure is a `failed` answer with its reason. */
export async function checkForUpdate(options: CheckOptions): Promise<UpdateCheck> {
  const url = new URL(feedFileName(options.platform, options.arch), options.feedUrl);
  try {
    const res = await (options.fetch ?? fetch)(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 10_000) });
    if (!res.ok) return { state: 'failed', reason: `${url.href} answered ${res.status}` };
    const feed = parseChannelFile(await res.text());
    if (!feed.version || !parseVersion(feed.version)) return { state: 'failed', reason: `${url.href} names no version` };
    if (!isNewer(feed.version, options.currentVersion)) return { state: 'current', version: options.currentVersion };
    return { state: 'newer', version: feed.version, downloadUrl: feed.path ? new URL(feed.path, url).href : options.feedUrl };
  } catch (err) {
    return { state: 'failed', reason: `${url.href}: ${(err as Error).message}` };
  }
}
