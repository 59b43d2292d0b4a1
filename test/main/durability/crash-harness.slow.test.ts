/**
 * Crash safety over every writer (docs/decisions/0189-crash-harness.md): `finops serve` under concurrent writes of
 * customers, tags, transactions, tracker entries, invoices sent by email, bank-file imports and workflow runs, killed
 * with SIGKILL at seeded moments and restarted on the same data dir, loses nothing it acknowledged, stays whole and
 * consistent, and does nothing twice. The CI run is bounded; the long run is on demand:
 * `FINOPS_CRASH_KILLS=200 [FINOPS_CRASH_SEED=N] [FINOPS_CRASH_SYNC=1] npx vitest run
 * test/main/durability/crash-harness.slow.test.ts` (scripts/crash-harness.sh); FINOPS_CRASH_SYNC=1 adds a second
 * server as the team's remote and a `finops sync` round beside each round, killed with the server.
 *
 * @module-tag slow (spawns processes; left out of `npm run test:fast`)
 */
import { describe, expect, it } from 'vitest';
import { tmpDir } from '../../helpers/tmp';
import { runCrashHarness } from './crash-harness/harness';

const KILLS = Number(process.env.FINOPS_CRASH_KILLS ?? 8);
const SEED = Number(process.env.FINOPS_CRASH_SEED ?? 20261203);
/** A second server as the team's remote and a `finops sync` round killed with each server (slower: on demand). */
const SYNC = process.env.FINOPS_CRASH_SYNC === '1';

describe('crash harness', () => {
  it(
    `survives ${KILLS} SIGKILLs under every writer with nothing acknowledged lost or done twice`,
    async () => {
      const report = await runCrashHarness({
        dataDir: tmpDir('finops-crash-'),
        sync: SYNC && { dataDir: tmpDir('finops-crash-remote-') },
        kills: KILLS,
        seed: SEED,
        progress: (line) => process.stderr.write(`${line}\n`),
      });
      expect(report.findings).toEqual([]);
      expect(report.kills).toBe(KILLS);
      // Every writer was acknowledged at least once, or the run proved nothing about it.
      for (const [writer, n] of Object.entries(report.acknowledged)) expect(n, writer).toBeGreaterThan(0);
      if (!SYNC) expect(report.emailsSent).toBeGreaterThan(0);
    },
    60_000 + KILLS * 15_000,
  );
});
