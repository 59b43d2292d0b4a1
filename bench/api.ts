/**
 * API throughput benchmark (issue 3): GET /v1/customers/{id}, GET /v1/customers (a page of 50 from 10,000) and
 * POST /v1/customers against the real server (auth, scopes, rate-limit bookkeeping, validation, SQLite with
 * synchronous=FULL), each as a ratio to a bare fastify route returning the same JSON bytes, measured in the same run.
 * The reads are measured twice: as the product runs (GET response cache on, exact by construction: see
 * docs/decisions/0012) and with the cache off (`--response-cache-mb 0`, a second server process on the same
 * file), which is what every read costs right after a write.
 *
 * Method (docs/decisions/0006): this machine is shared and its speed drifts by up to 2× within a minute, so a ratio
 * comes from many short rounds, each timing the baseline and then the server back to back; the figure is the median
 * of the rounds' ratios, printed with their interquartile range. On a machine with two or more cores the servers run
 * pinned to one core and the load generator (autocannon, in this process) to another, so neither steals the other's
 * time. Nothing here is a pass/fail target; the ratios are compared across commits.
 *
 * BENCH_COMPARE=/path/to/another/checkout (set up, with its own node_modules) measures that checkout's server too,
 * in the same rounds against a baseline answering its own bytes: "before and after" from one run.
 *
 *   npm run bench -- api            BENCH_ROUNDS=12 BENCH_SECONDS=1.5 BENCH_CUSTOMERS=10000
 *   BENCH_ONLY=POST npm run bench -- api      only the routes whose name contains the text
 *   BENCH_WRITE_CONNECTIONS=50                the concurrent clients of the POST case (group commit, decision 0187)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import { type CpuPinning, cpuPinning, createKey, measure, type Started, startProcess, stop } from './http';
import { median, quantile } from './stats';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 1.5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 10_000);
const WARMUP_SECONDS = 3;
const ROOT = path.resolve(__dirname, '..');

/** One checkout under test: its servers (cache on and off) and a baseline answering its own bytes. */
interface Subject {
  name: string;
  dataDir: string;
  key: string;
  ids: string[];
  real: Started;
  uncached: Started;
  baseline: Started;
  posted: number;
}

async function seed(url: string, key: string): Promise<string[]> {
  const ids: string[] = [];
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const countries = ['DE', 'FR', 'NL', 'SE', 'US', 'GB', 'ES', 'IT'];
  let next = 0;
  const worker = async () => {
    while (next < CUSTOMERS) {
      const i = next++;
      const res = await fetch(`${url}/v1/customers`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: `Customer ${i}`, email: `c${i}@example.com`, countryCode: countries[i % countries.length] }),
      });
      if (res.status !== 201) throw new Error(`seed failed: ${res.status} ${await res.text()}`);
      ids.push(((await res.json()) as { id: string }).id);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return ids;
}

/** `finops serve` of a checkout (its own launcher, so its own code and node_modules) on the pinned core. */
function serveFrom(root: string, dataDir: string, pin: CpuPinning, ...extra: string[]): Promise<Started> {
  const finops = path.join(root, 'bin', 'finops');
  return startProcess(
    ...pin.server(finops, ['serve', '--data-dir', dataDir, '--port', '0', '--rate-limit', '1000000000', ...extra]),
  );
}

async function subject(name: string, root: string, pin: CpuPinning): Promise<Subject> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'finops-bench-'));
  const key = createKey(root, dataDir, 'Bench');
  const real = await serveFrom(root, dataDir, pin);
  const t0 = performance.now();
  const ids = await seed(real.url, key);
  process.stderr.write(`${name}: seeded ${ids.length} customers in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  const auth = { authorization: `Bearer ${key}` };
  const byId = await (await fetch(`${real.url}/v1/customers/${ids[0]}`, { headers: auth })).text();
  const page = await (await fetch(`${real.url}/v1/customers?pageSize=50`, { headers: auth })).text();
  const created = await (
    await fetch(`${real.url}/v1/customers`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Sample', email: 'sample@example.com' }),
    })
  ).text();
  const payloadFile = path.join(dataDir, 'payloads.json');
  fs.writeFileSync(payloadFile, JSON.stringify({ byId, page, created }));
  // The baseline is this checkout's bench/baseline-server.ts for every subject: only the bytes differ.
  const baseline = await startProcess(
    ...pin.server(process.execPath, ['--import', 'tsx', path.join(__dirname, 'baseline-server.ts'), payloadFile]),
  );
  const uncached = await serveFrom(root, dataDir, pin, '--response-cache-mb', '0');
  return { name, dataDir, key, ids, real, uncached, baseline, posted: 0 };
}

interface Case {
  name: string;
  server: (s: Subject) => Started;
  opts: (s: Subject, base: string) => autocannon.Options;
}

const byId = (s: Subject, base: string): autocannon.Options => ({
  url: base,
  headers: { authorization: `Bearer ${s.key}` },
  requests: [
    { method: 'GET', setupRequest: (r) => ({ ...r, path: `/v1/customers/${s.ids[Math.floor(Math.random() * s.ids.length)]}` }) },
  ],
});
const page = (s: Subject, base: string): autocannon.Options => ({
  url: `${base}/v1/customers?pageSize=50`,
  headers: { authorization: `Bearer ${s.key}` },
});
/** Writes under 50 concurrent clients: what group commit is for (docs/decisions/0187). */
const WRITE_CONNECTIONS = Number(process.env.BENCH_WRITE_CONNECTIONS ?? 50);
const create = (s: Subject, base: string): autocannon.Options => ({
  url: `${base}/v1/customers`,
  connections: WRITE_CONNECTIONS,
  method: 'POST',
  headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' },
  requests: [
    {
      method: 'POST',
      setupRequest: (r) => {
        const i = s.posted++;
        return { ...r, body: JSON.stringify({ name: `Bench ${i}`, email: `bench${i}@example.com`, countryCode: 'DE' }) };
      },
    },
  ],
});

const ALL_CASES: Case[] = [
  { name: 'GET /v1/customers/{id}', server: (s) => s.real, opts: byId },
  { name: '  same, response cache off', server: (s) => s.uncached, opts: byId },
  { name: 'GET /v1/customers (50 of 10k)', server: (s) => s.real, opts: page },
  { name: '  same, response cache off', server: (s) => s.uncached, opts: page },
  { name: `POST /v1/customers (${WRITE_CONNECTIONS} clients)`, server: (s) => s.real, opts: create },
];

/** The cases to run (BENCH_ONLY picks by name; a "same, cache off" line belongs to the route above it). */
const CASES = ALL_CASES.filter((c, i) => {
  const only = process.env.BENCH_ONLY;
  if (!only) return true;
  const route = c.name.trim().startsWith('same') ? (ALL_CASES[i - 1]?.name ?? '') : c.name;
  return route.includes(only) || c.name.includes(only);
});

interface Row {
  baseline: number;
  real: number;
  ratio: number;
  q1: number;
  q3: number;
}

async function measureCase(c: Case, subjects: readonly Subject[]): Promise<Row[]> {
  // Warm-up (JIT, SQLite page cache, the response cache) for every process, unmeasured: ratios are of steady states.
  for (const s of subjects) {
    await measure({ title: `${c.name} baseline warm-up`, ...c.opts(s, s.baseline.url) }, WARMUP_SECONDS);
    await measure({ title: `${c.name} warm-up`, ...c.opts(s, c.server(s).url) }, WARMUP_SECONDS);
  }
  const samples = subjects.map(() => ({ baseline: [] as number[], real: [] as number[], ratios: [] as number[] }));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, s] of subjects.entries()) {
      const b = await measure({ title: `${c.name} baseline`, ...c.opts(s, s.baseline.url) }, SECONDS);
      const r = await measure({ title: c.name, ...c.opts(s, c.server(s).url) }, SECONDS);
      const into = samples[i];
      if (!into) continue;
      into.baseline.push(b);
      into.real.push(r);
      into.ratios.push(r / b);
    }
  }
  return samples.map((x) => ({
    baseline: median(x.baseline),
    real: median(x.real),
    ratio: median(x.ratios),
    q1: quantile(x.ratios, 0.25),
    q3: quantile(x.ratios, 0.75),
  }));
}

/** Two decimals, three for the small ratios of writes (0.021, not 0.02). */
const fmt = (ratio: number) => ratio.toFixed(ratio < 0.1 ? 3 : 2);

async function main(): Promise<void> {
  const pin = cpuPinning();
  const compare = process.env.BENCH_COMPARE ? path.resolve(process.env.BENCH_COMPARE) : undefined;
  const subjects: Subject[] = [];
  try {
    subjects.push(await subject('this checkout', ROOT, pin));
    if (compare) subjects.push(await subject(path.basename(compare), compare, pin));
    const rows: Row[][] = [];
    for (const c of CASES) {
      rows.push(await measureCase(c, subjects));
      process.stderr.write(`${c.name.trim()}: done\n`);
    }

    console.log(
      `\nAPI throughput: ${ROUNDS} rounds of ${SECONDS} s per side, baseline and server back to back in each, ` +
        `${os.cpus().length} cores, ${pin.description}`,
    );
    console.log('ratio = median over the rounds of server req/s ÷ baseline req/s [interquartile range]');
    for (const [i, s] of subjects.entries()) {
      if (subjects.length > 1) console.log(`\n${s.name}${i === 0 ? ` (${ROOT})` : ` (${compare})`}`);
      console.log(`${'route'.padEnd(34)}${'baseline req/s'.padStart(16)}${'real req/s'.padStart(12)}${'ratio'.padStart(8)}  IQR`);
      for (const [k, c] of CASES.entries()) {
        const row = rows[k]?.[i];
        if (!row) continue;
        console.log(
          `${c.name.padEnd(34)}${row.baseline.toFixed(0).padStart(16)}${row.real.toFixed(0).padStart(12)}` +
            `${fmt(row.ratio).padStart(8)}  ${fmt(row.q1)}–${fmt(row.q3)}`,
        );
      }
    }
    if (subjects.length > 1) {
      console.log(`\nthis checkout ÷ ${subjects[1]?.name}, ratio by ratio:`);
      for (const [k, c] of CASES.entries()) {
        const [mine, theirs] = rows[k] ?? [];
        if (mine && theirs) console.log(`${c.name.padEnd(34)}${(mine.ratio / theirs.ratio).toFixed(2).padStart(8)}`);
      }
    }
  } finally {
    await stop(...subjects.flatMap((s) => [s.baseline, s.uncached, s.real]));
    for (const s of subjects) fs.rmSync(s.dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
