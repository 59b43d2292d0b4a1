#!/usr/bin/env node
'use strict';
/**
 * Builds the `finops` command line into out/cli with esbuild (docs/decisions/0008-compiled-cli.md): one CommonJS
 * file of the project's code from src-main/cli/main.ts, dependencies left to node_modules (native modules, and
 * packages that read their own files). A command's modules are reached through dynamic imports, which esbuild keeps
 * lazy inside the one file: `finops --help` evaluates none of them.
 *
 * Run by `npm run build`, `scripts/setup.sh`, and by bin/finops when the build is missing or older than a source.
 * The sources bin/finops watches are written to out/cli/inputs: the top-level folders and files of every input
 * esbuild read (src-main, src-shared, resources, package.json), with tsconfig.json and this script. A new import
 * from elsewhere edits a watched file first, so the list stays complete.
 * Several processes may build at once (parallel tests): each writes its own temporary files and renames them into
 * place. The files are stamped with the time the build started, so a source saved during the build is newer than
 * the output and the next start builds again.
 */
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const root = path.resolve(__dirname, '..');
const outdir = path.join(root, 'out', 'cli');
/** What bin/finops runs, and the build's time stamp: written last, so it is never newer than the rest. */
const entry = path.join(outdir, 'finops.cjs');

const started = new Date();
const result = esbuild.buildSync({
  absWorkingDir: root,
  entryPoints: [
    { in: 'src-main/cli/main.ts', out: 'finops' },
    // Started by path (`path.join(__dirname, 'ocr-worker.cjs')`, src-main/documents/ocr.ts), so not reached by
    // following imports: built beside the CLI, as electron.vite.config.ts puts it beside the desktop main.
    { in: 'src-main/documents/ocr-worker.cjs', out: 'ocr-worker' },
    // The parser sandbox's worker thread (src-main/sandbox/pool.ts looks for it beside its own bundle).
    { in: 'src-main/sandbox/worker.ts', out: 'parser-worker' },
  ],
  outdir,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  packages: 'external',
  sourcemap: 'linked',
  metafile: true,
  write: false,
  logLevel: 'warning',
});

fs.mkdirSync(outdir, { recursive: true });
const inputs = new Set(['tsconfig.json', 'scripts/build-cli.cjs']);
for (const input of Object.keys(result.metafile.inputs)) inputs.add(input.split('/')[0]);
const files = [
  ...result.outputFiles,
  {
    path: path.join(outdir, 'inputs'),
    contents: Buffer.from(
      [...inputs]
        .sort()
        .map((p) => `${p}\n`)
        .join(''),
    ),
  },
].sort((a, b) => Number(a.path === entry) - Number(b.path === entry));
for (const file of files) {
  const tmp = `${file.path}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, file.contents);
  fs.utimesSync(tmp, started, started);
  fs.renameSync(tmp, file.path);
}
