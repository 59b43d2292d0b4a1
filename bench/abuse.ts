/**
 * Hostile files against `finops serve` over real HTTP (issue 33's figures, docs/decisions/0170): how long the
 * server takes to answer each upload, the slowest `/v1/health` answer while it does (polled every 5 ms), against
 * `/v1/health` on the idle server measured in the same run; and the server's resident memory (/proc) before, at its
 * highest while, and after a 100 KB PDF whose embedded file inflates to 100 MB is uploaded and extracted.
 * BENCH_COMPARE=/path/to/another/checkout (set up, with its own node_modules) measures that checkout's server too,
 * one after the other (a server that hangs on a file is given up on after GIVE_UP_MS).
 *
 *   node --import tsx bench/abuse.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pdfWithEmbeddedFile } from '../test/helpers/pdf-bomb';
import { createKey, ROOT, type Started, startProcess, stop } from './http';

const GIVE_UP_MS = 30_000;
const MB = 1024 * 1024;
const log = (s: string) => process.stdout.write(`${s}\n`);

const FILES: [string, string, Buffer][] = [
  ['OFX, a 24-character tag', 'a.ofx', Buffer.from(`<OFX><SIGNONMSGSRSV1><${'A'.repeat(24)}>x`)],
  ['OFX, a 26-character tag', 'a.ofx', Buffer.from(`<OFX><SIGNONMSGSRSV1><${'A'.repeat(26)}>x`)],
  ['MT940, a 32,000-brace line', 'a.sta', Buffer.from(`{1:x}{2:${'{'.repeat(32_000)}\n:20:X\n:25:Y\n:60F:C260301EUR1,00\n`)],
  [
    'CSV, an amount of 2,000 spaces',
    'a.csv',
    Buffer.from(`Datum;Betrag;Text\n01.03.2026;1${' '.repeat(2_000)}!;x\n01.03.2026;1,00;y\n`),
  ],
];

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** `GET /v1/health` answered at `url`, polled until `until` settles; the slowest answer in ms. */
async function healthWhile(url: string, until: Promise<unknown>): Promise<number> {
  let done = false;
  void until.finally(() => {
    done = true;
  });
  let worst = 0;
  while (!done) {
    const t = performance.now();
    await fetch(`${url}/v1/health`);
    worst = Math.max(worst, performance.now() - t);
    await new Promise((r) => setTimeout(r, 5));
  }
  return worst;
}

async function idleHealth(url: string): Promise<{ median: number; max: number }> {
  const ms: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    await fetch(`${url}/v1/health`);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { median: ms[100]!, max: ms[199]! };
}

async function measure(name: string, root: string): Promise<void> {
  log(`\n${name} (${root})`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'finops-bench-abuse-'));
  const key = createKey(root, dataDir, 'Bench');
  const server: Started = await startProcess(path.join(root, 'bin', 'finops'), [
    'serve',
    '--data-dir',
    dataDir,
    '--port',
    '0',
    '--rate-limit',
    '1000000000',
  ]);
  const auth = { authorization: `Bearer ${key}` };
  try {
    const account = (
      await (
        await fetch(`${server.url}/v1/bank-accounts`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Giro', currency: 'EUR' }),
        })
      ).json()
    ).id as string;
    const upload = (name: string, body: Buffer) =>
      fetch(`${server.url}/v1/imports/uploads?bankAccountId=${account}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/octet-stream', 'x-filename': name },
        body: new Uint8Array(body),
        signal: AbortSignal.timeout(GIVE_UP_MS),
      });
    // A first file, as any running server has read: its reader is up.
    await upload('warm.csv', Buffer.from('Datum;Betrag\n01.03.2026;1,00\n'));
    const idle = await idleHealth(server.url);
    log(`  /v1/health, idle: median ${idle.median.toFixed(1)} ms, slowest of 200 ${idle.max.toFixed(1)} ms`);
    for (const [what, file, body] of FILES) {
      const t = performance.now();
      const answer = upload(file, body).then(
        (r) => ({ status: r.status, ms: performance.now() - t }),
        () => ({ status: 0, ms: performance.now() - t }),
      );
      const health = await healthWhile(server.url, answer);
      const { status, ms } = await answer;
      log(
        `  ${what}: ${status || `no answer in ${GIVE_UP_MS / 1000} s`} in ${ms.toFixed(0)} ms; /v1/health at worst ${health.toFixed(0)} ms ` +
          `(${(health / idle.max).toFixed(1)} × its idle worst)`,
      );
    }
    const pid = server.child.pid!;
    const bomb = pdfWithEmbeddedFile({ inflatedBytes: 100 * MB });
    const before = rssMb(pid);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(pid));
    }, 20);
    const t = performance.now();
    const doc = await (
      await fetch(`${server.url}/v1/documents`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ fileName: 'bomb.pdf', content: bomb.toString('base64') }),
      })
    ).json();
    let status = 'pending';
    let summary: string | null = null;
    while ((status === 'pending' || status === 'processing') && performance.now() - t < GIVE_UP_MS) {
      await new Promise((r) => setTimeout(r, 100));
      const d = await (await fetch(`${server.url}/v1/documents/${doc.id}`, { headers: auth })).json();
      status = d.processingStatus;
      summary = d.summary;
    }
    clearInterval(sampler);
    const after = rssMb(pid);
    log(
      `  PDF of ${Math.round(bomb.length / 1024)} KB inflating to 100 MB: ${status} in ${((performance.now() - t) / 1000).toFixed(1)} s` +
        `${summary ? ` ("${summary}")` : ''}; server RSS ${before.toFixed(0)} MB before, ${peak.toFixed(0)} MB at most ` +
        `(+${(peak - before).toFixed(0)} MB), ${after.toFixed(0)} MB after`,
    );
  } finally {
    await stop(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  await measure('this checkout', ROOT);
  if (process.env.BENCH_COMPARE) await measure('BENCH_COMPARE', path.resolve(process.env.BENCH_COMPARE));
}

void main();
