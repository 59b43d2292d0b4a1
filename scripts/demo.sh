#!/usr/bin/env bash
# The main job on a fresh machine: set up, build the web UI, seed demo data once, and run the headless server
# (API + web UI) on http://127.0.0.1:4100. Ctrl-C stops it cleanly.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$FINOPS_ROOT"
bash scripts/setup.sh
source scripts/env.sh

DATA="${FINOPS_DATA_DIR:-$FINOPS_ROOT/.data/demo}"
PORT="${PORT:-4100}"
HOST="${HOST:-127.0.0.1}"
TEAM="Demo Agency"

npm run -s build:web >/dev/null
mkdir -p "$DATA"
if [ ! -f "$DATA/demo-seeded" ]; then
  bin/finops demo --data-dir "$DATA" --team "$TEAM"
  touch "$DATA/demo-seeded"
fi
# The web UI signs in with a local user: never an API key in the browser (docs/decisions/0110).
EMAIL="demo@finops.local"
if [ ! -s "$DATA/demo-password" ]; then
  (umask 077 && node -e 'process.stdout.write(require("node:crypto").randomBytes(12).toString("base64url"))' > "$DATA/demo-password")
  bin/finops user create --data-dir "$DATA" --team "$TEAM" --email "$EMAIL" --name "Demo Accountant" --password-stdin < "$DATA/demo-password" >/dev/null
fi
echo "Web UI:   http://$HOST:$PORT/"
echo "Sign in:  $EMAIL   password: $(cat "$DATA/demo-password")   (also in $DATA/demo-password)"
echo "API docs: http://$HOST:$PORT/v1/docs"
exec bin/finops serve --data-dir "$DATA" --port "$PORT" --host "$HOST"
