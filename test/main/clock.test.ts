/**
 * @module-tag calendar (runs again on the awkward days: scripts/clock-matrix.sh)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clockOffset, installClockFromEnv, machineNow, NOW_ENV, OFFSET_ENV, parseNow, shiftClock } from '../../src-main/clock';
import { DEFAULT_TEST_NOW, testDay } from '../helpers/clock';
import { tmpDir } from '../helpers/tmp';

describe('the process clock', () => {
  const before = clockOffset();
  afterEach(() => shiftClock(before));

  it('runs every test on the test clock, not on the machine’s day', () => {
    // test/clock-setup.ts set it when this file started: a few seconds at most have passed since.
    const startedAt = process.env[NOW_ENV] ?? DEFAULT_TEST_NOW;
    const elapsed = Date.now() - parseNow(startedAt);
    expect(elapsed).toBeGreaterThanOrEqual(0);
    expect(elapsed).toBeLessThan(10 * 60_000);
    expect(testDay()).toBe(new Date(parseNow(startedAt)).toISOString().slice(0, 10));
  });

  it('shifts new Date() and Date.now() only; dates from values, Date.UTC and parse stay exact', () => {
    shiftClock(Date.parse('2028-02-29T12:00:00Z') - machineNow());
    expect(new Date().toISOString().slice(0, 10)).toBe('2028-02-29');
    expect(Math.abs(Date.now() - Date.parse('2028-02-29T12:00:00Z'))).toBeLessThan(1000);
    expect(new Date(0).toISOString()).toBe('1970-01-01T00:00:00.000Z');
    expect(new Date(2026, 0, 31, 12).getDate()).toBe(31);
    expect(new Date('2026-03-29T01:30:00Z').getTime()).toBe(Date.UTC(2026, 2, 29, 1, 30));
    // A file's times are made by Node's own Date: still a Date.
    expect(fs.statSync(__filename).mtime instanceof Date).toBe(true);
    expect(Object.prototype.toString.call(new Date())).toBe('[object Date]');
  });

  it('runs on in real time from the instant it was set to', async () => {
    shiftClock(Date.parse('2026-12-31T23:59:59.900Z') - machineNow());
    await new Promise((r) => setTimeout(r, 150));
    expect(new Date().toISOString().slice(0, 10)).toBe('2027-01-01');
  });

  it('hands the same offset to every process it starts, to the millisecond', () => {
    shiftClock(Date.parse('2026-11-01T06:30:00Z') - machineNow());
    const script = path.join(tmpDir('clock-'), 'child.cjs');
    fs.writeFileSync(script, 'process.stdout.write(process.env.FINOPS_CLOCK_OFFSET_MS ?? "none")');
    const child = spawnSync(process.execPath, [script], { encoding: 'utf8', env: process.env });
    expect(Number(child.stdout)).toBe(clockOffset());
  });

  it('reads FINOPS_NOW as an ISO day or date-time with a zone, and refuses anything else', () => {
    expect(parseNow('2026-12-01')).toBe(Date.UTC(2026, 11, 1));
    expect(parseNow('2027-03-28T02:30:00+02:00')).toBe(Date.UTC(2027, 2, 28, 0, 30));
    for (const bad of ['tomorrow', '2026-13-01', '2026-12-01T09:00', '1764547200000'])
      expect(() => parseNow(bad)).toThrow(NOW_ENV);
    const offset = installClockFromEnv({ [NOW_ENV]: '2026-12-01T00:00:00Z' });
    expect(offset).not.toBeNull();
    expect(new Date().toISOString().slice(0, 13)).toBe('2026-12-01T00');
    expect(installClockFromEnv({ [OFFSET_ENV]: '0', [NOW_ENV]: '2000-01-01' })).toBe(0);
    expect(Math.abs(Date.now() - machineNow())).toBeLessThan(5);
    expect(() => installClockFromEnv({ [OFFSET_ENV]: 'soon' })).toThrow(OFFSET_ENV);
  });
});
