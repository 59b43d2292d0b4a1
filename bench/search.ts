/**
 * Search benchmark (issues 33 and 35, docs/decisions/0194-search-per-team.md): the store's `search` (every type,
 * limit 30, 10 per type, as `GET /v1/search` calls it) for a few realistic terms — a common merchant word, a rare
 * counterparty word, a prefix being typed, two words, an amount — on two data dirs seeded by `finops demo`:
 *
 * - demo size: one team of the natural ~4,100 transactions;
 * - 1M: a team of 1,000,000 transactions and, beside it, a demo-size team (what a search of a small team costs when
 *   another team's rows match the same words).
 *
 * Each is printed in ms and as a multiple of a bare read in the same run: the team's newest 30 transactions by the
 * (team_id, date, id) index, the cheapest read returning as many rows. Reads are timed as in customer-list.ts: the
 * bare read and the search back to back in batches, medians of the runs. For reference, the ranking of 0087 (bm25
 * over every team's rows, joined back on the team) is timed once per term (median of 3 calls).
 *
 *   node --import tsx bench/search.ts [--runs 9]
 *   BENCH_SEARCH_TRANSACTIONS=N      size of the big team (default 1,000,000)
 *   BENCH_SEARCH_DATA_DIR=DIR        reuse a data dir this bench seeded before (teams Bench and Small); kept
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDataDir } from '../src-main/runtime/data-dir';
import type { Db } from '../src-main/store/db';
import { ftsQuery } from '../src-main/store/list/fts';
import { search } from '../src-main/store/search/search';
import { SEARCH_TYPES, type SearchQuery } from '../src-shared/contract/search';
import { cli } from './http';
import { median, paired } from './stats';

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg >= 0 ? Number(process.argv[runsArg + 1]) : 9;
const TRANSACTIONS = Number(process.env.BENCH_SEARCH_TRANSACTIONS ?? 1_000_000);
const AS_OF = '2026-11-30';
const BATCH_MS = 20;

/** The search of docs/decisions/0087 (before 0194): bm25 over the whole index, joined back on the team. */
const REFERENCE: Record<string, { fts: string; table: string; amount?: string }> = {
  customer: { fts: 'customers_fts', table: 'customers' },
  invoice: { fts: 'invoices_fts', table: 'invoices', amount: 'x.amount_minor = @minor' },
  transaction: { fts: 'transactions_fts', table: 'transactions', amount: 'abs(x.amount_minor) = @minor' },
  tracker_project: { fts: 'tracker_projects_fts', table: 'tracker_projects' },
  inbox: { fts: 'inbox_items_fts', table: 'inbox_items' },
  vault: { fts: 'documents_fts', table: 'documents' },
};

function bm25Search(db: Db, teamId: string, term: string, minor: number | undefined): number {
  const match = ftsQuery(term);
  let found = 0;
  for (const s of Object.values(REFERENCE)) {
    if (minor !== undefined && s.amount) {
      found += db
        .prepare(`SELECT x.id FROM ${s.table} x WHERE x.team_id = @team AND ${s.amount} ORDER BY x.created_at DESC LIMIT 10`)
        .all({ team: teamId, minor }).length;
    }
    if (match) {
      found += db
        .prepare(
          `SELECT x.id, -bm25(${s.fts}) AS relevance FROM ${s.fts} JOIN ${s.table} x ON x.search_rowid = ${s.fts}.rowid
           WHERE ${s.fts} MATCH @match AND x.team_id = @team ORDER BY bm25(${s.fts}) LIMIT 10`,
        )
        .all({ team: teamId, match }).length;
    }
  }
  return found;
}

function seed(dataDir: string, transactions?: number): void {
  const t0 = performance.now();
  const extra = transactions ? ['--transactions', String(transactions)] : [];
  cli(['demo', '--data-dir', dataDir, '--team', 'Bench', '--as-of', AS_OF, ...extra]);
  if (transactions) cli(['demo', '--data-dir', dataDir, '--team', 'Small', '--as-of', AS_OF]);
  process.stderr.write(`seeded ${dataDir} in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
}

function run(label: string, dataDir: string): void {
  const t0 = performance.now();
  const db = openDataDir(dataDir);
  process.stderr.write(`opened ${label} in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  try {
    const teams = db.prepare('SELECT id, name FROM teams ORDER BY name').all() as { id: string; name: string }[];
    for (const team of teams) {
      const count = db.prepare('SELECT count(*) FROM transactions WHERE team_id = ?').pluck().get(team.id) as number;
      if (count === 0) continue;
      const rent = db
        .prepare(
          `SELECT amount_minor FROM transactions WHERE team_id = ? AND counterparty_name = 'Hofgarten Immobilien GmbH'
           ORDER BY date DESC LIMIT 1`,
        )
        .pluck()
        .get(team.id) as number | undefined;
      const amount = rent === undefined ? '1200.00' : (Math.abs(rent) / 100).toFixed(2);
      const terms: [string, string][] = [
        ['common word', 'kreuzberg'],
        ['rare word', 'hofgarten'],
        ['prefix', 'kreu'],
        ['two words', 'taxi berlin'],
        ['amount', amount],
      ];
      const bareRead = db.prepare('SELECT * FROM transactions WHERE team_id = ? ORDER BY date DESC, id DESC LIMIT 30');
      const bare = () => bareRead.all(team.id);
      console.log(`\n${label}, team ${team.name} (${count.toLocaleString('en')} transactions), medians of ${RUNS} paired runs`);
      console.log(
        `${'term'.padEnd(28)}${'results'.padStart(8)}${'ms'.padStart(9)}${'bare ms'.padStart(9)}${'× bare'.padStart(8)}${'0087 ms'.padStart(10)}`,
      );
      for (const [kind, term] of terms) {
        const query: SearchQuery = { searchTerm: term, limit: 30, itemsPerTableLimit: 10 };
        const results = search(db, team.id, query, SEARCH_TYPES).length;
        const r = paired(() => search(db, team.id, query, SEARCH_TYPES), bare, { runs: RUNS, batchMs: BATCH_MS });
        const minor = /^\d+\.\d\d$/.test(term) ? Math.round(Number(term) * 100) : undefined;
        const before: number[] = [];
        for (let i = 0; i < 3; i++) {
          const t = performance.now();
          bm25Search(db, team.id, term, minor);
          before.push(performance.now() - t);
        }
        console.log(
          `${`${kind} "${term}"`.padEnd(28)}${String(results).padStart(8)}${r.ms.toFixed(2).padStart(9)}${r.bareMs
            .toFixed(3)
            .padStart(9)}${r.multiple.toFixed(1).padStart(8)}${median(before).toFixed(1).padStart(10)}`,
        );
      }
    }
  } finally {
    db.close();
  }
}

const made: string[] = [];
try {
  const demoDir = fs.mkdtempSync(path.join(os.tmpdir(), 'finops-bench-search-demo-'));
  made.push(demoDir);
  seed(demoDir);
  run('demo size', demoDir);
  let bigDir = process.env.BENCH_SEARCH_DATA_DIR;
  if (!bigDir) {
    bigDir = fs.mkdtempSync(path.join(os.tmpdir(), 'finops-bench-search-1m-'));
    made.push(bigDir);
    seed(bigDir, TRANSACTIONS);
  }
  run(`${TRANSACTIONS.toLocaleString('en')} transactions`, bigDir);
} finally {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
}
