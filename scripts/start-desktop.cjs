#!/usr/bin/env node
'use strict';
/**
 * `npm start`: the desktop app from a checkout, on Linux, macOS and Windows alike (a Node script, no shell).
 *
 *   npm start                 build main, preload and renderer (electron-vite), then run Electron on them
 *   npm start -- --dev        `electron-vite dev` (renderer hot reload; /v1 proxied to the local server)
 *   npm start -- --no-build   run what out/ holds
 *
 * Steps, each failing with a message that says what to do:
 * 1. a display (Linux): without one Electron cannot open a window — `npm run serve` is the headless way;
 * 2. the Electron binary: `require('electron')` downloads it on first use, printing its progress straight to the
 *    terminal, and returns its path (nothing is parsed from its output);
 * 3. the native modules, loaded by Electron itself: better-sqlite3 opening an in-memory database and running a
 *    query, and keytar. Both are Node-API modules, so the Node build loads in Electron unchanged — there is no
 *    rebuild step (docs/decisions/0043-desktop-packaging.md); better-sqlite3 failing means a broken install
 *    (`npm ci`). keytar failing only warns: on Linux it needs libsecret-1, and without it the app keeps its
 *    secrets with Electron's safeStorage instead (src-main/electron/secrets.ts), so it runs (`keytarAdvice`);
 * 4. Electron itself; on Linux, the "SUID sandbox helper … not configured correctly" abort is recognised and
 *    explained (the helper must be owned by root with mode 4755, or unprivileged user namespaces allowed) —
 *    the sandbox is never turned off for you.
 */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const ELECTRON_VITE = path.join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');

/** Loaded by Electron as Node (ELECTRON_RUN_AS_NODE); prints what it found as one JSON line. */
const NATIVE_CHECK = `
const Database = require('better-sqlite3');
const db = new Database(':memory:');
const sqlite = db.prepare('select sqlite_version() as v').get().v;
db.exec('create table t (x integer); insert into t values (42)');
if (db.prepare('select x from t').pluck().get() !== 42) throw new Error('better-sqlite3 returned a wrong value');
db.close();
let keytar = null;
try {
  require('keytar');
} catch (err) {
  keytar = String((err && err.message) || err);
}
process.stdout.write(JSON.stringify({ sqlite, keytar, electron: process.versions.electron, modules: process.versions.modules }) + '\\n');
`;

function fail(message) {
  const error = new Error(message);
  error.userMessage = message;
  throw error;
}

function parseArgs(argv) {
  const options = { mode: 'start', build: true };
  for (const arg of argv) {
    if (arg === '--dev') options.mode = 'dev';
    else if (arg === '--no-build') options.build = false;
    else fail(`start-desktop: unknown option ${arg} (use --dev for hot reload, --no-build to run what out/ holds)`);
  }
  return options;
}

function checkDisplay(env = process.env, platform = process.platform) {
  if (platform !== 'linux' || env.DISPLAY || env.WAYLAND_DISPLAY) return;
  fail(
    'start-desktop: no display (DISPLAY and WAYLAND_DISPLAY are unset). The desktop app needs one;\n' +
      'on a headless machine run the server and the web UI instead: npm run serve',
  );
}

/** The Electron binary, downloaded on first use by the electron package itself (its progress shows as it goes). */
function electronBinary() {
  try {
    return require(path.join(ROOT, 'node_modules', 'electron'));
  } catch (err) {
    return fail(
      `start-desktop: the Electron binary is not available and could not be downloaded:\n  ${err.message}\n` +
        'It is fetched from GitHub on first use (or from $ELECTRON_MIRROR); a machine without that access can set\n' +
        'ELECTRON_OVERRIDE_DIST_PATH to a folder holding an Electron build.',
    );
  }
}

function checkNativeModules(electron) {
  const r = spawnSync(electron, ['-e', NATIVE_CHECK], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
  });
  const last = (r.stdout || '').trim().split('\n').at(-1) || '';
  if (r.status === 0 && last.startsWith('{')) return JSON.parse(last);
  return fail(
    'start-desktop: the native modules do not load in Electron:\n' +
      `${(r.stderr || r.error?.message || '').trim()}\n` +
      'better-sqlite3 and keytar are Node-API modules: the build npm installed loads in Electron without a rebuild,\n' +
      'so this is a damaged install. Run `npm ci`.',
  );
}

/**
 * What to say when keytar did not load in Electron (`loadError`, null when it did): a warning, never a stop. The
 * app's secrets then live in a file encrypted by Electron's safeStorage where it has a real key (on Linux: the
 * Secret Service's or KWallet's, never Chromium's fixed `basic_text` one), else for the session only
 * (src-main/infra/secret-store.ts). Returns null when there is nothing to say.
 */
function keytarAdvice(loadError, platform = process.platform) {
  if (!loadError) return null;
  const libsecret = platform === 'linux' && /libsecret/i.test(loadError);
  return [
    `start-desktop: warning: keytar does not load in Electron (${loadError.split(/\r?\n/)[0]}).`,
    libsecret
      ? 'It needs libsecret-1 (Debian/Ubuntu: sudo apt install libsecret-1-0; Fedora: sudo dnf install libsecret).'
      : 'This looks like a damaged install (`npm ci` mends it).',
    "The app starts anyway: its secrets are kept by Electron's safeStorage instead (or for this session only).",
  ].join('\n');
}

/** Does Electron's output say it aborted because Chromium's Linux sandbox could not start? */
function isSandboxFailure(output) {
  return /SUID sandbox helper binary was found, but is not configured correctly|No usable sandbox!/.test(output);
}

function sandboxAdvice(electron) {
  const helper = path.join(path.dirname(electron), 'chrome-sandbox');
  return [
    "start-desktop: Electron stopped because Chromium's sandbox cannot start on this Linux system.",
    'Either let the SUID helper do its job (once per install of the electron package):',
    `  sudo chown root:root "${helper}" && sudo chmod 4755 "${helper}"`,
    'or allow unprivileged user namespaces, which the sandbox prefers (Ubuntu 23.10+ restricts them in AppArmor):',
    '  sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0   # or kernel.unprivileged_userns_clone=1',
    'The app does not turn its sandbox off. The packaged app (AppImage, deb) sets the helper up itself.',
  ].join('\n');
}

/** Runs a command with its output passed through, remembering its stderr to explain a sandbox abort. */
function run(command, args, electron) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['inherit', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      process.stderr.write(chunk);
      stderr = (stderr + chunk).slice(-20_000);
    });
    child.on('exit', (code, signal) => {
      if (code !== 0 && process.platform === 'linux' && isSandboxFailure(stderr)) {
        console.error(`\n${sandboxAdvice(electron)}`);
      }
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

async function main(argv = process.argv.slice(2)) {
  const options = parseArgs(argv);
  checkDisplay();
  const electron = electronBinary();
  const found = checkNativeModules(electron);
  const keytarWarning = keytarAdvice(found.keytar);
  console.log(
    `start-desktop: Electron ${found.electron} (modules ABI ${found.modules}) loads better-sqlite3 (SQLite ${found.sqlite})` +
      (keytarWarning ? '' : ' and keytar'),
  );
  if (keytarWarning) console.warn(keytarWarning);
  if (options.mode === 'dev') return run(process.execPath, [ELECTRON_VITE, 'dev'], electron);
  if (options.build) {
    const built = spawnSync(process.execPath, [ELECTRON_VITE, 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (built.status !== 0) fail('start-desktop: the build failed (see above)');
  }
  if (!fs.existsSync(path.join(ROOT, 'out', 'main', 'index.js')))
    fail('start-desktop: out/main is missing; run without --no-build');
  return run(electron, ['.'], electron);
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (err) => {
      console.error(err.userMessage ?? err.stack ?? String(err));
      process.exit(err.userMessage ? (err.userMessage.includes('unknown option') ? 2 : 1) : 1);
    },
  );
}

module.exports = { parseArgs, checkDisplay, keytarAdvice, isSandboxFailure, sandboxAdvice, NATIVE_CHECK };
