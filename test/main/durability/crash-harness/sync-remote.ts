import { type ChildProcess, spawn } from 'node:child_process';
import { createApiKey } from '../../../../src-main/store/auth/api-keys';
import { openDatabase } from '../../../../src-main/store/db';
import { ensureTeam } from '../../../../src-main/store/teams/teams';
import { FINOPS_BIN, runCli, type ServeHandle, startServe } from '../../../helpers/cli';
import type { Acknowledged, WriteLog, Writer } from './acknowledged';
import { readDisk } from './on-disk';
import { TEAM } from './team';

/**
 * The sync writer: a second `finops serve` (never killed) as the team's remote, and in each round a `finops sync`
 * round on the local data dir beside the server, killed with it. At the end one clean round must finish, and the
 * remote must hold every acknowledged record the feed carries, with its value, once.
 */
export interface SyncRemote {
  dataDir: string;
  teamId: string;
  key: string;
  server: ServeHandle;
  /** What `finops serve` and `finops sync` on the local data dir need to reach it (loopback allowed, its key). */
  env: NodeJS.ProcessEnv;
}

/** Records that travel to the remote (runs, their notifications and emails stay local). */
const SYNCED: Writer[] = ['customer', 'tag', 'transaction', 'tracker-entry', 'invoice'];

export async function startRemote(dataDir: string): Promise<SyncRemote> {
  const db = openDatabase(dataDir);
  let teamId: string;
  let key: string;
  try {
    teamId = ensureTeam(db, 'Harness remote').id;
    key = createApiKey(db, { teamId, name: 'replica', scopes: ['apis.all'] }).key;
  } finally {
    db.close();
  }
  const server = await startServe(['--data-dir', dataDir, '--rate-limit', '1000000000']);
  const host = new URL(server.url).host;
  const env = { FINOPS_ALLOW_PRIVATE_HOSTS: '127.0.0.1', FINOPS_REMOTE_TOKEN: key, FINOPS_REMOTE_TOKEN_HOST: host };
  return { dataDir, teamId, key, server, env };
}

function syncArgs(localDir: string, remote: SyncRemote): string[] {
  return ['sync', '--data-dir', localDir, '--team', TEAM, '--remote', `${remote.server.url}/v1`, '--token', remote.key];
}

/** Connects the local team (a first round, before any server runs on the data dir). */
export function connect(localDir: string, remote: SyncRemote): string[] {
  const r = runCli(syncArgs(localDir, remote), remote.env);
  return r.status === 0 ? [] : [`the first sync round failed: ${r.stderr.slice(-500)}`];
}

/** A round in the background; `kill` ends it with SIGKILL if it still runs. */
export function startRound(localDir: string, remote: SyncRemote): { kill(): Promise<void> } {
  const child: ChildProcess = spawn(FINOPS_BIN, syncArgs(localDir, remote), {
    env: { ...process.env, ...remote.env },
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** The clean round at the end (no server on the local data dir), then the remote as it holds the team's records. */
export function finishAndCheck(localDir: string, remote: SyncRemote, log: WriteLog): { findings: string[]; summary: string } {
  const r = runCli(syncArgs(localDir, remote), remote.env);
  const summary = r.stdout.trim();
  const findings: string[] = [];
  if (r.status !== 0) findings.push(`the last sync round exited ${r.status}: ${r.stderr.slice(-500)}`);
  if (!/conflicts 0$/.test(summary)) findings.push(`the last sync round: ${summary}`);
  const disk = readDisk(remote.dataDir, remote.teamId);
  const synced = log.acknowledged.filter((a: Acknowledged) => SYNCED.includes(a.writer));
  for (const a of synced) {
    const there = disk.values[a.writer].get(a.id);
    if (there !== a.value) findings.push(`the remote lacks ${a.writer} ${a.id} "${a.value}": ${there ?? 'absent'}`);
  }
  for (const w of SYNCED) {
    for (const [value, n] of disk.copies[w]) if (n > 1) findings.push(`the remote holds ${w} "${value}" ${n} times`);
  }
  return { findings, summary: `${summary}; ${synced.length} acknowledged records checked on the remote` };
}
