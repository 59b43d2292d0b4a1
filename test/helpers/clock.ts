/**
 * The day every test runs on (docs/decisions/0019-test-clock.md). A test process starts with its clock at
 * `FINOPS_NOW` (by default DEFAULT_TEST_NOW, an ordinary Tuesday morning); `scripts/clock-matrix.sh` runs the
 * date-sensitive tests again on the awkward days. Tests ask this module for "today", never the machine.
 */
export const DEFAULT_TEST_NOW = '2026-06-16T09:30:00Z';

/** Today's day (UTC) on the test clock. */
export function testDay(): string {
  return new Date().toISOString().slice(0, 10);
}

/** The time zone the run is asked to live in (`FINOPS_TEST_TZ`: the DST days of the matrix), else undefined. */
export function testTimeZone(): string | undefined {
  return process.env.FINOPS_TEST_TZ || undefined;
}
