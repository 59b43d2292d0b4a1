# Sourced by every project script: puts the project's Node 22 first on PATH.
# Native modules (better-sqlite3, keytar) are built for the Node that ran `npm ci`; loading them from another
# Node segfaults, so everything — CLI, tests, CI — must run on this same Node.
FINOPS_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FINOPS_NODE_VERSION="22.23.3"
if [ -x "$FINOPS_ROOT/.tools/node/bin/node" ]; then
  export PATH="$FINOPS_ROOT/.tools/node/bin:$PATH"

fi
export FINOPS_ROOT FINOPS_NODE_VERSION
