#!/usr/bin/env bash
# The date-sensitive tests again, on the awkward days (docs/decisions/0019-test-clock.md): the Node tests tagged
# `@module-tag calendar` and the browser journeys that show dated data, in English, with the test clock (and the
# user's and the browser's time zone) set to each day below. A test that reads the machine's date for what it
# asserts, or a screen that is empty because the month is young, fails here.
#   scripts/clock-matrix.sh [node|browser|all]    (default all; browser runs build the web UI once each, unless
#   FINOPS_TEST_WEB_ROOT names a build: scripts/test.sh passes out/web)
# Each run writes reports/clock-<n>-<kind>.json, which scripts/test.sh sums into the closing line.
# FINOPS_CLOCK_MATRIX_DAY tells a journey it runs on an awkward day: what has no date in it (axe, the dark theme)
# is left to the suite's own run (test/browser/helpers/axe.ts, test/browser/screens.test.ts).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$FINOPS_ROOT"
what=${1:-all}

# instant                 time zone          why
DAYS=(
  "2026-11-01T13:00:00Z   America/New_York   the 1st of a month, and New York's DST end"
  "2027-03-28T10:00:00Z   Europe/Berlin      Berlin's DST start (the day has 23 hours)"
  "2028-02-29T12:00:00Z   UTC                29 February"
  "2026-12-31T23:30:00Z   Europe/Berlin      31 December in UTC, already 1 January in Berlin"
)
# Journeys whose screens show days, months, due dates or default date windows.
JOURNEYS=(
  test/browser/invoices.test.ts
  test/browser/screens.test.ts
  test/browser/formats.test.ts
  test/browser/transactions.test.ts
  test/browser/runway.test.ts
  test/browser/time.test.ts
  test/browser/date-field.test.ts
)

# The Node test files whose first docblock says `@module-tag calendar` (named, so vitest collects only them).
mapfile -t CALENDAR < <(grep -rl --include='*.test.ts' '@module-tag calendar' test/main test/shared test/renderer 2>/dev/null | sort)

mkdir -p reports
rc=0
n=0
for entry in "${DAYS[@]}"; do
  n=$((n + 1))
  read -r at tz why <<<"$entry"
  echo "::: clock matrix $n: $at ($tz) — $why"
  if [ "$what" = node ] || [ "$what" = all ]; then
    FINOPS_NOW=$at FINOPS_TEST_TZ=$tz TZ=$tz CI_REPORT=1 FINOPS_REPORT_NAME=clock-$n-node \
      npx vitest run "${CALENDAR[@]}" || rc=1
  fi
  if [ "$what" = browser ] || [ "$what" = all ]; then
    FINOPS_NOW=$at FINOPS_TEST_TZ=$tz TZ=$tz CI_REPORT=1 FINOPS_REPORT_NAME=clock-$n-browser FINOPS_CLOCK_MATRIX_DAY=$n \
      npx vitest run -c vitest.browser.config.mts --project en "${JOURNEYS[@]}" || rc=1
  fi
done
exit $rc
