/**
 * The catalogues hold together: every English key exists in each complete language (German) with the plural forms
 * that language needs and the same placeholders; no language keeps a key English no longer has; a started language
 * (French) may lack keys but not invent any. And every key the screens ask for by name exists in English.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMPLETE_LANGUAGES, LANGUAGES, resources, SOURCE_LANGUAGE } from '../../../src-renderer/i18n';
import { ROOT } from '../../helpers/cli';

type Tree = { [key: string]: string | Tree };

/** `{ a: { b: 'x' } }` → `{ 'a.b': 'x' }`. */
function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
}

const PLURAL = /_(zero|one|two|few|many|other)$/;
const base = (key: string) => key.replace(PLURAL, '');
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)/g)].map((m) => m[1]).sort();

function catalogue(language: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [ns, tree] of Object.entries(resources[language] ?? {}))
    for (const [k, v] of flatten(tree as Tree)) out.set(`${ns}:${k}`, v);
  return out;
}

const english = catalogue(SOURCE_LANGUAGE);

describe('the catalogues', () => {
  it('has one file per namespace in English, the source', () => {
    expect(Object.keys(resources[SOURCE_LANGUAGE] ?? {}).sort()).toEqual(
      expect.arrayContaining(['app', 'common', 'customers', 'import', 'runway', 'settings', 'transactions', 'workflows']),
    );
    expect(english.size).toBeGreaterThan(500);
  });

  for (const language of COMPLETE_LANGUAGES.filter((l) => l !== SOURCE_LANGUAGE)) {
    it(`has every English key in ${language}, with its plural forms and placeholders`, () => {
      const translated = catalogue(language);
      const rules = new Intl.PluralRules(language);
      const forms = rules.resolvedOptions().pluralCategories;
      const missing: string[] = [];
      const wrongPlaceholders: string[] = [];
      const plurals = new Set([...english.keys()].filter((k) => PLURAL.test(k)).map(base));
      for (const [key, text] of english) {
        if (plurals.has(base(key)) && PLURAL.test(key)) continue;
        const other = translated.get(key);
        if (other === undefined) missing.push(key);
        else if (placeholders(other).join() !== placeholders(text).join()) wrongPlaceholders.push(key);
      }
      for (const key of plurals) {
        const englishVars = placeholders(english.get(`${key}_other`) ?? '');
        for (const form of forms) {
          const other = translated.get(`${key}_${form}`);
          if (other === undefined) missing.push(`${key}_${form}`);
          else if (
            placeholders(other)
              .filter((v) => v !== 'count')
              .join() !== englishVars.filter((v) => v !== 'count').join()
          )
            wrongPlaceholders.push(`${key}_${form}`);
        }
      }
      expect(missing, `keys without a ${language} translation`).toEqual([]);
      expect(wrongPlaceholders, `${language} strings whose placeholders differ from English`).toEqual([]);
    });
  }

  for (const language of LANGUAGES.filter((l) => l !== SOURCE_LANGUAGE)) {
    it(`keeps no ${language} key that English does not have`, () => {
      const stale = [...catalogue(language).keys()].filter((k) => !english.has(k) && !english.has(`${base(k)}_other`));
      expect(stale).toEqual([]);
    });
  }

  it('has French started: the frame, sign-in, settings and notifications', () => {
    const french = catalogue('fr');
    for (const ns of ['app', 'common', 'notifications', 'settings', 'signin'])
      expect(
        [...french.keys()].some((k) => k.startsWith(`${ns}:`)),
        ns,
      ).toBe(true);
  });
});

/** Every source file of the renderer, but the catalogues. */
function sources(dir = path.join(ROOT, 'src-renderer')): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'i18n' ? [] : sources(p);
    return /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

describe('the keys the screens ask for', () => {
  it("exist in English (a literal key: `t('ns:key')`, or `t('key')` in the namespace the file translates in (useTranslation, TFunction))", () => {
    const unknown: string[] = [];
    let checked = 0;
    const files = sources();
    const texts = new Map(files.map((f) => [f, fs.readFileSync(f, 'utf8')]));
    for (const file of files) {
      const text = texts.get(file) ?? '';
      const namespaces = /useTranslation\(\s*props\.namespace\s*\)/.test(text)
        ? callerNamespaces(file, texts)
        : [/(?:useTranslation\(\s*|TFunction<)'([\w-]+)'/.exec(text)?.[1] ?? 'common'];
      for (const m of text.matchAll(/\b(?:t|tr|tx|translate|i18n\.t)\(\s*'([\w.:-]+)'/g)) {
        const literal = m[1] ?? '';
        for (const ns of namespaces) {
          const key = literal.includes(':') ? literal : `${ns}:${literal}`;
          checked++;
          if (!english.has(key) && !english.has(`${key}_other`)) unknown.push(`${path.relative(ROOT, file)}: ${key}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(400);
    expect(unknown).toEqual([]);
  });
});

/**
 * A shared component that translates in its caller's namespace (`useTranslation(props.namespace)`, as RecordPage
 * does): the namespaces its callers pass (`<RecordPage namespace="invoices"`), each of which must hold its keys.
 */
function callerNamespaces(file: string, texts: Map<string, string>): string[] {
  const component = path.basename(file).replace(/\.tsx?$/, '');
  const use = new RegExp(`<${component}\\b[^>]*?\\bnamespace="([\\w-]+)"`, 'gs');
  const found = [...texts.values()].flatMap((text) => [...text.matchAll(use)].map((m) => m[1] ?? ''));
  expect(found, `the callers of ${component} and the namespaces they pass`).not.toEqual([]);
  return [...new Set(found)];
}

/** Text that is the same in every language: the product's name, versions' names, what a person types. */
const UNTRANSLATED = new Set(['Finops Desk', 'Electron / Chrome / Node', 'finops user create']);

describe('the screens’ code', () => {
  it('writes no text of its own: what a person reads comes from the catalogues', () => {
    const written: string[] = [];
    for (const file of sources().filter((f) => f.endsWith('.tsx'))) {
      const text = fs.readFileSync(file, 'utf8');
      // Text between JSX tags, and texts given as a label, title, header, placeholder or name for assistive technology.
      const found = [
        ...[...text.matchAll(/>\s*([^<>{}()=;:`?|&]*[A-Za-z]{3,}[^<>{}()=;:`?|&]*?)\s*(?=<\/?[A-Za-z])/g)].map((m) => m[1]),
        ...[
          ...text.matchAll(
            /\b(?:aria-label|title|placeholder|label|header|inputLabel|confirmLabel|alt)=["']([^"']*[A-Za-z]{2}[^"']*)["']/g,
          ),
        ].map((m) => m[1]),
        ...[...text.matchAll(/\b(?:label|title|header|placeholder|what):\s*'([^']*[A-Za-z]{3}[^']*)'/g)].map((m) => m[1]),
      ];
      // Names starting with "_" are internal (chart series that are never shown).
      for (const t of found)
        if (t && !t.startsWith('_') && !UNTRANSLATED.has(t.trim())) written.push(`${path.relative(ROOT, file)}: ${t.trim()}`);
    }
    expect(written).toEqual([]);
  });
});
