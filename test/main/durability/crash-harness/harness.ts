import type { ServeHandle } from '../../../helpers/cli';
import { startTestSmtp } from '../../../helpers/smtp';
import { WriteLog } from './acknowledged';
import {
  checkAfterRestart,
  checkDisk,
  checkEmails,
  checkLedger,
  checkRuns,
  inFlightEmails,
  type RestartCounts,
  waitForQueues,
} from './checks';
import { readDisk } from './on-disk';
import { formatReport, type HarnessReport, tally } from './report';
import { seededRandom } from './seeded-random';
import { serveHarness } from './server';
import { connect, finishAndCheck, type SyncRemote, startRemote, startRound } from './sync-remote';
import { seedTeam } from './team';
import { runTraffic, warmUp } from './traffic';

/**
 * The crash harness (docs/decisions/0189-crash-harness.md): `finops serve` on one data dir under traffic of every
 * writer at once, killed with SIGKILL at a seeded moment of each round, checked on the file it left, restarted, and
 * checked again over the API; at the end the queues (emails, workflow runs) must drain with nothing done twice.
 */
export interface HarnessOptions {
  dataDir: string;
  kills: number;
  seed: number;
  /** The window of each kill, in ms after the round's traffic began. */
  killWindowMs?: [number, number];
  /** The Idempotency-Key lease of a killed request (plugins/idempotency.ts): held keys are retried after it. */
  keyLeaseMs?: number;
  /** A second server as the team's remote, with a `finops sync` round beside each round's traffic (default off). */
  sync?: { dataDir: string } | false;
  progress?: (line: string) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runCrashHarness(options: HarnessOptions): Promise<HarnessReport> {
  const started = Date.now();
  const { dataDir, kills, seed } = options;
  const [minMs, maxMs] = options.killWindowMs ?? [100, 2000];
  const progress = options.progress ?? (() => {});
  const random = seededRandom(seed);
  const smtp = await startTestSmtp();
  const log = new WriteLog();
  const findings: string[] = [];
  const counts: RestartCounts = { readBack: 0, replayed: 0, retried: 0, held: 0 };
  const inFlight = new Set<string>();
  const killAtMs: number[] = [];
  let checkedOnDisk = 0;
  let server: ServeHandle | undefined;
  let remote: SyncRemote | undefined;
  try {
    const team = seedTeam(dataDir, smtp.port);
    if (options.sync) {
      remote = await startRemote(options.sync.dataDir);
      findings.push(...connect(dataDir, remote));
    }
    const env = remote?.env ?? {};
    server = await serveHarness(dataDir, env);
    for (let round = 1; round <= kills; round++) {
      const roundStart = Date.now();
      const syncRound = remote ? startRound(dataDir, remote) : undefined;
      let stopped = false;
      const r = { base: server.url, team, round, random, log, stopped: () => stopped };
      // The last round's checks over the API, beside the warm-up; then the traffic, and the kill in it.
      const [checked] = await Promise.all([
        round > 1 ? checkAfterRestart(server.url, team.key, log, round - 1, counts) : [],
        warmUp(r),
      ]);
      findings.push(...checked);
      const traffic = runTraffic(r);
      const killAt = random.int(minMs, maxMs);
      killAtMs.push(killAt);
      await sleep(killAt);
      const [exit] = await Promise.all([server.stop('SIGKILL'), syncRound?.kill()]);
      server = undefined;
      stopped = true;
      await traffic;
      if (exit !== null) findings.push(`round ${round}: the server exited ${exit} before the kill`);

      const when = `after kill ${round}`;
      const t0 = Date.now();
      const disk = readDisk(dataDir, team.teamId);
      checkedOnDisk += log.acknowledged.length;
      findings.push(...checkDisk(log, disk, when));
      for (const id of inFlightEmails(smtp, disk)) inFlight.add(id);
      const t1 = Date.now();
      findings.push(...checkLedger(dataDir, when));
      const t2 = Date.now();
      server = await serveHarness(dataDir, env);
      progress(
        `kill ${round}/${kills} at ${killAt} ms: ${log.acknowledged.length} acknowledged so far, ${findings.length} findings` +
          ` (disk ${t1 - t0} ms, ledger check ${t2 - t1} ms, restart ${Date.now() - t2} ms, round ${Date.now() - roundStart} ms)`,
      );
    }

    findings.push(...(await checkAfterRestart(server.url, team.key, log, kills, counts)));
    // A key whose request was killed holds until its lease lapses: its retry is the last word on duplicates.
    const heldUntil = Date.now() + (options.keyLeaseMs ?? 30_000) + 2_000;
    while (log.toRetry.length > 0 && Date.now() < heldUntil) {
      await sleep(1_000);
      findings.push(...(await checkAfterRestart(server.url, team.key, log, kills + 1, counts)));
    }
    for (const u of log.toRetry) findings.push(`${u.writer} "${u.value}": its key still held after the lease`);
    // A team with a remote hands its emails to the remote to send (docs/decisions/0143): the sink sees them only
    // without sync; with it, each send's one delivery is what checkDisk holds.
    findings.push(...(await waitForQueues(server.url, team.key, log, 60_000, { emails: !remote })));
    const exit = await server.stop('SIGTERM');
    server = undefined;
    if (exit !== 0) findings.push(`the last server exited ${exit} on SIGTERM`);

    const disk = readDisk(dataDir, team.teamId);
    checkedOnDisk += log.acknowledged.length;
    findings.push(...checkDisk(log, disk, 'at the end'));
    findings.push(...checkLedger(dataDir, 'at the end'));
    findings.push(...checkRuns(log, disk));
    const emails = remote ? { findings: [], sent: 0, resentAfterKill: 0 } : checkEmails(smtp, log, disk, inFlight);
    findings.push(...emails.findings);
    let sync = 'off';
    if (remote) {
      const synced = finishAndCheck(dataDir, remote, log);
      findings.push(...synced.findings);
      sync = synced.summary;
    }
    const report: HarnessReport = {
      seed,
      kills,
      killAtMs,
      acknowledged: tally(log),
      checkedOnDisk,
      ...counts,
      unansweredUnkeyed: log.unansweredUnkeyed,
      carriedOut: log.carriedOut.length,
      emailsSent: emails.sent,
      emailsResentAfterKill: emails.resentAfterKill,
      sync,
      unexpectedAnswers: log.unexpectedCount,
      findings: [...log.unexpected.map((u) => `unexpected answer: ${u}`), ...findings],
      seconds: (Date.now() - started) / 1000,
    };
    progress(formatReport(report));
    return report;
  } finally {
    await server?.stop('SIGKILL');
    await remote?.server.stop();
    await smtp.close();
  }
}
