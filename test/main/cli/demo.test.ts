/**
 * @module-tag calendar (runs again on the awkward days: scripts/clock-matrix.sh)
 */
// @module-tag slow (spawns processes; left out of `npm run test:fast`)
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DEMO_MONTHS } from '../../../src-main/demo/context';
import { runCli } from '../../helpers/cli';
import { tmpDir } from '../../helpers/tmp';

const SUMMARY = /^Demo Agency: 3 bank accounts, 150 customers, \d+ tags, \d+ categories, (\d+) transactions, \d+ invoices, .*\n$/;

describe('finops demo', () => {
  it.each([
    [['--bogus'], /unknown option '--bogus'/],
    [['--transactions', 'abc'], /--transactions.*invalid/],
    [['--transactions', '0'], /--transactions.*invalid/],
    [['--transactions', '10'], /--transactions must be at least \d+/],
    [['--as-of', '2026-02-30'], /--as-of.*invalid/],
  ])('finops demo %j exits 2 with a one-line message and writes nothing', (args, message) => {
    const dir = tmpDir();
    const r = runCli(['demo', '--data-dir', dir, ...args]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
    expect(fs.existsSync(`${dir}/finops.sqlite`)).toBe(false);
  });

  it('--transactions 20000 seeds exactly that many; a second run is refused (exit 1) unless --replace', () => {
    const dir = tmpDir();
    const first = runCli(['demo', '--data-dir', dir, '--transactions', '20000', '--seed', '3', '--as-of', '2026-11-22']);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(SUMMARY);
    expect(SUMMARY.exec(first.stdout)?.[1]).toBe('20000');
    const db = new Database(`${dir}/finops.sqlite`, { readonly: true });
    try {
      const team = db.prepare("SELECT id FROM teams WHERE name = 'Demo Agency'").pluck().get();
      expect(db.prepare('SELECT COUNT(*) FROM transactions WHERE team_id = ?').pluck().get(team)).toBe(20000);
      const months = db.prepare('SELECT COUNT(DISTINCT substr(date, 1, 7)) FROM transactions').pluck().get();
      expect(months).toBe(DEMO_MONTHS);
    } finally {
      db.close();
    }

    const again = runCli(['demo', '--data-dir', dir]);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/^error: team "Demo Agency" already has data; pass --replace/);
    expect(again.stdout).toBe('');

    const replaced = runCli(['demo', '--data-dir', dir, '--replace', '--as-of', '2026-11-22']);
    expect(replaced.status).toBe(0);
    expect(replaced.stderr).toMatch(/deleted \d+ records/);
    const n = Number(SUMMARY.exec(replaced.stdout)?.[1]);
    expect(n).toBeGreaterThan(2000);
    expect(n).toBeLessThan(20000);
  });
});

describe('finops demo on a team that syncs', () => {
  it('refuses, so demo data never reaches the remote and --replace never pushes a wipe; after disconnect it seeds', async () => {
    const dir = tmpDir();
    const { openDatabase } = await import('../../../src-main/store/db');
    const { ensureTeam } = await import('../../../src-main/store/teams/teams');
    const { ensureRemote } = await import('../../../src-main/store/sync/remotes');
    const db = openDatabase(dir);
    ensureRemote(db, ensureTeam(db, 'Demo Agency').id, { baseUrl: 'http://127.0.0.1:9/v1' });
    db.close();
    for (const args of [[], ['--replace']]) {
      const r = runCli(['demo', '--data-dir', dir, '--as-of', '2026-11-22', ...args]);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain('syncs with http://127.0.0.1:9/v1: demo data would be sent there');
    }
    expect(runCli(['sync', 'disconnect', '--data-dir', dir, '--team', 'Demo Agency']).stdout).toBe(
      'disconnected from http://127.0.0.1:9/v1\n',
    );
    expect(runCli(['demo', '--data-dir', dir, '--as-of', '2026-11-22']).status).toBe(0);
  });
});
