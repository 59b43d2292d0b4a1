/**
 * Import throughput (issue 9): a 100,000-row CSV and a 100,000-entry camt.053 imported into an account that already
 * holds 1,000,000 transactions (seeded by the store's demo writer, then gathered into one account), end to end —
 * parse, plan (dedupe lookups, hand-entered candidates, balance check), commit through the ledger (running balances,
 * roll-up, change feed, batch rows), rules and transfer pairing. Each is printed as rows/s and as a ratio to raw
 * better-sqlite3 inserts of the same rows into the same table in one transaction, measured in the same run on a copy
 * of the same database file (target ≥ 0.3); then the re-import of the same file (every row a duplicate).
 *
 * The file is parsed in the parser sandbox (docs/decisions/0170), whose worker is started before the timings (a
 * server's is running): each run also prints the parse alone in this process and through the sandbox, and their
 * ratio — the cost of the worker hop (copying the file in and the rows out) in the same run; `--no-parse-compare`
 * leaves that out and goes straight to the import, as the parent commit's bench does (for comparing the two).
 *
 *   node --import tsx bench/import.ts [--existing 1000000] [--rows 100000]
 *   (or BENCH_IMPORT_EXISTING / BENCH_IMPORT_ROWS through `npm run bench -- import`)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { planDemo } from '../src-main/demo/seed';
import { writeDemo } from '../src-main/demo/write';
import { parseBankFile } from '../src-main/import/parse-file';
import { parseInSandbox } from '../src-main/import/parse-sandboxed';
import { commitFile } from '../src-main/import/service';
import { openDataDir as openDatabase } from '../src-main/runtime/data-dir';
import { parsers } from '../src-main/sandbox/pool';
import type { Db } from '../src-main/store/db';
import { newId } from '../src-main/store/ids';
import { fingerprints } from '../src-main/store/import/fingerprint';
import { rebuildBalances, rebuildLedgerDaily } from '../src-main/store/ledger/maintenance';
import { ensureTeam } from '../src-main/store/teams/teams';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  const env = process.env[`BENCH_IMPORT_${name.slice(2).toUpperCase()}`];
  return i >= 0 ? Number(process.argv[i + 1]) : env ? Number(env) : fallback;
};
const EXISTING = arg('--existing', 1_000_000);
/** `--no-rules`: leave the team's rules and category suggestions out (the import's own path alone). */
const RULES = !process.argv.includes('--no-rules');
const ROWS = arg('--rows', 100_000);
const AS_OF = '2026-06-30';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'finops-bench-import-'));
const log = (s: string) => process.stdout.write(`${s}\n`);
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function seed(): { dir: string; teamId: string; accountId: string } {
  const dir = path.join(root, 'seed');
  const db = openDatabase(dir);
  const team = ensureTeam(db, 'Bench Import', { baseCurrency: 'EUR', countryCode: 'DE' });
  const data = planDemo({ seed: 'bench-import', asOf: AS_OF, transactions: EXISTING });
  data.baseCurrency = 'EUR';
  const t = performance.now();
  writeDemo(db, team.id, data, {
    onProgress: (n, total) => {
      if (n % 200_000 === 0 || n === total) log(`  seeded ${n}/${total} transactions (${secs(performance.now() - t)})`);
    },
  });
  const accountId = data.accounts.find((a) => a.currency === 'EUR')!.id;
  // One account holds them all (the issue's "an account that already holds 1,000,000 transactions").
  db.transaction(() => {
    db.prepare("UPDATE transactions SET bank_account_id = ?, currency = 'EUR' WHERE team_id = ?").run(accountId, team.id);
  })();
  rebuildBalances(db, team.id);
  rebuildLedgerDaily(db, team.id);
  const n = db.prepare('SELECT count(*) FROM transactions WHERE bank_account_id = ?').pluck().get(accountId) as number;
  log(`  account ${accountId} holds ${n} transactions (seeded in ${secs(performance.now() - t)})`);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return { dir, teamId: team.id, accountId };
}

function copyOf(from: string, name: string): string {
  const to = path.join(root, name);
  fs.mkdirSync(to);
  for (const f of fs.readdirSync(from)) fs.copyFileSync(path.join(from, f), path.join(to, f));
  return to;
}

const day = (i: number) => new Date(Date.parse(`${AS_OF}T00:00:00Z`) + (1 + Math.floor(i / 1000)) * 86_400_000);
const PAYEES = Array.from({ length: 500 }, (_, i) => `Lieferant ${i} GmbH`);

function csvFile(): Buffer {
  const lines = ['Buchungstag;Auftraggeber / Begünstigter;Verwendungszweck;Betrag (EUR)'];
  for (let i = 0; i < ROWS; i++) {
    const d = day(i);
    const date = `${String(d.getUTCDate()).padStart(2, '0')}.${String(d.getUTCMonth() + 1).padStart(2, '0')}.${d.getUTCFullYear()}`;
    const cents = ((i * 7919) % 500_000) - 250_000 || 1;
    const amount = `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)},${String(Math.abs(cents) % 100).padStart(2, '0')}`;
    // Every 50th row repeats its predecessor exactly: two identical purchases on one day.
    const ref = i % 50 === 1 ? i - 1 : i;
    lines.push(
      `${date};${PAYEES[ref % 500]};Rechnung RE-${ref} Auftrag ${ref % 977};${i % 50 === 1 ? lines[i]!.split(';')[3] : amount}`,
    );
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

function camtFile(): Buffer {
  const entries: string[] = [];
  let total = 0;
  for (let i = 0; i < ROWS; i++) {
    const d = day(i).toISOString().slice(0, 10);
    const cents = ((i * 104_729) % 400_000) - 200_000 || 1;
    total += cents;
    const credit = cents > 0;
    const abs = Math.abs(cents);
    const amt = `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
    const party = credit
      ? `<Dbtr><Pty><Nm>${PAYEES[i % 500]}</Nm></Pty></Dbtr>`
      : `<Cdtr><Pty><Nm>${PAYEES[i % 500]}</Nm></Pty></Cdtr>`;
    entries.push(
      `<Ntry><Amt Ccy="EUR">${amt}</Amt><CdtDbtInd>${credit ? 'CRDT' : 'DBIT'}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>` +
        `<BookgDt><Dt>${d}</Dt></BookgDt><ValDt><Dt>${d}</Dt></ValDt><AcctSvcrRef>BENCH${String(i).padStart(9, '0')}</AcctSvcrRef>` +
        `<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>` +
        `<NtryDtls><TxDtls><Refs><EndToEndId>E2E-${i}</EndToEndId></Refs><RltdPties>${party}</RltdPties>` +
        `<RmtInf><Ustrd>Rechnung RE-${i}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`,
    );
  }
  const bal = (code: string, minor: number, d: string) =>
    `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">${(Math.abs(minor) / 100).toFixed(2)}</Amt>` +
    `<CdtDbtInd>${minor < 0 ? 'DBIT' : 'CRDT'}</CdtDbtInd><Dt><Dt>${d}</Dt></Dt></Bal>`;
  const opening = 5_000_000;
  const xml =
    `<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>` +
    `<GrpHdr><MsgId>BENCH</MsgId><CreDtTm>2026-10-01T06:00:00Z</CreDtTm></GrpHdr><Stmt><Id>BENCH-1</Id>` +
    `<Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>` +
    `${bal('OPBD', opening, day(0).toISOString().slice(0, 10))}${bal(
      'CLBD',
      opening + total,
      day(ROWS - 1)
        .toISOString()
        .slice(0, 10),
    )}\n` +
    `${entries.join('\n')}\n</Stmt></BkToCstmrStmt></Document>\n`;
  return Buffer.from(xml);
}

/** Raw inserts of the same rows (the columns the import writes) into the same table, one transaction. */
function rawInsert(db: Db, teamId: string, accountId: string, bytes: Buffer): number {
  const parsed = parseBankFile(bytes, { currency: 'EUR' }).file;
  const fps = fingerprints(accountId, parsed.rows);
  const now = new Date().toISOString();
  let rowid = (db.prepare('SELECT coalesce(max(search_rowid), 0) FROM transactions').pluck().get() as number) + 1;
  const insert = db.prepare(
    `INSERT INTO transactions (id, team_id, internal_id, bank_account_id, name, description, method, amount_minor, currency,
       counterparty_name, date, status, manual, metadata, created_at, updated_at, seq, search_rowid, review_state,
       is_fulfilled, external_id, fingerprint, import_batch_id)
     VALUES (?, ?, ?, ?, ?, ?, 'unknown', ?, 'EUR', ?, ?, ?, 0, '{}', ?, ?, 0, ?, 'to_review', 0, ?, ?, 'raw')`,
  );
  const t = performance.now();
  db.transaction(() => {
    parsed.rows.forEach((r, i) => {
      const id = newId();
      insert.run(
        id,
        teamId,
        id,
        accountId,
        r.name,
        r.description,
        r.amountMinor,
        r.counterparty,
        r.date,
        r.status,
        now,
        now,
        rowid++,
        r.externalId,
        fps[i],
      );
    });
  })();
  return performance.now() - t;
}

/** Median of `n` timings of `work`. */
async function median(n: number, work: () => unknown): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await work();
    ms.push(performance.now() - t);
  }
  return ms.sort((a, b) => a - b)[Math.floor(n / 2)]!;
}

/** The parse alone, in this process and through the sandbox: the worker hop's cost. */
async function parseCompare(bytes: Buffer, rounds: number): Promise<void> {
  const inProcess = await median(rounds, () => parseBankFile(bytes, { currency: 'EUR' }));
  const sandboxed = await median(rounds, () => parseInSandbox(bytes, { currency: 'EUR' }));
  log(
    `  parse alone (median of ${rounds}): in this process ${secs(inProcess)}, in the sandbox ${secs(sandboxed)}; ratio ${(inProcess / sandboxed).toFixed(2)}`,
  );
}

async function run(label: string, bytes: Buffer, base: { dir: string; teamId: string; accountId: string }): Promise<void> {
  log(`\n${label}: ${ROWS} rows, ${(bytes.length / 1024 / 1024).toFixed(1)} MiB`);
  // `--no-parse-compare`: straight to the import, as the parent commit's bench does (for a comparison across them).
  const compare = !process.argv.includes('--no-parse-compare');
  if (compare) await parseCompare(bytes, ROWS <= 20_000 ? 7 : 3);
  const rawDir = copyOf(base.dir, `${label}-raw`);
  const rawDb = openDatabase(rawDir);
  const rawMs = rawInsert(rawDb, base.teamId, base.accountId, bytes);
  rawDb.close();
  fs.rmSync(rawDir, { recursive: true, force: true });
  log(`  raw better-sqlite3 inserts, one transaction: ${secs(rawMs)} (${Math.round(ROWS / (rawMs / 1000))} rows/s)`);

  const dir = copyOf(base.dir, `${label}-import`);
  const db = openDatabase(dir);
  let t = performance.now();
  let lastTenth = -1;
  const phases: [string, number][] = [['parse', performance.now()]];
  const r = await commitFile(db, base.teamId, base.accountId, bytes, {
    fileName: `bench.${label}`,
    applyRules: RULES,
    onPhase: (p) => phases.push([p, performance.now()]),
    onProgress: (done, total) => {
      const tenth = Math.floor((done / total) * 10);
      if (tenth !== lastTenth && tenth % 5 === 0) {
        lastTenth = tenth;
        log(`    written ${done}/${total} (${secs(performance.now() - t)})`);
      }
    },
  });
  const importMs = performance.now() - t;
  log(
    `  import (parse, plan, commit, rules, pairing): ${secs(importMs)} (${Math.round(ROWS / (importMs / 1000))} rows/s), ` +
      `created ${r.batch.counts.created}, duplicates ${r.batch.counts.duplicate}, balance ${r.batch.balance?.status}`,
  );
  phases.push(['commit', performance.now()]);
  log(
    `  phases: ${phases
      .slice(0, -1)
      .map(([p, at], i) => `${p} ${secs(phases[i + 1]![1] - at)}`)
      .join(', ')}`,
  );
  log(`  ratio to raw inserts: ${(rawMs / importMs).toFixed(2)} (target >= 0.3)${RULES ? '' : ' (rules left out)'}`);
  t = performance.now();
  const again = await commitFile(db, base.teamId, base.accountId, bytes, { fileName: `bench.${label}`, allowReimport: true });
  const reMs = performance.now() - t;
  log(
    `  re-import of the same file: ${secs(reMs)} (${Math.round(ROWS / (reMs / 1000))} rows/s), created ${again.batch.counts.created}, ` +
      `duplicates ${again.batch.counts.duplicate}; ratio to raw inserts ${(rawMs / reMs).toFixed(2)}`,
  );
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

async function main(): Promise<void> {
  try {
    log(`seeding ${EXISTING} transactions into one account (demo writer)…`);
    const base = seed();
    // The sandbox's worker, started as a server's is before any upload.
    const t = performance.now();
    await parsers().run('bankFile', { bytes: Buffer.from('a;b\n1;2\n'), options: { currency: 'EUR' } });
    log(`  parser worker started in ${secs(performance.now() - t)}`);
    await run('csv', csvFile(), base);
    await run('camt053', camtFile(), base);
  } finally {
    await parsers().close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

void main();
