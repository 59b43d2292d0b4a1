#!/usr/bin/env bash
# The crash harness's long run, on demand (docs/decisions/0189-crash-harness.md): `finops serve` under every writer
# at once, killed with SIGKILL KILLS times at seeded moments and checked after each kill and restart. The CI run
# (npm test) makes 8 kills; this one makes as many as asked and prints the same report at its end.
#   scripts/crash-harness.sh [KILLS] [SEED]    (default 200 kills, seed 20261203; the report goes to stderr)
# A run that found something is run again with its seed: the kill moments and the mix of requests repeat.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$FINOPS_ROOT"
export FINOPS_CRASH_KILLS="${1:-200}"
export FINOPS_CRASH_SEED="${2:-20261203}"
exec npx vitest run test/main/durability/crash-harness.slow.test.ts
