/**
 * Shared pieces of the HTTP benchmarks: starting the real server (and other processes that print their URL),
 * creating an API key with the CLI, and one autocannon measurement. Every HTTP bench prints ratios against a bare
 * fastify baseline answering the same bytes, measured in the same run (never absolute targets: this machine is
 * shared and noisy).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { ALLOW_PRIVATE_HOSTS_ENV } from '../src-main/operator/settings';

// A bench is the operator of the servers it starts on loopback: its sync rounds reach them as a team's remote
// (refused by default since the outbound guard, docs/decisions/0191), and the processes it starts inherit this.
process.env[ALLOW_PRIVATE_HOSTS_ENV] ??= '127.0.0.0/8,::1,localhost';

export const ROOT = path.resolve(__dirname, '..');
export const FINOPS = path.join(ROOT, 'bin', 'finops');
export const CONNECTIONS = 10;

export interface Started {
  child: ChildProcess;
  url: string;
}

/** Starts a process and resolves with the first http://host:port it prints on stdout. */
export function startProcess(cmd: string, args: string[]): Promise<Started> {
  const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /(http:\/\/[\d.]+:\d+)/.exec(out);
      if (m?.[1]) resolve({ child, url: m[1] });
    });
    child.once('exit', (code) => reject(new Error(`${cmd} exited with ${code}: ${out}`)));
  });
}

/** A new API key for `team` on a data dir, made by the CLI of the checkout at `root`. */
export function createKey(root: string, dataDir: string, team: string): string {
  const r = spawnSync(path.join(root, 'bin', 'finops'), ['token', 'create', '--data-dir', dataDir, '--team', team], {
    cwd: root,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`finops token create failed (${r.status}): ${r.stderr}`);
  return r.stdout.trim();
}

/**
 * Where the processes of a benchmark run. With two or more cores and `taskset` (util-linux), the measured servers
 * share the first core and this process, the load generator, takes the second: the server's time is then its own,
 * not whatever the load generator and the machine's other work leave it. Elsewhere nothing is pinned.
 */
export interface CpuPinning {
  description: string;
  /** The command line that starts `cmd args` on the servers' core. */
  server(cmd: string, args: string[]): [string, string[]];
}

export function cpuPinning(): CpuPinning {
  const unpinned: CpuPinning = { description: 'nothing pinned', server: (cmd, args) => [cmd, args] };
  if (os.cpus().length < 2 || process.env.BENCH_PIN === '0') return unpinned;
  // -a: every thread of this process (autocannon's sockets are served by the main thread and libuv's pool).
  const self = spawnSync('taskset', ['-a', '-pc', '1', String(process.pid)], { encoding: 'utf8' });
  if (self.status !== 0) return unpinned;
  return {
    description: 'servers on CPU 0, load generator on CPU 1',
    server: (cmd, args) => ['taskset', ['-c', '0', cmd, ...args]],
  };
}

/** `finops serve` on a data dir with an effectively unlimited rate limit. */
export function serve(dataDir: string, ...extra: string[]): Promise<Started> {
  return startProcess(FINOPS, ['serve', '--data-dir', dataDir, '--port', '0', '--rate-limit', '1000000000', ...extra]);
}

/** Runs the CLI and returns its stdout (throws with stderr on failure). */
export function cli(args: string[]): string {
  const r = spawnSync(FINOPS, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`finops ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

/** Average requests per second of one autocannon run; any failed request fails the bench. */
export function measure(opts: autocannon.Options, seconds: number): Promise<number> {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, ...opts, duration: seconds }, (err, result) => {
      if (err) return reject(err);
      const bad = result.non2xx + result.errors + result.timeouts;
      if (bad > 0) return reject(new Error(`${opts.title}: ${bad} failed requests of ${result.requests.total}`));
      resolve(result.requests.average);
    });
  });
}

export async function stop(...processes: (Started | undefined)[]): Promise<void> {
  for (const p of processes) p?.child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 300));
}
