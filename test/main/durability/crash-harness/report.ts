import { WRITERS, type WriteLog } from './acknowledged';

/** What one harness run did and found, printed at its end and asserted by the test. */
export interface HarnessReport {
  seed: number;
  kills: number;
  /** The kill moments, in ms after each round's traffic began. */
  killAtMs: number[];
  acknowledged: Record<string, number>;
  /** Acknowledged writes checked on disk after each kill, summed over the kills. */
  checkedOnDisk: number;
  readBack: number;
  replayed: number;
  retried: number;
  held: number;
  unansweredUnkeyed: number;
  /** Retries refused as "carried out, its answer lost" (the change made once, never twice). */
  carriedOut: number;
  emailsSent: number;
  emailsResentAfterKill: number;
  /** The last sync round's summary and the records checked on the remote, or 'off'. */
  sync: string;
  unexpectedAnswers: number;
  findings: string[];
  seconds: number;
}

export function tally(log: WriteLog): Record<string, number> {
  return Object.fromEntries(WRITERS.map((w) => [w, log.byWriter(w).length]));
}

export function formatReport(r: HarnessReport): string {
  const total = Object.values(r.acknowledged).reduce((a, b) => a + b, 0);
  const lines = [
    `crash harness: seed ${r.seed}, ${r.kills} SIGKILLs survived in ${r.seconds.toFixed(1)} s (kills at ${r.killAtMs.join(', ')} ms)`,
    `  acknowledged ${total}: ${Object.entries(r.acknowledged)
      .map(([w, n]) => `${w} ${n}`)
      .join(', ')}`,
    `  checked on disk after the kills ${r.checkedOnDisk}, read back over the API ${r.readBack}, replayed ${r.replayed}`,
    `  in flight at a kill: ${r.retried} sent again with their key (${r.carriedOut} refused as carried out with the answer lost, ${r.held} held while the dead request's key was), ${r.unansweredUnkeyed} without a key not sent again`,
    r.sync === 'off'
      ? `  emails at the sink ${r.emailsSent} (${r.emailsResentAfterKill} sent again after a kill between the 250 and its commit)`
      : '  emails: relayed through the remote (sync on), so not counted at the sink',
    `  sync with a second server: ${r.sync}`,
    `  unexpected answers ${r.unexpectedAnswers}; findings ${r.findings.length}${r.findings.length ? ':' : ''}`,
    ...r.findings.slice(0, 30).map((f) => `    - ${f}`),
  ];
  return lines.join('\n');
}
