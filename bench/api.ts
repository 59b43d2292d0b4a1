/**
 * API throughput benchmark (issue 3): GET /v1/customers/{id}, GET /v1/customers (a page of 50 from 10,000) and
 * POST /v1/customers against the real server (auth, scopes, rate-limit bookkeeping, validation, SQLite with
 * synchronous=FULL), each as a ratio to a bare fastify route returning the same JSON, measured in the same run.
 * The reads are measured twice: as the product runs (GET response cache on, exact by construction: see
 * docs/decisions/0012) and with the cache off (`--response-cache-mb 0`, a second server process on the same
 * file), which is what every read costs right after a write. Servers and baseline run as separate processes; the
 * load generator (autocannon) runs in this one. Rounds alternate baseline/real so that drift in machine load hits
 * both alike.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import { CONNECTIONS, measure, serve as serveOn, startProcess } from './http';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 10_000);
const WARMUP_SECONDS = 2;
const ROOT = path.resolve(__dirname, '..');

const run = (opts: autocannon.Options, seconds = SECONDS) => measure(opts, seconds);

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

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'finops-bench-'));
  const finops = path.join(ROOT, 'bin', 'finops');
  const created = spawn(finops, ['token', 'create', '--data-dir', dataDir, '--team', 'Bench'], { cwd: ROOT });
  const key = await new Promise<string>((resolve) => {
    let out = '';
    created.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    created.once('exit', () => resolve(out.trim()));
  });
  const serve = (...extra: string[]) => serveOn(dataDir, ...extra);
  const real = await serve();
  const payloadFile = path.join(dataDir, 'payloads.json');
  let baseline: { child: ChildProcess; url: string } | undefined;
  let uncached: { child: ChildProcess; url: string } | undefined;
  try {
    const t0 = performance.now();
    const ids = await seed(real.url, key);
    process.stderr.write(`seeded ${ids.length} customers in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    const auth = { authorization: `Bearer ${key}` };
    const byId = await (await fetch(`${real.url}/v1/customers/${ids[0]}`, { headers: auth })).text();
    const page = await (await fetch(`${real.url}/v1/customers?pageSize=50`, { headers: auth })).text();
    const createdBody = await (
      await fetch(`${real.url}/v1/customers`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Sample', email: 'sample@example.com' }),
      })
    ).text();
    fs.writeFileSync(payloadFile, JSON.stringify({ byId, page, created: createdBody }));
    baseline = await startProcess(process.execPath, ['--import', 'tsx', path.join(__dirname, 'baseline-server.ts'), payloadFile]);
    uncached = await serve('--response-cache-mb', '0');
    const realUrl = real.url;
    const uncachedUrl = uncached.url;

    let posted = 0;
    const byIdOpts = (base: string): autocannon.Options => ({
      url: base,
      headers: auth,
      requests: [
        {
          method: 'GET',
          setupRequest: (r) => ({ ...r, path: `/v1/customers/${ids[Math.floor(Math.random() * ids.length)]}` }),
        },
      ],
    });
    const pageOpts = (base: string): autocannon.Options => ({ url: `${base}/v1/customers?pageSize=50`, headers: auth });
    const cases: { name: string; server: string; opts: (base: string) => autocannon.Options }[] = [
      { name: 'GET /v1/customers/{id}', server: realUrl, opts: byIdOpts },
      { name: '  same, response cache off', server: uncachedUrl, opts: byIdOpts },
      { name: 'GET /v1/customers (50 of 10k)', server: realUrl, opts: pageOpts },
      { name: '  same, response cache off', server: uncachedUrl, opts: pageOpts },
      {
        name: 'POST /v1/customers',
        server: realUrl,
        opts: (base) => ({
          url: `${base}/v1/customers`,
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          requests: [
            {
              method: 'POST',
              setupRequest: (r) => {
                const i = posted++;
                return { ...r, body: JSON.stringify({ name: `Bench ${i}`, email: `bench${i}@example.com`, countryCode: 'DE' }) };
              },
            },
          ],
        }),
      },
    ];

    const rows: { name: string; baseline: number; real: number; ratio: number }[] = [];
    for (const c of cases) {
      const b: number[] = [];
      const r: number[] = [];
      // Warm-up (JIT, SQLite page cache) for both, unmeasured: the ratio is of steady states.
      await run({ title: `${c.name} baseline warm-up`, ...c.opts(baseline.url) }, WARMUP_SECONDS);
      await run({ title: `${c.name} real warm-up`, ...c.opts(c.server) }, WARMUP_SECONDS);
      for (let round = 0; round < ROUNDS; round++) {
        b.push(await run({ title: `${c.name} baseline`, ...c.opts(baseline.url) }));
        r.push(await run({ title: `${c.name} real`, ...c.opts(c.server) }));
      }
      const avg = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
      rows.push({ name: c.name, baseline: avg(b), real: avg(r), ratio: avg(r) / avg(b) });
      process.stderr.write(`${c.name}: done\n`);
    }

    console.log(`\nAPI throughput (${CONNECTIONS} connections, ${SECONDS}s x ${ROUNDS} rounds each, ${os.cpus().length} cores)`);
    console.log('route'.padEnd(34) + 'baseline req/s'.padStart(16) + 'real req/s'.padStart(14) + 'ratio'.padStart(8));
    for (const row of rows) {
      console.log(
        row.name.padEnd(34) +
          row.baseline.toFixed(0).padStart(16) +
          row.real.toFixed(0).padStart(14) +
          row.ratio.toFixed(2).padStart(8),
      );
    }
    const byIdRow = rows[0];
    if (byIdRow) {
      console.log(`target: GET by id ratio >= 0.60 (as served, cache on) — ${byIdRow.ratio >= 0.6 ? 'met' : 'NOT met'}`);
    }
  } finally {
    baseline?.child.kill('SIGTERM');
    uncached?.child.kill('SIGTERM');
    real.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
