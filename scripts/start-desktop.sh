#!/usr/bin/env bash
# `npm start`: the desktop app. Builds main, preload and renderer (electron-vite) and starts Electron on them;
# `npm start -- --dev` runs `electron-vite dev` instead (renderer hot reload; the API is proxied to the local server
# on FINOPS_DEV_API_PORT, default 41999).
#
# Native modules: better-sqlite3 and keytar are N-API modules, so the build made for Node 22 normally loads in
# Electron unchanged. This is checked by loading both inside Electron (ELECTRON_RUN_AS_NODE); only when that fails
# are they rebuilt for Electron with @electron/rebuild. (Needs a display: this cannot run on a headless machine;
# the headless equivalent is `npm run serve`.)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$FINOPS_ROOT"

mode="preview"
for arg in "$@"; do
  case "$arg" in
    --dev) mode="dev" ;;
    *) echo "start-desktop: unknown option $arg (use --dev for hot reload)" >&2; exit 2 ;;
  esac
done

if [ "$(uname -s)" = "Linux" ] && [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "start-desktop: no display (DISPLAY / WAYLAND_DISPLAY unset). The desktop app needs one;" >&2
  echo "               on a headless machine run the server and web UI instead: npm run serve" >&2
  exit 1
fi

# The first run of the electron package downloads its binary for this platform.
electron_bin="$(node -e "process.stdout.write(require('electron'))")"

if ! ELECTRON_RUN_AS_NODE=1 "$electron_bin" -e "require('better-sqlite3'); require('keytar')" >/dev/null 2>&1; then
  echo "start-desktop: rebuilding native modules (better-sqlite3, keytar) for Electron"
  npx --yes @electron/rebuild --force --only better-sqlite3,keytar
  # The CLI and tests keep using Node 22: they need the Node build back, which `npm rebuild` restores.
  trap 'echo "start-desktop: restoring the Node build of the native modules"; npm rebuild better-sqlite3 keytar >/dev/null' EXIT
fi

if [ "$mode" = "dev" ]; then
  npx electron-vite dev
  exit $?
fi
npx electron-vite build
npx electron-vite preview --skipBuild
