/**
 * Transactions list benchmark (the Ledger issue): on a team with 1,000,000 transactions (`finops demo
 * --transactions 1000000`), 50-row pages of GET /v1/transactions — the default order, a category + date filter, and
 * a text search — and the detailed read, each as a ratio to a bare fastify route answering the same bytes in the
 * same run. Each case is measured as the product runs (GET response cache on: repeated identical requests are its
 * best case) and with the cache off (`--response-cache-mb 0`, a second server on the same file: what the first read
 * after any write costs). Target: the default page as served ≥ 0.4 of the baseline.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import { cli, measure, ROOT, type Started, serve, startProcess, stop } from './http';

const TRANSACTIONS = Number(process.env.BENCH_TRANSACTIONS ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const WARMUP_SECONDS = 2;

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'finops-bench-tx-'));
  let real: Started | undefined;
  let uncached: Started | undefined;
  let baseline: Started | undefined;
  try {
    const t0 = performance.now();
    cli(['demo', '--data-dir', dataDir, '--team', 'Bench', '--transactions', String(TRANSACTIONS)]);
    process.stderr.write(`seeded ${TRANSACTIONS} transactions in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    const key = cli(['token', 'create', '--data-dir', dataDir, '--team', 'Bench']).trim();
    const auth = { authorization: `Bearer ${key}` };
    real = await serve(dataDir);
    uncached = await serve(dataDir, '--response-cache-mb', '0');

    const get = async (url: string) => {
      const res = await fetch(`${real!.url}${url}`, { headers: auth });
      if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
      return res.text();
    };
    const firstPage = JSON.parse(await get('/v1/transactions?pageSize=50')) as { data: { id: string; date: string }[] };
    const newest = firstPage.data[0]!.date;
    const monthStart = `${newest.slice(0, 7)}-01`;
    const yearAgo = `${Number(newest.slice(0, 4)) - 1}${newest.slice(4)}`;
    const urls = {
      page: '/v1/transactions?pageSize=50',
      filtered: `/v1/transactions?pageSize=50&categories=travel-entertainment&start=${yearAgo}&end=${newest}`,
      search: '/v1/transactions?pageSize=50&q=coffee',
      detail: `/v1/transactions/${firstPage.data[0]!.id}`,
      month: `/v1/transactions?pageSize=50&start=${monthStart}&end=${newest}&sort=amount&sort=asc`,
    };
    const payloads: Record<string, string> = {};
    const serverMs: Record<string, number> = {};
    for (const [name, url] of Object.entries(urls)) {
      // One uncached request each, timed from here: what the first read after a write costs end to end.
      const t = performance.now();
      const res = await fetch(`${uncached.url}${url}`, { headers: auth });
      serverMs[name] = performance.now() - t;
      payloads[url] = await res.text();
      if (res.status !== 200) throw new Error(`${url}: ${res.status} ${payloads[url]}`);
      if (name !== 'detail' && (JSON.parse(payloads[url]!) as { data: unknown[] }).data.length === 0) {
        throw new Error(`${url} returned no rows: the benchmark would measure nothing`);
      }
    }
    const payloadFile = path.join(dataDir, 'payloads.json');
    fs.writeFileSync(payloadFile, JSON.stringify(payloads));
    baseline = await startProcess(process.execPath, [
      '--import',
      'tsx',
      path.join(ROOT, 'bench', 'baseline-static.ts'),
      payloadFile,
    ]);

    const cases: { name: string; url: string; server: Started }[] = [];
    const labels: Record<keyof typeof urls, string> = {
      page: 'page of 50, default order',
      filtered: 'page of 50, category + 1 year',
      search: 'page of 50, q=coffee',
      detail: 'detailed read',
      month: 'page of 50, month by amount',
    };
    for (const [key2, url] of Object.entries(urls) as [keyof typeof urls, string][]) {
      cases.push({ name: labels[key2], url, server: real });
      cases.push({ name: '  same, response cache off', url, server: uncached });
    }
    const rows: { name: string; baseline: number; real: number; ratio: number }[] = [];
    for (const c of cases) {
      const opts = (base: string): autocannon.Options => ({ url: `${base}${c.url}`, headers: auth, title: c.name });
      await measure(opts(baseline.url), WARMUP_SECONDS);
      await measure(opts(c.server.url), WARMUP_SECONDS);
      const b: number[] = [];
      const r: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        b.push(await measure(opts(baseline.url), SECONDS));
        r.push(await measure(opts(c.server.url), SECONDS));
      }
      const avg = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
      rows.push({ name: c.name, baseline: avg(b), real: avg(r), ratio: avg(r) / avg(b) });
      process.stderr.write(`${c.name}: done\n`);
    }

    console.log(
      `\nGET /v1/transactions on ${TRANSACTIONS.toLocaleString('en')} transactions (10 connections, ${SECONDS}s x ${ROUNDS} rounds, ${os.cpus().length} cores)`,
    );
    console.log(`${'request'.padEnd(34)}${'baseline req/s'.padStart(16)}${'real req/s'.padStart(14)}${'ratio'.padStart(8)}`);
    for (const row of rows) {
      console.log(
        `${row.name.padEnd(34)}${row.baseline.toFixed(0).padStart(16)}${row.real.toFixed(0).padStart(14)}${row.ratio.toFixed(2).padStart(8)}`,
      );
    }
    console.log('\nfirst uncached request, end to end (ms):');
    for (const [name, ms] of Object.entries(serverMs))
      console.log(`  ${labels[name as keyof typeof urls].padEnd(32)}${ms.toFixed(1).padStart(8)}`);
    const page = rows[0]!;
    console.log(`target: default page ratio >= 0.40 (as served) — ${page.ratio >= 0.4 ? 'met' : 'NOT met'}`);
  } finally {
    await stop(baseline, uncached, real);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
