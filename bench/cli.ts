/**
 * Start-up of the command line (issue 23): `finops --help`, and `finops serve` until it answers GET /v1/health,
 * each as a multiple of a bare `node -e 0` measured in the same rounds. Everything starts through the real launcher
 * (bin/finops: bash, the project's Node, the build's freshness check), as a user starts it. The server is
 * timed on a data dir it has opened before (a restart) and on a new one (migrations run first).
 *
 * Each round times the three back to back, so the machine's drift touches them alike; the figures are the medians
 * of the rounds (ratios: the median of each round's ratio), with the interquartile range. Beside the server's wall
 * time, the CPU time its process had used when it answered (Linux, /proc): the part the machine's other load does
 * not inflate. Targets (issue 23):
 * `--help` within 4× of bare node, the server answering within 0.6 s; printed beside the figures, not enforced.
 *
 * BENCH_COMPARE=/path/to/another/checkout (set up, with its own node_modules) times that checkout's launcher too, in
 * the same rounds: "before and after" from one run.
 *
 *   npm run bench -- cli        BENCH_ROUNDS=9
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './http';
import { median, quantile } from './stats';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const HELP_TARGET_RATIO = 4;
const SERVE_TARGET_MS = 600;
/** USER_HZ: /proc reports CPU time in these ticks (100 on Linux for every architecture Node runs on). */
const CLOCK_TICKS = 100;

/** Milliseconds from spawning `cmd args` until it exits; a non-zero exit fails the bench. */
function timeExit(cmd: string, args: string[]): Promise<number> {
  const t0 = performance.now();
  const child = spawn(cmd, args, { stdio: 'ignore' });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}`));
      else resolve(performance.now() - t0);
    });
  });
}

/** CPU milliseconds (user + system) a process has used so far, where /proc tells (Linux). */
function cpuMs(pid: number | undefined): number | undefined {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/**
 * Milliseconds from spawning `finops serve` until GET /v1/health answers 200, and the CPU time the server had used
 * by then; the server is then stopped.
 */
async function timeServe(finops: string, dataDir: string): Promise<{ ms: number; cpu: number | undefined }> {
  const t0 = performance.now();
  const child = spawn(finops, ['serve', '--data-dir', dataDir, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const onData = (chunk: Buffer) => {
        out += chunk.toString();
        const m = /(http:\/\/[\d.]+:\d+)/.exec(out);
        if (m?.[1]) resolve(m[1]);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      exited.then((code) => reject(new Error(`finops serve exited with ${code}: ${out}`)));
    });
    const res = await fetch(`${url}/v1/health`);
    if (res.status !== 200) throw new Error(`/v1/health answered ${res.status}`);
    await res.arrayBuffer();
    return { ms: performance.now() - t0, cpu: cpuMs(child.pid) };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

interface Row {
  name: string;
  ms: number[];
  ratios: number[];
  cpu: number[];
}

/** A checkout under test: its launcher, the data dir its restarts open, and its rows. */
interface Subject {
  finops: string;
  opened: string;
  help: Row;
  restart: Row;
  fresh: Row;
}

function subject(label: string, root: string, tmp: string): Subject {
  const row = (what: string): Row => ({ name: `${label}${what}`, ms: [], ratios: [], cpu: [] });
  return {
    finops: path.join(root, 'bin', 'finops'),
    opened: fs.mkdtempSync(path.join(tmp, 'opened-')),
    help: row('finops --help'),
    restart: row('finops serve → /v1/health (restart)'),
    fresh: row('finops serve → /v1/health (new data dir)'),
  };
}

function summary(xs: number[], digits: number): string {
  return `${median(xs).toFixed(digits)} (IQR ${quantile(xs, 0.25).toFixed(digits)}–${quantile(xs, 0.75).toFixed(digits)})`;
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'finops-bench-cli-'));
  const compare = process.env.BENCH_COMPARE;
  const subjects = [subject('', ROOT, tmp), ...(compare ? [subject(`[${path.basename(compare)}] `, compare, tmp)] : [])];
  try {
    // Warm-up: builds the CLI if it is stale, fills the file cache, migrates the data dir the restarts use.
    for (const s of subjects) {
      await timeExit(s.finops, ['--help']);
      await timeServe(s.finops, s.opened);
    }
    await timeExit(process.execPath, ['-e', '0']);

    const bare: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const node = await timeExit(process.execPath, ['-e', '0']);
      bare.push(node);
      for (const s of subjects) {
        const timings: [Row, { ms: number; cpu?: number | undefined }][] = [
          [s.help, { ms: await timeExit(s.finops, ['--help']) }],
          [s.restart, await timeServe(s.finops, s.opened)],
          [s.fresh, await timeServe(s.finops, fs.mkdtempSync(path.join(tmp, 'new-')))],
        ];
        for (const [row, { ms, cpu }] of timings) {
          row.ms.push(ms);
          row.ratios.push(ms / node);
          if (cpu !== undefined) row.cpu.push(cpu);
        }
      }
    }

    const width = Math.max(...subjects.map((s) => s.fresh.name.length)) + 1;
    console.log(`${ROUNDS} rounds, Node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0]?.toFixed(2)}`);
    console.log(`${'node -e 0'.padEnd(width)} ${summary(bare, 0)} ms`);
    for (const row of subjects.flatMap((s) => [s.help, s.restart, s.fresh])) {
      const cpu = row.cpu.length ? `   CPU ${summary(row.cpu, 0)} ms` : '';
      console.log(`${row.name.padEnd(width)} ${summary(row.ms, 0)} ms   ${summary(row.ratios, 1)} × bare node${cpu}`);
    }
    const [own] = subjects as [Subject];
    const helpRatio = median(own.help.ratios);
    const serveMs = median(own.restart.ms);
    console.log(
      `targets: --help ≤ ${HELP_TARGET_RATIO}× bare node: ${helpRatio.toFixed(1)}× (${helpRatio <= HELP_TARGET_RATIO ? 'met' : 'missed'}); ` +
        `server answering ≤ ${SERVE_TARGET_MS} ms: ${serveMs.toFixed(0)} ms (${serveMs <= SERVE_TARGET_MS ? 'met' : 'missed'})`,
    );
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
