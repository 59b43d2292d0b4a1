import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layers stay downward (docs/ARCHITECTURE.md): the store sits at the bottom and imports only `src-shared` and
 * itself; `src-shared` (bundled into the renderer too) imports nothing of `src-main` and no Node built-in. Every
 * relative import of each file is resolved and checked, so a new upward arrow fails here with its file and target.
 */
const ROOT = path.resolve(__dirname, '../../..');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const f = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(f));
    else if (/\.(ts|tsx|mts|cts|js|cjs|mjs)$/.test(e.name)) out.push(f);
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

function violations(folder: string, allowed: (target: string, spec: string) => boolean): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(path.join(ROOT, folder))) {
    for (const spec of importsOf(fs.readFileSync(file, 'utf8'))) {
      const target = spec.startsWith('.') ? path.relative(ROOT, path.resolve(path.dirname(file), spec)) : spec;
      if (!allowed(target, spec)) found.push(`${path.relative(ROOT, file)} -> ${target}`);
    }
  }
  return found;
}

describe('layering', () => {
  it('finds imports written every way (the check itself can fail)', () => {
    expect(
      importsOf(`import a from '../x';\nexport { b } from "./y";\nconst c = await import('../../z');\nrequire('w')`),
    ).toEqual(['../x', './y', '../../z', 'w']);
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
});
