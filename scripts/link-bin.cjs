'use strict';
// npm links the bins of dependencies into node_modules/.bin, but not the project's own: link `finops` there so
// that `npx finops` in the checkout runs this project's launcher instead of looking for a registry package.
//
// Windows refuses a symlink without Developer Mode or an elevated shell (EPERM), which would make `npm ci` exit 1
// as a postinstall failure. There, and wherever the symlink is refused, small shims take its place, as npm's own
// cmd-shim writes them: `finops` (sh, for Git Bash and the like) and `finops.cmd` (cmd and PowerShell), each
// running bin/finops where it lies, so the launcher finds the checkout from its own path exactly as through the link.
const fs = require('node:fs');
const path = require('node:path');

const TARGET = path.join('..', '..', 'bin', 'finops');

const SH_SHIM = `#!/bin/sh
# Written by scripts/link-bin.cjs where a symlink was refused: runs the checkout's launcher.
exec "$(dirname "$0")/${TARGET.split(path.sep).join('/')}" "$@"
`;

// bin/finops is a bash script: cmd runs it through the bash on PATH (Git for Windows puts one there).
const CMD_SHIM = [
  '@ECHO off',
  "REM Written by scripts/link-bin.cjs: runs the checkout's launcher.",
  `bash "%~dp0\\${TARGET.split(path.sep).join('\\')}" %*`,
  '',
].join('\r\n');

function removeIfThere(fsys, file) {
  try {
    fsys.unlinkSync(file);
  } catch {}
}

/**
 * Makes node_modules/.bin/finops under `root` run bin/finops; answers how: 'symlink' or 'shim'.
 * `fsys` and `platform` are parameters so a test can have the symlink refused as Windows refuses it.
 */
function linkBin({ root = path.join(__dirname, '..'), fsys = fs, platform = process.platform, log = console.warn } = {}) {
  const binDir = path.join(root, 'node_modules', '.bin');
  const link = path.join(binDir, 'finops');
  fsys.mkdirSync(binDir, { recursive: true });
  removeIfThere(fsys, link);
  removeIfThere(fsys, `${link}.cmd`);
  if (platform !== 'win32') {
    try {
      fsys.symlinkSync(TARGET, link);
      return 'symlink';
    } catch (err) {
      if (err?.code !== 'EPERM' && err?.code !== 'EACCES') throw err;
      log(`link-bin: a symlink was refused (${err.code}); writing shims for node_modules/.bin/finops instead`);
    }
  }
  fsys.writeFileSync(link, SH_SHIM, { mode: 0o755 });
  fsys.writeFileSync(`${link}.cmd`, CMD_SHIM);
  return 'shim';
}

if (require.main === module) linkBin();

module.exports = { linkBin, SH_SHIM, CMD_SHIM };
