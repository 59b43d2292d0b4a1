/**
 * Load (issue 35): a bounded mixed workload against a real `finops serve` — point reads, list pages, search, a
 * runway and a stored forecast read, customer creates and transaction updates, from autocannon's connections — while
 * a small bank file is imported (upload + commit) in every tenth of the load and one sync round (`finops sync`, an
 * empty replica pulling the whole team) starts at a quarter of it. The team is the demo data set (LOAD_TRANSACTIONS
 * transactions, 150 customers, 562 invoices) plus LOAD_CUSTOMERS customers created over the API.
 *
 * Printed: requests, errors (non-2xx, socket errors and timeouts: any is a failure, of the server or of this
 * workload), p50/p99 latency per route, throughput as a ratio to a bare fastify app (bench/baseline-server.ts,
 * answering the real server's bytes for the customer routes) driven by the same client with the same
 * record/list/write shares, measured in slices between the load's ten segments; and the server's resident memory
 * (/proc/PID/status VmRSS) at the start, the middle and the end of the load.
 *
 * It exits non-zero on any error, or when the RSS at the end exceeds the RSS at the middle by more than
 * RSS_GROWTH_BOUND (docs/decisions/0190-load-bench.md says why that figure): the second half of the load is the
 * same work as the first, so a server whose memory is bounded has reached its plateau by the middle.
 *
 *   npm run bench -- load      LOAD_REQUESTS=500000 LOAD_CONNECTIONS=10 LOAD_TRANSACTIONS=20000 LOAD_CUSTOMERS=2000
 *   LOAD_SYNC=0                leave the sync round out
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { openDataDir } from '../src-main/runtime/data-dir';
import { ensureTeam } from '../src-main/store/teams/teams';
import { cli, cpuPinning, createKey, FINOPS, ROOT, type Started, startProcess, stop } from './http';
import { median, quantile } from './stats';

const REQUESTS = Number(process.env.LOAD_REQUESTS ?? 500_000);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 10);
const TRANSACTIONS = Number(process.env.LOAD_TRANSACTIONS ?? 20_000);
const CUSTOMERS = Number(process.env.LOAD_CUSTOMERS ?? 2_000);
const SYNC = process.env.LOAD_SYNC !== '0';
/**
 * The load runs as SEGMENTS consecutive autocannon runs with a slice of the baseline before, between and after them:
 * this machine's speed drifts by up to 2× within a minute (decision 0006), so each segment's rate is divided by the
 * baseline's around it, not by one figure from before the load.
 */
const SEGMENTS = 10;
const SEGMENT = Math.floor(REQUESTS / SEGMENTS);
/** Requests of each baseline slice and of the unmeasured warm-up: enough for a steady rate, small beside the load. */
const BASELINE_SLICE = Math.max(2_000, Math.round(REQUESTS / 100));
const WARMUP_REQUESTS = Math.max(2_000, Math.round(REQUESTS / 50));
/** One import in the middle of each segment. */
const IMPORTS = SEGMENTS;
const IMPORT_ROWS = 20;
/**
 * How far the RSS at the end may exceed the RSS at the middle: 10 % of it, for the V8 heap's headroom between
 * collections and the allocator keeping freed pages (decision 0190).
 */
const RSS_GROWTH_BOUND = 0.1;

const TEAM = 'Bench Load';
const AS_OF = '2026-11-20';
const FORECAST = { from: '2024-11-01', to: '2026-10-31', horizonMonths: 12 };
const log = (s: string) => process.stdout.write(`${s}\n`);
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Resident memory of a process in MiB (VmRSS of /proc/PID/status). */
function rssMib(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

interface Team {
  url: string;
  key: string;
  customerIds: string[];
  transactionIds: string[];
  invoiceIds: string[];
  /** Second pages of the three lists (keyset cursors stay valid as rows are added). */
  cursors: { customers: string; transactions: string; invoices: string };
  importAccountId: string;
}

/** The fields of the answers this setup reads: a created record's id, a page's rows and cursor. */
interface Answer {
  id: string;
  data: { id: string }[];
  meta?: { cursor?: string | null; hasNextPage?: boolean };
}

async function api(url: string, key: string, method: string, route: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${url}/v1${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** Up to `limit` ids of a list, walked page by page; and the cursor of its second page. */
async function walk(url: string, key: string, list: string, limit: number): Promise<{ ids: string[]; second: string }> {
  const ids: string[] = [];
  let cursor: string | undefined;
  let second = '';
  while (ids.length < limit) {
    const page = await api(url, key, 'GET', `/${list}?pageSize=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    ids.push(...page.data.map((r) => r.id));
    cursor = page.meta?.cursor ?? undefined;
    if (!second && cursor) second = cursor;
    if (!page.meta?.hasNextPage || !cursor) break;
  }
  return { ids, second };
}

async function seedOverApi(url: string, key: string): Promise<Team> {
  const created: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < CUSTOMERS) {
      const i = next++;
      const c = await api(url, key, 'POST', '/customers', {
        name: `Seed ${i} ${['Acme', 'Globex', 'Initech', 'Umbrella'][i % 4]}`,
        email: `seed${i}@load.example`,
        countryCode: ['DE', 'FR', 'NL', 'US'][i % 4],
      });
      created.push(c.id);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  const customers = await walk(url, key, 'customers', 200);
  const transactions = await walk(url, key, 'transactions', 3_000);
  const invoices = await walk(url, key, 'invoices', 1_000);
  const account = await api(url, key, 'POST', '/bank-accounts', { name: 'Load imports', currency: 'EUR' });
  // The stored forecast the workload reads back (computing one is seconds of work, not a request of the mix).
  await api(url, key, 'POST', '/metrics/forecast/cash-flow', FORECAST);
  return {
    url,
    key,
    customerIds: [...created, ...customers.ids],
    transactionIds: transactions.ids,
    invoiceIds: invoices.ids,
    cursors: { customers: customers.second, transactions: transactions.second, invoices: invoices.second },
    importAccountId: account.id,
  };
}

/** One request of the mix: its route (the latency group), method, path and JSON body. */
interface Call {
  route: string;
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  body?: unknown;
}

/** What a request is, for the baseline's shares: a single record, a list (or search, or report), a write. */
type Kind = 'record' | 'list' | 'write';

interface Route {
  weight: number;
  kind: Kind;
  call: () => Call;
}

const any = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)] as T;

function mix(team: Team): Route[] {
  let posted = 0;
  let patched = 0;
  const enc = encodeURIComponent;
  const { cursors } = team;
  const get = (route: string, p: string): Call => ({ route, method: 'GET', path: `/v1${p}` });
  return [
    { weight: 18, kind: 'record', call: () => get('GET /customers/{id}', `/customers/${any(team.customerIds)}`) },
    { weight: 14, kind: 'record', call: () => get('GET /transactions/{id}', `/transactions/${any(team.transactionIds)}`) },
    { weight: 8, kind: 'record', call: () => get('GET /invoices/{id}', `/invoices/${any(team.invoiceIds)}`) },
    {
      weight: 10,
      kind: 'list',
      call: () =>
        get(
          'GET /customers (page)',
          any([
            '/customers?pageSize=50',
            '/customers?pageSize=50&sort=name&sort=asc',
            `/customers?cursor=${enc(cursors.customers)}`,
          ]),
        ),
    },
    {
      weight: 10,
      kind: 'list',
      call: () =>
        get(
          'GET /transactions (page)',
          any([
            '/transactions?pageSize=50',
            '/transactions?pageSize=50&type=expense',
            `/transactions?pageSize=50&start=2026-0${1 + Math.floor(Math.random() * 9)}-01&end=2026-10-31`,
            `/transactions?cursor=${enc(cursors.transactions)}`,
          ]),
        ),
    },
    {
      weight: 7,
      kind: 'list',
      call: () =>
        get(
          'GET /invoices (page)',
          any(['/invoices?pageSize=50', '/invoices?pageSize=50&statuses=paid', `/invoices?cursor=${enc(cursors.invoices)}`]),
        ),
    },
    {
      weight: 5,
      kind: 'list',
      call: () =>
        get('GET /search', `/search?searchTerm=${enc(any(['acme', 'globex', 'rent', 'software', 'invoice', 'seed 1', '120']))}`),
    },
    {
      weight: 3,
      kind: 'list',
      call: () => get('GET /reports/runway', `/reports/runway?from=2025-${any(['01', '05', '11'])}-01&to=2026-10-31`),
    },
    {
      weight: 2,
      kind: 'list',
      call: () =>
        get(
          'GET /metrics/forecast/cash-flow',
          `/metrics/forecast/cash-flow?from=${FORECAST.from}&to=${FORECAST.to}&horizonMonths=${FORECAST.horizonMonths}`,
        ),
    },
    {
      weight: 11,
      kind: 'write',
      call: () => {
        const i = posted++;
        return {
          route: 'POST /customers',
          method: 'POST',
          path: '/v1/customers',
          body: { name: `Load ${i}`, email: `load${i}@load.example`, countryCode: any(['DE', 'FR', 'US']) },
        };
      },
    },
    {
      weight: 12,
      kind: 'write',
      call: () => ({
        route: 'PATCH /transactions/{id}',
        method: 'PATCH',
        path: `/v1/transactions/${any(team.transactionIds)}`,
        body: { note: `load ${patched++}` },
      }),
    },
  ];
}

/** A weighted choice over the routes (the shares hold over the run, not in every window). */
function chooser<T extends { weight: number }>(items: readonly T[]): () => T {
  const total = items.reduce((a, r) => a + r.weight, 0);
  return () => {
    let x = Math.random() * total;
    for (const r of items) {
      x -= r.weight;
      if (x < 0) return r;
    }
    return items[items.length - 1] as T;
  };
}

/** Latencies (ms) and failures per route, of autocannon's requests and of the imports alike. */
class Routes {
  readonly latency = new Map<string, number[]>();
  readonly failed = new Map<string, number>();
  readonly samples: string[] = [];

  record(route: string, ms: number, status: number, body?: string): void {
    const xs = this.latency.get(route) ?? [];
    if (xs.length === 0) this.latency.set(route, xs);
    xs.push(ms);
    if (status < 200 || status > 299) {
      this.failed.set(route, (this.failed.get(route) ?? 0) + 1);
      if (this.samples.length < 5) this.samples.push(`${route}: ${status} ${(body ?? '').slice(0, 300)}`);
    }
  }
}

/**
 * autocannon's result, with the time from the start to the last answer: autocannon reports at its next 1 s tick, and
 * its own `duration` includes the wait for it.
 */
type Run = autocannon.Result & { seconds: number };

/** The mix as one autocannon run of `amount` requests; `onResponse(done)` after each answer. */
function runMix(
  url: string,
  key: string,
  routes: Route[],
  amount: number,
  into: Routes | undefined,
  onResponse?: (done: number) => void,
): Promise<Run> {
  const pick = chooser(routes);
  const auth = { authorization: `Bearer ${key}` };
  let answered: { route: string; status: number; body: string } | undefined;
  let done = 0;
  const started = performance.now();
  let last = started;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections: CONNECTIONS,
        amount,
        requests: [
          {
            // Each connection has one request in flight, so its context names the route its next answer is of.
            setupRequest: (req, context: { route?: string }) => {
              const c = pick().call();
              context.route = c.route;
              return c.body === undefined
                ? { ...req, method: c.method, path: c.path, headers: auth, body: '' }
                : {
                    ...req,
                    method: c.method,
                    path: c.path,
                    headers: { ...auth, 'content-type': 'application/json' },
                    body: JSON.stringify(c.body),
                  };
            },
            onResponse: (status, body, context: { route?: string }) => {
              answered = { route: context.route ?? '?', status, body: status >= 300 ? body : '' };
            },
          },
        ],
      },
      (err, result) => (err ? reject(err) : resolve({ ...result, seconds: (last - started) / 1000 })),
    );
    // autocannon calls onResponse and then emits 'response' with the time, in the same tick.
    instance.on('response', (_client, _status, _bytes, ms) => {
      if (answered) into?.record(answered.route, ms, answered.status, answered.body);
      else into?.record('(unattributed)', ms, 0, 'an answer autocannon did not pass to onResponse');
      answered = undefined;
      last = performance.now();
      onResponse?.(++done);
    });
  });
}

/** A small bank file, different rows each time (nothing of it is a duplicate of an earlier import). */
function bankFile(n: number): string {
  const lines = ['Date;Amount;Payee;Purpose'];
  for (let i = 0; i < IMPORT_ROWS; i++) {
    const cents = ((n * IMPORT_ROWS + i) * 7919) % 90_000;
    lines.push(
      `2026-11-${String(1 + (i % 19)).padStart(2, '0')};-${Math.floor(cents / 100) + 1},${String(cents % 100).padStart(2, '0')};Shop ${i % 7};Load import ${n} row ${i}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Upload and commit one bank file, each step timed into `into`; resolves with the rows created. */
async function importOnce(team: Team, n: number, into: Routes): Promise<number> {
  const auth = { authorization: `Bearer ${team.key}` };
  let t = performance.now();
  const up = await fetch(`${team.url}/v1/imports/uploads?bankAccountId=${team.importAccountId}`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'text/csv', 'x-filename': `load-${n}.csv` },
    body: bankFile(n),
  });
  const upText = await up.text();
  into.record('POST /imports/uploads', performance.now() - t, up.status, upText);
  if (up.status !== 201) return 0;
  t = performance.now();
  const commit = await fetch(`${team.url}/v1/imports/uploads/${JSON.parse(upText).uploadId}/commit`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: '{}',
  });
  const commitText = await commit.text();
  into.record('POST /imports/uploads/{id}/commit', performance.now() - t, commit.status, commitText);
  return commit.status === 201 ? (JSON.parse(commitText).batch?.counts?.created ?? 0) : 0;
}

/** An empty replica of the team: a data dir holding a team of the same name and nothing else. */
function emptyReplica(dir: string): string {
  const local = path.join(dir, 'replica');
  const db = openDataDir(local);
  ensureTeam(db, TEAM, { baseCurrency: 'EUR', countryCode: 'DE' });
  db.close();
  return local;
}

interface SyncOutcome {
  ok: boolean;
  ms: number;
  summary: string;
}

/** One round of `finops sync` of the replica at `local` (its own process, inheriting this process's core). */
function syncRound(team: Team, local: string): { child: ChildProcess; done: Promise<SyncOutcome> } {
  const t = performance.now();
  const child = spawn(
    FINOPS,
    [
      'sync',
      '--data-dir',
      local,
      '--team',
      TEAM,
      '--remote',
      `${team.url}/v1`,
      '--token',
      team.key,
      '--kind',
      'finops',
      '--json',
    ],
    // The replica's outbound requests go to loopback, which the client refuses unless the operator allows it.
    { cwd: ROOT, env: { ...process.env, FINOPS_ALLOW_PRIVATE_HOSTS: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    err += c.toString();
  });
  const done = new Promise<SyncOutcome>((resolve) => {
    child.once('exit', (code) => {
      const ms = performance.now() - t;
      if (code !== 0) return resolve({ ok: false, ms, summary: `exit ${code}: ${err.slice(-500)}` });
      const s = JSON.parse(out) as { pulled: number; pushed: number; conflicts: number; failed: number };
      resolve({
        ok: s.failed === 0,
        ms,
        summary: `pulled ${s.pulled}, pushed ${s.pushed}, conflicts ${s.conflicts}, failed ${s.failed}`,
      });
    });
  });
  return { child, done };
}

/** The baseline's calls: the customer routes of bench/baseline-server.ts in the mix's shares of records, lists, writes. */
function baselineMix(routes: Route[], ids: string[]): Route[] {
  const share = (kind: Kind) => routes.filter((r) => r.kind === kind).reduce((a, r) => a + r.weight, 0);
  return [
    {
      weight: share('record'),
      kind: 'record',
      call: () => ({ route: 'record', method: 'GET', path: `/v1/customers/${any(ids)}` }),
    },
    { weight: share('list'), kind: 'list', call: () => ({ route: 'list', method: 'GET', path: '/v1/customers?pageSize=50' }) },
    {
      weight: share('write'),
      kind: 'write',
      call: () => ({
        route: 'write',
        method: 'POST',
        path: '/v1/customers',
        body: { name: 'Sample', email: 'sample@example.com' },
      }),
    },
  ];
}

const rate = (r: Run) => r.requests.total / r.seconds;
const failures = (r: Run) => r.non2xx + r.errors + r.timeouts;

async function main(): Promise<void> {
  const pin = cpuPinning();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'finops-bench-load-'));
  const dataDir = path.join(dir, 'data');
  let server: Started | undefined;
  let baseline: Started | undefined;
  let sync: ReturnType<typeof syncRound> | undefined;
  let failed = false;
  try {
    const t = performance.now();
    cli(['demo', '--data-dir', dataDir, '--team', TEAM, '--transactions', String(TRANSACTIONS), '--as-of', AS_OF]);
    const key = createKey(ROOT, dataDir, TEAM);
    server = await startProcess(
      ...pin.server(FINOPS, ['serve', '--data-dir', dataDir, '--port', '0', '--rate-limit', '1000000000']),
    );
    const pid = server.child.pid ?? 0;
    if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('serve')) throw new Error(`pid ${pid} is not the server`);
    const team = await seedOverApi(server.url, key);
    log(
      `seeded the demo team (${TRANSACTIONS} transactions) and ${CUSTOMERS} customers over the API in ${secs(performance.now() - t)}`,
    );

    // The baseline answers the real server's bytes for the customer routes.
    const auth = { authorization: `Bearer ${key}` };
    const text = async (p: string, init?: RequestInit) => (await fetch(`${server?.url}/v1${p}`, init)).text();
    const payloadFile = path.join(dir, 'payloads.json');
    fs.writeFileSync(
      payloadFile,
      JSON.stringify({
        byId: await text(`/customers/${team.customerIds[0]}`, { headers: auth }),
        page: await text('/customers?pageSize=50', { headers: auth }),
        created: await text('/customers', {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Sample', email: 'sample@example.com' }),
        }),
      }),
    );
    baseline = await startProcess(
      ...pin.server(process.execPath, ['--import', 'tsx', path.join(__dirname, 'baseline-server.ts'), payloadFile]),
    );

    const replica = emptyReplica(dir);
    const routes = mix(team);
    const bare = baselineMix(routes, team.customerIds);
    // Unmeasured warm-up of both (JIT, SQLite's page cache, the response cache, the parser sandbox's worker).
    await runMix(baseline.url, key, bare, WARMUP_REQUESTS, undefined);
    await runMix(server.url, key, routes, WARMUP_REQUESTS, undefined);
    if ((await importOnce(team, 0, new Routes())) !== IMPORT_ROWS) throw new Error('the warm-up import failed');

    const rss = { start: rssMib(pid), middle: Number.NaN, end: Number.NaN, highest: 0 };
    const weight = (kind: Kind) => routes.filter((r) => r.kind === kind).reduce((a, r) => a + r.weight, 0);
    const all = weight('record') + weight('list') + weight('write');
    const pct = (kind: Kind) => `${Math.round((weight(kind) / all) * 100)} %`;
    log(
      `load: ${REQUESTS} requests over ${CONNECTIONS} connections (${pct('record')} single records, ${pct('list')} lists, ` +
        `search and reports, ${pct('write')} writes), ${IMPORTS} imports${SYNC ? ', a sync round' : ''}; ${pin.description}`,
    );
    const measured = new Routes();
    const pending: Promise<unknown>[] = [];
    const totals = { requests: 0, non2xx: 0, errors: 0, timeouts: 0, ms: 0 };
    const ratios: number[] = [];
    const bareRates: number[] = [];
    let baselineBad = 0;
    let imported = 0;
    let syncStartedAt = Number.NaN;
    let syncEndedAt = Number.NaN;
    let done = 0;
    const slice = async () => {
      const r = await runMix(baseline!.url, key, bare, BASELINE_SLICE, undefined);
      baselineBad += failures(r);
      bareRates.push(rate(r));
      return rate(r);
    };
    let bareBefore = await slice();
    for (let k = 0; k < SEGMENTS; k++) {
      const offset = k * SEGMENT;
      const amount = k === SEGMENTS - 1 ? REQUESTS - offset : SEGMENT;
      const r = await runMix(server.url, key, routes, amount, measured, (n) => {
        done = offset + n;
        if (done === Math.floor(REQUESTS / 2)) rss.middle = rssMib(pid);
        if (done === REQUESTS) rss.end = rssMib(pid);
        // An import in the middle of every segment; the sync round from a quarter of the load.
        if (n === Math.floor(amount / 2) && k < IMPORTS) {
          pending.push(importOnce(team, k + 1, measured).then((rows) => (imported += rows)));
        }
        if (SYNC && !sync && done >= REQUESTS / 4) {
          syncStartedAt = done;
          sync = syncRound(team, replica);
          pending.push(sync.done.then(() => (syncEndedAt = done)));
        }
      });
      totals.ms += r.seconds * 1000;
      totals.requests += r.requests.total;
      totals.non2xx += r.non2xx;
      totals.errors += r.errors;
      totals.timeouts += r.timeouts;
      const bareAfter = await slice();
      ratios.push(rate(r) / ((bareBefore + bareAfter) / 2));
      const now = rssMib(pid);
      rss.highest = Math.max(rss.highest, now);
      process.stderr.write(
        `  ${done}/${REQUESTS}: ${rate(r).toFixed(0)} req/s, baseline ${bareBefore.toFixed(0)} → ${bareAfter.toFixed(0)}, ` +
          `ratio ${ratios.at(-1)?.toFixed(3)}, server RSS ${now.toFixed(0)} MiB\n`,
      );
      bareBefore = bareAfter;
    }
    if (Number.isNaN(rss.end)) rss.end = rssMib(pid);
    await Promise.all(pending);
    const synced = sync ? await sync.done : undefined;

    // Non-2xx answers are counted per route (autocannon's and the imports'); socket errors and timeouts have no route.
    const errors = totals.errors + totals.timeouts + [...measured.failed.values()].reduce((a, n) => a + n, 0);
    const answered = [...measured.latency.values()].reduce((a, xs) => a + xs.length, 0);
    log(`\nrequests: ${answered} answered in ${secs(totals.ms)} (${totals.requests} of the mix, the rest the imports')`);
    log(
      `errors: ${errors} (non-2xx ${totals.non2xx} of the mix, ${errors - totals.non2xx - totals.errors - totals.timeouts} ` +
        `of the imports; socket errors ${totals.errors}, timeouts ${totals.timeouts})`,
    );
    for (const s of measured.samples) log(`  ${s}`);
    log(
      `\n${'route'.padEnd(36)}${'requests'.padStart(10)}${'share'.padStart(8)}${'failed'.padStart(8)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}`,
    );
    const rows = [...measured.latency.entries()].sort((a, b) => b[1].length - a[1].length);
    rows.push(['all', rows.flatMap(([, xs]) => xs)]);
    for (const [route, xs] of rows) {
      log(
        `${route.padEnd(36)}${String(xs.length).padStart(10)}${`${((xs.length / answered) * 100).toFixed(1)} %`.padStart(8)}` +
          `${String(route === 'all' ? errors : (measured.failed.get(route) ?? 0)).padStart(8)}${quantile(xs, 0.5).toFixed(2).padStart(9)}${quantile(xs, 0.99).toFixed(2).padStart(9)}`,
      );
    }
    log(`\nimports: ${IMPORTS} files of ${IMPORT_ROWS} rows during the load, ${imported} transactions created`);
    if (synced) {
      const endedAt = Number.isNaN(syncEndedAt) || syncEndedAt >= REQUESTS ? 'after the load ended' : `at request ${syncEndedAt}`;
      log(`sync round: started at request ${syncStartedAt}, ended ${endedAt}, ${secs(synced.ms)}: ${synced.summary}`);
    }
    log(
      `\nthroughput: ${(totals.requests / (totals.ms / 1000)).toFixed(0)} req/s over the load; the bare fastify baseline ` +
        `(same client, connections and record/list/write shares) ${median(bareRates).toFixed(0)} req/s, median of ` +
        `${bareRates.length} slices between the segments (${Math.min(...bareRates).toFixed(0)}–${Math.max(...bareRates).toFixed(0)})`,
    );
    log(
      `ratio server ÷ baseline: ${median(ratios).toFixed(3)} (median of the ${SEGMENTS} segments' ratios to the slices ` +
        `around them; interquartile range ${quantile(ratios, 0.25).toFixed(3)}–${quantile(ratios, 0.75).toFixed(3)})`,
    );
    const bound = rss.middle * (1 + RSS_GROWTH_BOUND);
    log(
      `server RSS: start ${rss.start.toFixed(0)} MiB, middle ${rss.middle.toFixed(0)} MiB, end ${rss.end.toFixed(0)} MiB ` +
        `(highest sampled ${Math.max(rss.highest, rss.end).toFixed(0)} MiB); bound for the end: middle + ${RSS_GROWTH_BOUND * 100} % = ${bound.toFixed(0)} MiB`,
    );
    if (errors > 0 || baselineBad > 0) {
      console.error(`FAILED: ${errors} errors under load${baselineBad ? `, ${baselineBad} against the baseline` : ''}`);
      failed = true;
    }
    if (synced && !synced.ok) {
      console.error(`FAILED: the sync round: ${synced.summary}`);
      failed = true;
    }
    if (imported !== IMPORTS * IMPORT_ROWS) {
      console.error(`FAILED: the imports created ${imported} of ${IMPORTS * IMPORT_ROWS} transactions`);
      failed = true;
    }
    if (!(rss.end <= bound)) {
      console.error(
        `FAILED: server RSS grew from ${rss.middle.toFixed(0)} MiB at the middle to ${rss.end.toFixed(0)} MiB at the end`,
      );
      failed = true;
    }
  } finally {
    sync?.child.kill('SIGTERM');
    await stop(baseline, server);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
