/**
 * The first round of a team with data against a new, empty remote (issue 34): the demo team (`finops demo`'s data
 * set) on this replica, a fresh `finops serve` team as the remote (a real process, loopback HTTP), one round — the
 * push-heavy case a new user meets from the Sync screen. Prints the round's time, records pushed per second, the
 * requests it made by method and path, and where the time went by phase; then a second round (what is left), and
 * the conflicts the first round recorded. Both kinds: a Finops Desk remote, and a `--spec-only` one synced as
 * `hosted`.
 *
 *   node --import tsx bench/sync-first-round.ts [--kind finops|hosted|both] [--rate-limit N]
 */
import diagnostics from 'node:diagnostics_channel';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { planDemo } from '../src-main/demo/seed';
import { writeDemo } from '../src-main/demo/write';
import { openDataDir } from '../src-main/runtime/data-dir';
import { ensureRemote, type RemoteKind } from '../src-main/store/sync/remotes';
import { ensureTeam } from '../src-main/store/teams/teams';
import { staticCredential } from '../src-main/sync/credentials';
import { runRound } from '../src-main/sync/round';
import { createKey, FINOPS, ROOT, type Started, startProcess } from './http';

const TEAM = 'Demo Agency';
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'finops-bench-first-round-'));
const log = (s: string) => process.stdout.write(`${s}\n`);
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const option = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const kindArg = option('--kind') ?? 'both';
/** The remote's requests per minute per credential (default: `finops serve`'s own default). */
const rateLimit = option('--rate-limit');

/**
 * Requests by method and path shape (ids folded), counted from undici's diagnostics channel: the round's requests go
 * through the outbound guard's own undici dispatcher (src-main/outbound/fetch.ts), not the global fetch.
 */
function countRequests(): { counts: Map<string, number>; restore: () => void } {
  const counts = new Map<string, number>();
  const onCreate = (message: unknown) => {
    const { request } = message as { request: { method: string; path: string } };
    const pathname = request.path.split('?')[0]!;
    const shape = pathname.replace(/\/v1/, '').replace(/\/[0-9a-f-]{20,}|\/[A-Za-z0-9_-]{21,}/g, '/:id');
    const key = `${request.method} ${shape}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  diagnostics.subscribe('undici:request:create', onCreate);
  return { counts, restore: () => diagnostics.unsubscribe('undici:request:create', onCreate) };
}

async function firstRound(kind: RemoteKind): Promise<void> {
  const remoteDir = path.join(root, `remote-${kind}`);
  const remoteDb = openDataDir(remoteDir);
  ensureTeam(remoteDb, TEAM, { baseCurrency: 'EUR', countryCode: 'DE' });
  remoteDb.close();
  const key = createKey(ROOT, remoteDir, TEAM);
  let server: Started | undefined;
  try {
    // The server's defaults, its rate limit per credential included: what a person's round meets.
    server = await startProcess(FINOPS, [
      'serve',
      '--data-dir',
      remoteDir,
      '--port',
      '0',
      ...(rateLimit ? ['--rate-limit', rateLimit] : []),
      ...(kind === 'hosted' ? ['--spec-only'] : []),
    ]);
    const localDir = path.join(root, `local-${kind}`);
    const db = openDataDir(localDir);
    const team = ensureTeam(db, TEAM, { baseCurrency: 'EUR', countryCode: 'DE' });
    const data = planDemo({});
    data.baseCurrency = 'EUR';
    writeDemo(db, team.id, data);
    const remote = ensureRemote(db, team.id, { baseUrl: `${server.url}/v1`, kind });
    const phases = new Map<string, number>();
    let phase = 'starting';
    let since = performance.now();
    const { counts, restore } = countRequests();
    const t = performance.now();
    let result: Awaited<ReturnType<typeof runRound>> | undefined;
    let failure: unknown;
    try {
      result = await runRound({
        db,
        remote,
        credential: staticCredential(key),
        onProgress: (p) => {
          const name = p.phase.startsWith('walk') ? 'walk' : p.phase;
          if (name === phase) return;
          phases.set(phase, (phases.get(phase) ?? 0) + performance.now() - since);
          phase = name;
          since = performance.now();
        },
      });
    } catch (err) {
      failure = err;
    }
    phases.set(phase, (phases.get(phase) ?? 0) + performance.now() - since);
    const ms = performance.now() - t;
    restore();
    const requests = [...counts.values()].reduce((a, b) => a + b, 0);
    log(`${kind === 'finops' ? 'Finops Desk remote' : 'spec-only remote (hosted)'}: first round of the demo team`);
    if (failure) log(`  FAILED: ${failure instanceof Error ? failure.message : String(failure)}`);
    if (result) {
      log(
        `  ${secs(ms)}: pushed ${result.pushed}, pulled ${result.pulled}, conflicts ${result.conflicts} (${Math.round(result.pushed / (ms / 1000))} pushed/s)`,
      );
    }
    log(`  ${requests} requests (${(ms / Math.max(1, requests)).toFixed(1)} ms each):`);
    for (const [k, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, 12)) log(`    ${String(n).padStart(6)}  ${k}`);
    log(`  by phase: ${[...phases].map(([p, v]) => `${p} ${secs(v)}`).join(', ')}`);
    const t2 = performance.now();
    const second = await runRound({
      db,
      remote: ensureRemote(db, team.id, { baseUrl: `${server.url}/v1` }),
      credential: staticCredential(key),
    }).catch((err: unknown) => err as Error);
    if (second instanceof Error) log(`  second round FAILED: ${second.message}`);
    else
      log(
        `  second round: ${secs(performance.now() - t2)}: pushed ${second.pushed}, pulled ${second.pulled}, conflicts ${second.conflicts}`,
      );
    const open = db.prepare('SELECT count(*) FROM sync_conflicts WHERE team_id = ? AND resolved_at IS NULL').pluck().get(team.id);
    const byEntity = db
      .prepare(
        'SELECT entity, count(*) AS n FROM sync_conflicts WHERE team_id = ? AND resolved_at IS NULL GROUP BY entity ORDER BY n DESC',
      )
      .all(team.id) as { entity: string; n: number }[];
    log(`  open conflicts after two rounds: ${open} (${byEntity.map((r) => `${r.entity} ${r.n}`).join(', ') || 'none'})`);
    for (const r of db
      .prepare(
        `SELECT entity, min(rule) AS rule, count(*) AS n FROM sync_conflicts WHERE team_id = ? AND resolved_at IS NULL
         GROUP BY entity, substr(rule, 1, 60) ORDER BY n DESC LIMIT 8`,
      )
      .all(team.id) as { entity: string; rule: string; n: number }[])
      log(`    ${r.n} × ${r.entity}: ${r.rule.slice(0, 160)}`);
    db.close();
  } finally {
    server?.child.kill('SIGTERM');
  }
}

async function main(): Promise<void> {
  try {
    for (const kind of ['finops', 'hosted'] as const) if (kindArg === 'both' || kindArg === kind) await firstRound(kind);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
