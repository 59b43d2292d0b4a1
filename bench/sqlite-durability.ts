/**
 * What synchronous=FULL costs against NORMAL on this machine, in WAL mode (docs/decisions/0002-sqlite-durability.md).
 *
 * Two workloads on a transaction-like table (uuid v7 text primary key + 2 secondary indexes), each run in alternating
 * rounds for both settings (the machines are shared and noisy: compare medians and the ratio, not absolute figures):
 * - single-row autocommit INSERTs (one commit per row: what one API write does), as rows per second;
 * - one 100k-row INSERT batch in a single transaction (what an import or `finops demo` does), as seconds.
 *
 *   node --import tsx bench/sqlite-durability.ts [--rounds 5] [--single-seconds 2] [--batch 100000]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { v7 as uuidv7 } from 'uuid';
import { median } from './stats';

type Mode = 'FULL' | 'NORMAL';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} must be a positive number`);
  return v;
}

const ROUNDS = arg('rounds', 5);
const SINGLE_SECONDS = arg('single-seconds', 2);
const BATCH = arg('batch', 100_000);

function open(dir: string, mode: Mode): Database.Database {
  const db = new Database(path.join(dir, `${mode}-${Date.now()}.sqlite`));
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${mode}`);
  db.exec(`CREATE TABLE t (
    id TEXT PRIMARY KEY, team_id TEXT NOT NULL, account TEXT NOT NULL, date TEXT NOT NULL,
    amount_minor INTEGER NOT NULL, name TEXT NOT NULL, seq INTEGER NOT NULL);
    CREATE INDEX t_date ON t(team_id, date, amount_minor);
    CREATE INDEX t_seq ON t(team_id, seq);`);
  return db;
}

function row(i: number): unknown[] {
  const day = String(1 + (i % 28)).padStart(2, '0');
  return [uuidv7(), 'team', 'acct', `2026-01-${day}`, -((i * 7919) % 100_000), `Card purchase ${i}`, i];
}

function singleRowsPerSecond(dir: string, mode: Mode): number {
  const db = open(dir, mode);
  const insert = db.prepare('INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?)');
  const until = performance.now() + SINGLE_SECONDS * 1000;
  let n = 0;
  const start = performance.now();
  while (performance.now() < until) insert.run(...row(n++));
  const rate = n / ((performance.now() - start) / 1000);
  db.close();
  return rate;
}

function batchSeconds(dir: string, mode: Mode): number {
  const db = open(dir, mode);
  const insert = db.prepare('INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?)');
  const rows = Array.from({ length: BATCH }, (_, i) => row(i));
  const start = performance.now();
  db.transaction(() => {
    for (const r of rows) insert.run(...r);
  })();
  const seconds = (performance.now() - start) / 1000;
  db.close();
  return seconds;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'finops-durability-'));
try {
  const single: Record<Mode, number[]> = { FULL: [], NORMAL: [] };
  const batch: Record<Mode, number[]> = { FULL: [], NORMAL: [] };
  for (let r = 0; r < ROUNDS; r++) {
    // Alternate the order each round so drift in the machine's load hits both settings alike.
    const order: Mode[] = r % 2 ? ['NORMAL', 'FULL'] : ['FULL', 'NORMAL'];
    for (const mode of order) {
      single[mode].push(singleRowsPerSecond(dir, mode));
      batch[mode].push(batchSeconds(dir, mode));
    }
    process.stderr.write(`round ${r + 1}/${ROUNDS} done\n`);
  }
  const fmt = (xs: number[], digits: number) => xs.map((x) => x.toFixed(digits)).join(', ');
  const sf = median(single.FULL);
  const sn = median(single.NORMAL);
  const bf = median(batch.FULL);
  const bn = median(batch.NORMAL);
  process.stdout.write(
    [
      `WAL mode, ${ROUNDS} rounds, ${os.cpus().length} cores, node ${process.version}, SQLite ${new Database(':memory:').prepare('select sqlite_version() v').pluck().get()}`,
      `single-row autocommit INSERT/s  FULL   median ${sf.toFixed(0)}  [${fmt(single.FULL, 0)}]`,
      `single-row autocommit INSERT/s  NORMAL median ${sn.toFixed(0)}  [${fmt(single.NORMAL, 0)}]`,
      `${BATCH}-row batch (one txn), s  FULL   median ${bf.toFixed(3)}  [${fmt(batch.FULL, 3)}]`,
      `${BATCH}-row batch (one txn), s  NORMAL median ${bn.toFixed(3)}  [${fmt(batch.NORMAL, 3)}]`,
      `ratio NORMAL/FULL single-row throughput: ${(sn / sf).toFixed(2)}x; batch time FULL/NORMAL: ${(bf / bn).toFixed(2)}x`,
      '',
    ].join('\n'),
  );
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
