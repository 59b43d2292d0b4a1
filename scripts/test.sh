#!/usr/bin/env bash
# The whole test suite: unit + integration (plain Node: real SQLite, real HTTP on loopback, a real Secret Service
# when the machine has one), then browser tests (the web build in Debian's Chromium). Ends with the plain line
# "N passed, N failed, N skipped" summed from the runners' JSON reports; exits non-zero on any failure.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$FINOPS_ROOT"
# On a fresh machine this sets up first (apt packages, Node 22, npm ci); when already done it only checks.
bash scripts/setup.sh >/dev/null
source scripts/env.sh
mkdir -p reports
rm -f reports/vitest.json reports/browser.json
export CI_REPORT=1

# keytar talks to the Secret Service over D-Bus: give the tests a private session bus with an unlocked keyring.
with_keyring() {
  if command -v dbus-run-session >/dev/null 2>&1 && command -v gnome-keyring-daemon >/dev/null 2>&1; then
    local tmp
    tmp=$(mktemp -d)
    mkdir -p "$tmp/data" "$tmp/run" && chmod 700 "$tmp/run"
    XDG_DATA_HOME="$tmp/data" XDG_RUNTIME_DIR="$tmp/run" FINOPS_KEYRING=1 dbus-run-session -- \
      sh -c 'echo -n finops-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; exec "$@"' sh "$@"
    local rc=$?
    rm -rf "$tmp"
    return $rc
  fi
  "$@"
}

with_keyring npx vitest run "$@"
if [ -z "${1:-}" ] && [ -f vitest.browser.config.mts ]; then
  # Built once here and read by every journey (test/browser/global-setup.ts), and by the clock matrix below.
  npm run -s build:web >/dev/null && export FINOPS_TEST_WEB_ROOT="$FINOPS_ROOT/out/web"
  npx vitest run -c vitest.browser.config.mts
fi
# The date-sensitive tests again on the awkward days (docs/decisions/0019-test-clock.md); FINOPS_CLOCK_MATRIX=0 skips.
rm -f reports/clock-*.json
if [ -z "${1:-}" ] && [ "${FINOPS_CLOCK_MATRIX:-1}" != 0 ]; then
  bash scripts/clock-matrix.sh all
fi
shopt -s nullglob
clock_reports=(reports/clock-*.json)
node scripts/test-summary.cjs reports/vitest.json reports/browser.json "${clock_reports[@]}"
