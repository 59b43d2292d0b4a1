/**
 * `npm run bench`: runs every benchmark in turn, each in its own process so one cannot warm or load another.
 * Each prints ratios against a baseline measured in the same run (never absolute targets: this machine is shared
 * and noisy). `npm run bench -- api` runs only the named ones.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const SUITES = [
  'api',
  'customer-list',
  'sqlite-durability',
  'transactions',
  'metrics',
  'import',
  'ui',
  'sync',
  'sync-first-round',
  'cli',
  'abuse',
  'load',
  'search',
  // [benchmark suites of later areas register here]
];
const only = process.argv.slice(2);
let failed = 0;
for (const suite of SUITES) {
  if (only.length && !only.includes(suite)) continue;
  const file = path.join(__dirname, `${suite}.ts`);
  if (!fs.existsSync(file)) continue;
  console.log(`\n=== bench: ${suite}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', file], { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`bench ${suite} failed (exit ${r.status})`);
    failed++;
  }
}
process.exit(failed ? 1 : 0);
