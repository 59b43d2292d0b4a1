import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layers stay downward (docs/ARCHITECTURE.md): every source file belongs to a layer, and every relative import
 * of each file is resolved and checked, so a new arrow running back up fails here with its file and target. Within
 * a layer, folders may import each other; the store imports only `src-shared` and itself; `src-shared` (bundled
 * into the renderer too) imports nothing of `src-main` and no Node built-in.
 */
const ROOT = path.resolve(__dirname, '../..');

/** Top (0) to bottom: a file may import its own layer and the ones below (a higher number). */
const LAYERS: readonly (readonly string[])[] = [
  // The shells and the screens: Electron's main process, the renderer.
  ['src-main/electron', 'src-renderer'],
  // What a person or a shell starts: the CLI, the HTTP server, the desktop app's server host (utility process).
  ['src-main/cli', 'src-main/server', 'src-main/server-host'],
  // What a process starts: opening a data dir, the domain-event subscriptions, the background runners.
  ['src-main/runtime'],
  // Orchestration: engines and pipelines over the store, no SQL.
  [
    'src-main/sync',
    'src-main/workflows',
    'src-main/rules',
    'src-main/import',
    'src-main/invoices',
    'src-main/einvoice',
    'src-main/documents',
    'src-main/inbox-ingest',
    'src-main/sandbox',
    'src-main/metrics',
    'src-main/pdf',
    'src-main/demo',
    'src-main/backup',
    'src-main/desktop',
  ],
  // What the layers above take from the machine: the blob store, secret files, the keychain, the drain loop
  // (infra/); every request that leaves it (outbound/); what the operator allowed at start (operator/).
  ['src-main/infra', 'src-main/outbound', 'src-main/operator'],
  ['src-main/store'],
  // Process-wide facts every layer may read: the clock, the data dir's default place, the version.
  ['src-main/clock.ts', 'src-main/paths.ts', 'src-main/version.ts'],
  ['src-shared'],
];

/** The layer of a path (a file or an import's target without its extension), or undefined outside them. */
function layerOf(rel: string): number | undefined {
  let best: { layer: number; length: number } | undefined;
  LAYERS.forEach((entries, layer) => {
    for (const entry of entries) {
      const bare = entry.replace(/\.ts$/, '');
      const hit = rel === entry || rel === bare || rel.startsWith(`${bare}/`) || rel.startsWith(`${bare}.`);
      if (hit && (!best || entry.length > best.length)) best = { layer, length: entry.length };
    }
  });
  return best?.layer;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const f = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(f));
    else if (/\.(ts|tsx|mts|cts|js|cjs|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(f);
  }
  return out;
}

/** Every module a file imports (static, dynamic, re-export, require), as written. */
function importsOf(source: string): string[] {
  const specs: string[] = [];
  const re = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)(['"])([^'"]+)\1/g;
  for (const m of source.matchAll(re)) specs.push(m[2]!);
  return specs;
}

const ALL = ['src-main', 'src-shared', 'src-renderer'].flatMap((d) => sourceFiles(path.join(ROOT, d)));

function violations(folder: string, allowed: (target: string, spec: string) => boolean): string[] {
  const found: string[] = [];
  for (const file of ALL.filter((f) => path.relative(ROOT, f).startsWith(`${folder}/`))) {
    for (const spec of importsOf(fs.readFileSync(file, 'utf8'))) {
      const target = spec.startsWith('.') ? path.relative(ROOT, path.resolve(path.dirname(file), spec)) : spec;
      if (!allowed(target, spec)) found.push(`${path.relative(ROOT, file)} -> ${target}`);
    }
  }
  return found;
}

/**
 * The folder a source path belongs to for the circle check: `src-main/<x>` and, the store being one layer of many
 * resource areas, `src-main/store/<x>`. A file directly in `src-main/` or in the store's root has none: the store
 * root's registries (`feed.ts`, `entities.ts`) import every resource folder by design, and its shared modules
 * (`db.ts`, `write.ts`, the SQL fragments) are below them all.
 */
function folderOf(rel: string): string | undefined {
  const parts = rel.split('/');
  if (parts[0] !== 'src-main') return undefined;
  if (parts[1] === 'store') return parts.length > 3 ? `src-main/store/${parts[2]}` : undefined;
  return parts.length > 2 ? `src-main/${parts[1]}` : undefined;
}

/**
 * The pairs of folders that import each other, as `a <-> b` (a before b), each with one import either way as the
 * example: `imports` are [file, target] paths relative to the root. A type-only import counts like any other: the
 * importer still breaks when the type changes, and a reader of one folder still has to read the other.
 */
function foldersImportingEachOther(imports: readonly (readonly [string, string])[]): string[] {
  const example = new Map<string, string>();
  for (const [file, target] of imports) {
    const from = folderOf(file);
    const to = folderOf(target);
    if (from && to && from !== to && !example.has(`${from} -> ${to}`)) example.set(`${from} -> ${to}`, `${file} -> ${target}`);
  }
  const circles: string[] = [];
  for (const [edge, one] of example) {
    const [from, to] = edge.split(' -> ') as [string, string];
    const back = example.get(`${to} -> ${from}`);
    if (back && from < to) circles.push(`${from} <-> ${to} (${one}; ${back})`);
  }
  return circles.sort();
}

/**
 * The circles between folders not broken yet, each with why. The check fails on any other circle, and on an entry
 * here that is no longer one (the list only shrinks).
 */
const CIRCLES_LEFT: Record<string, string> = {
  // The job table (sandbox/jobs.ts) names each parser so the worker can run it, and the pool takes its limits and
  // its typed inputs and answers from that table, while the parsers' callers sit beside the parsers. The modules
  // make no cycle (documents/extract.ts -> sandbox/pool.ts -> sandbox/jobs.ts -> documents/read-document.ts); to
  // part the folders, the pool would be typed apart from the table and the worker (bundled by its path) moved out of
  // sandbox/: a change of code, not a move.
  'src-main/documents <-> src-main/sandbox': 'the sandbox job table names the parsers; their callers use the pool',
  'src-main/import <-> src-main/sandbox': 'the sandbox job table names the parsers; their callers use the pool',
  'src-main/inbox-ingest <-> src-main/sandbox': 'the sandbox job table names the parsers; their callers use the pool',
};

/** Every relative import of src-main, as [file, target] paths relative to the root. */
function mainImports(): [string, string][] {
  const out: [string, string][] = [];
  for (const file of ALL.filter((f) => path.relative(ROOT, f).startsWith('src-main/'))) {
    for (const spec of importsOf(fs.readFileSync(file, 'utf8'))) {
      if (spec.startsWith('.'))
        out.push([path.relative(ROOT, file), path.relative(ROOT, path.resolve(path.dirname(file), spec))]);
    }
  }
  return out;
}

describe('layering', () => {
  it('finds imports written every way, and places paths in their layers (the check itself can fail)', () => {
    expect(
      importsOf(`import a from '../x';\nexport { b } from "./y";\nconst c = await import('../../z');\nrequire('w')`),
    ).toEqual(['../x', './y', '../../z', 'w']);
    expect(layerOf('src-main/server/app.ts')).toBe(1);
    expect(layerOf('src-main/server-host/entry')).toBe(1);
    expect(layerOf('src-main/store/db')).toBe(5);
    expect(layerOf('src-main/clock')).toBe(6);
    expect(layerOf('src-main/clockwork/x.ts')).toBeUndefined();
    expect(layerOf('package.json')).toBeUndefined();
  });

  it('finds two folders that import each other, type-only too, store folders apart and the store root exempt', () => {
    expect(folderOf('src-main/einvoice/read.ts')).toBe('src-main/einvoice');
    expect(folderOf('src-main/store/invoices/read')).toBe('src-main/store/invoices');
    expect(folderOf('src-main/store/feed.ts')).toBeUndefined();
    expect(folderOf('src-main/clock.ts')).toBeUndefined();
    expect(
      foldersImportingEachOther([
        ['src-main/a/x.ts', 'src-main/b/y'],
        ['src-main/b/z.ts', 'src-main/a/x'],
        ['src-main/store/p/r.ts', 'src-main/store/q/s'],
        ['src-main/store/q/t.ts', 'src-main/store/p/r'],
        // Downward only, within a folder, or through the store root: no circle.
        ['src-main/c/x.ts', 'src-main/store/p/r'],
        ['src-main/a/x.ts', 'src-main/a/w'],
        ['src-main/store/feed.ts', 'src-main/store/p/r'],
        ['src-main/store/p/r.ts', 'src-main/store/db'],
      ]),
    ).toEqual([
      'src-main/a <-> src-main/b (src-main/a/x.ts -> src-main/b/y; src-main/b/z.ts -> src-main/a/x)',
      'src-main/store/p <-> src-main/store/q (src-main/store/p/r.ts -> src-main/store/q/s; src-main/store/q/t.ts -> src-main/store/p/r)',
    ]);
    // A type-only import is found like any other, so its circle counts.
    expect(importsOf(`import type { A } from '../b/y';`)).toEqual(['../b/y']);
  });

  it('no two folders of src-main (or of the store) import each other, but the few circles left, named with why', () => {
    const circles = foldersImportingEachOther(mainImports());
    const pairOf = (circle: string) => circle.split(' (')[0]!;
    expect(circles.filter((c) => !(pairOf(c) in CIRCLES_LEFT))).toEqual([]);
    // An entry whose circle is broken leaves the list.
    expect(Object.keys(CIRCLES_LEFT).filter((pair) => !circles.some((c) => pairOf(c) === pair))).toEqual([]);
  });

  it('every source file of src-main, src-shared and src-renderer is in a layer', () => {
    const unplaced = ALL.map((f) => path.relative(ROOT, f)).filter((rel) => layerOf(rel) === undefined);
    expect(unplaced).toEqual([]);
  });

  it('no import runs up a layer, anywhere', () => {
    const upward: string[] = [];
    for (const file of ALL) {
      const rel = path.relative(ROOT, file);
      const own = layerOf(rel)!;
      for (const spec of importsOf(fs.readFileSync(file, 'utf8'))) {
        if (!spec.startsWith('.')) continue;
        const target = path.relative(ROOT, path.resolve(path.dirname(file), spec));
        const theirs = layerOf(target);
        if (theirs !== undefined && theirs < own) upward.push(`${rel} (${own}) -> ${target} (${theirs})`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('the store imports only src-shared, itself, data files in resources/ and packages', () => {
    const upward = violations('src-main/store', (target, spec) =>
      spec.startsWith('.')
        ? target.startsWith('src-main/store/') || target.startsWith('src-shared/') || target.startsWith('resources/')
        : true,
    );
    expect(upward).toEqual([]);
  });

  it('src-shared imports nothing of src-main and no Node built-in', () => {
    const wrong = violations('src-shared', (target, spec) =>
      spec.startsWith('.') ? target.startsWith('src-shared/') : !spec.startsWith('node:'),
    );
    expect(wrong).toEqual([]);
  });

  it('the renderer reaches the server over HTTP only: it imports src-shared and itself, never src-main', () => {
    const wrong = violations('src-renderer', (target, spec) =>
      spec.startsWith('.') ? target.startsWith('src-renderer/') || target.startsWith('src-shared/') : true,
    );
    expect(wrong).toEqual([]);
  });
});
