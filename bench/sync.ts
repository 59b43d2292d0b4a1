/**
 * Sync throughput (issue 24): a remote Finops Desk server (`finops serve`, a real process) holds a team of 100,000
 * transactions (the demo writer's data set); an empty local replica runs its first round against it (the change
 * feed, over loopback HTTP), then a steady round after 100 changes on the remote. The initial round is printed as
 * records/s and as a ratio to the local import rate of the same number of bank rows measured in the same run
 * (target ≥ 0.3); the steady round in seconds (target < 0.5 s).
 *
 *   node --import tsx bench/sync.ts [--transactions 100000]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { planDemo } from '../src-main/demo/seed';
import { writeDemo } from '../src-main/demo/write';
import { commitFile } from '../src-main/import/service';
import { openDataDir } from '../src-main/runtime/data-dir';
import { createBankAccount } from '../src-main/store/bank-accounts/bank-accounts';
import { ensureRemote } from '../src-main/store/sync/remotes';
import { ensureTeam } from '../src-main/store/teams/teams';
import { staticCredential } from '../src-main/sync/credentials';
import { runRound } from '../src-main/sync/round';
import { createKey, FINOPS, ROOT, type Started, startProcess } from './http';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const N = arg('--transactions', Number(process.env.BENCH_TRANSACTIONS ?? 100_000));
const TEAM = 'Bench Sync';
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'finops-bench-sync-'));
const log = (s: string) => process.stdout.write(`${s}\n`);
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function seedRemote(dir: string): void {
  const db = openDataDir(dir);
  const team = ensureTeam(db, TEAM, { baseCurrency: 'EUR', countryCode: 'DE' });
  const data = planDemo({ seed: 'bench-sync', asOf: '2026-06-30', transactions: N });
  data.baseCurrency = 'EUR';
  writeDemo(db, team.id, data);
  // Replicas sync manual accounts; the demo's are bank connections, which flow down all the same.
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

/** The local import rate of N bank rows (a CSV into an empty manual account), in rows/s: the baseline. */
async function importRate(): Promise<number> {
  const dir = path.join(root, 'import');
  const db = openDataDir(dir);
  const team = ensureTeam(db, TEAM, { baseCurrency: 'EUR', countryCode: 'DE' });
  const account = createBankAccount(db, team.id, { name: 'Import', currency: 'EUR' });
  const lines = ['Date;Amount;Payee;Purpose'];
  for (let i = 0; i < N; i++) {
    const day = new Date(Date.UTC(2022, 0, 1) + (i % 1500) * 86_400_000).toISOString().slice(0, 10);
    lines.push(`${day};${(-((i % 9000) + 1) / 100).toFixed(2).replace('.', ',')};Shop ${i % 977};Order ${i}`);
  }
  const bytes = Buffer.from(lines.join('\n'));
  const t = performance.now();
  const r = await commitFile(db, team.id, account.id, bytes, { fileName: 'bench.csv', applyRules: false });
  const ms = performance.now() - t;
  db.close();
  log(`  local import of ${r.batch.counts.created} CSV rows: ${secs(ms)} (${Math.round(N / (ms / 1000))} rows/s)`);
  return N / (ms / 1000);
}

async function main(): Promise<void> {
  const remoteDir = path.join(root, 'remote');
  let server: Started | undefined;
  try {
    log(`seeding the remote with ${N} transactions…`);
    let t = performance.now();
    seedRemote(remoteDir);
    log(`  seeded in ${secs(performance.now() - t)}`);
    const key = createKey(ROOT, remoteDir, TEAM);
    server = await startProcess(FINOPS, ['serve', '--data-dir', remoteDir, '--port', '0']);

    log('baseline: the local import rate');
    const baseline = await importRate();

    log('initial round: an empty replica pulls the whole team');
    const localDir = path.join(root, 'local');
    const db = openDataDir(localDir);
    const team = ensureTeam(db, TEAM, { baseCurrency: 'EUR', countryCode: 'DE' });
    const remote = ensureRemote(db, team.id, { baseUrl: `${server.url}/v1`, kind: 'finops' });
    let lastShown = -1;
    t = performance.now();
    const first = await runRound({
      db,
      remote,
      credential: staticCredential(key),
      onProgress: (p) => {
        const tenth = p.total ? Math.floor((p.done / p.total) * 10) : 0;
        if (p.phase === 'pull' && tenth !== lastShown && tenth % 2 === 0) {
          lastShown = tenth;
          log(`    ${p.phase} ${p.done}/${p.total} (${secs(performance.now() - t)})`);
        }
      },
    });
    const initialMs = performance.now() - t;
    const rate = first.pulled / (initialMs / 1000);
    const txs = db.prepare('SELECT count(*) FROM transactions WHERE team_id = ?').pluck().get(team.id) as number;
    log(`  pulled ${first.pulled} records (${txs} transactions) in ${secs(initialMs)}: ${Math.round(rate)} records/s`);
    log(`  ratio to the local import rate: ${(rate / baseline).toFixed(2)} (target >= 0.3)`);

    log('steady round: 100 changes on the remote, one round');
    const ids = (
      (await (
        await fetch(`${server.url}/v1/transactions?pageSize=100`, { headers: { authorization: `Bearer ${key}` } })
      ).json()) as {
        data: { id: string }[];
      }
    ).data.map((x) => x.id);
    for (const [i, id] of ids.entries()) {
      await fetch(`${server.url}/v1/transactions/${id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ note: `steady ${i}` }),
      });
    }
    t = performance.now();
    const steady = await runRound({
      db,
      remote: ensureRemote(db, team.id, { baseUrl: `${server.url}/v1` }),
      credential: staticCredential(key),
    });
    const steadyMs = performance.now() - t;
    log(
      `  pulled ${steady.pulled}, pushed ${steady.pushed} in ${secs(steadyMs)} (${Math.round(steady.pulled / (steadyMs / 1000))} records/s; target < 0.5 s)`,
    );
    t = performance.now();
    const quiet = await runRound({
      db,
      remote: ensureRemote(db, team.id, { baseUrl: `${server.url}/v1` }),
      credential: staticCredential(key),
    });
    log(`  a quiet round: pulled ${quiet.pulled}, pushed ${quiet.pushed} in ${secs(performance.now() - t)}`);
    db.close();
  } finally {
    server?.child.kill('SIGTERM');
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
