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
if [ ! -s "$DATA/demo-api-key" ]; then
  (umask 077 && bin/finops token create --data-dir "$DATA" --team "$TEAM" --name demo > "$DATA/demo-api-key")
fi
KEY=$(cat "$DATA/demo-api-key")
echo "Web UI:   http://$HOST:$PORT/#key=$KEY"
echo "API key:  $KEY   (also in $DATA/demo-api-key)"
echo "API docs: http://$HOST:$PORT/v1/docs"
exec bin/finops serve --data-dir "$DATA" --port "$PORT" --host "$HOST"
