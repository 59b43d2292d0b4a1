/**
 * The language a browser run speaks: English, or German with FINOPS_UI_LANG=de (the `de` project of
 * vitest.browser.config.mts runs every journey once in German). Tests name what a person sees in English, and
 * `tr()` gives it in the run's language from the app's own catalogues (src-renderer/i18n), so one journey reads the
 * same in both runs: `tr('Sign in')`, `tr('Created {{name}}', { name })`. Where one English text has two
 * translations, the key says which: `tk('transactions:count', { count: 3 })`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createInstance, type Resource } from 'i18next';
import type { BrowserContextOptions } from 'playwright-core';
import type { UserPatch } from '../../../src-shared/contract/users';
import { ROOT } from '../../helpers/cli';
import { testTimeZone } from '../../helpers/clock';

export const LANG = process.env.FINOPS_UI_LANG === 'de' ? 'de' : 'en';
/** The browser's and the test users' locale in this run. */
export const LOCALE = LANG === 'de' ? 'de-DE' : 'en-GB';
/** The formats the test users have chosen (so the first-sign-in question does not come up in every journey). */
export const USER_FORMATS: UserPatch =
  LANG === 'de'
    ? { locale: 'de-DE', dateFormat: 'dd.MM.yyyy', timezone: testTimeZone() ?? 'Europe/Berlin', timeFormat: 24 }
    : { locale: 'en-GB', dateFormat: 'yyyy-MM-dd', timezone: testTimeZone() ?? 'UTC', timeFormat: 24 };

const I18N = path.join(ROOT, 'src-renderer', 'i18n');

export const resources: Resource = {};
for (const language of fs.readdirSync(I18N).filter((d) => fs.statSync(path.join(I18N, d)).isDirectory())) {
  resources[language] = {};
  for (const file of fs.readdirSync(path.join(I18N, language)))
    resources[language][file.replace(/\.json$/, '')] = JSON.parse(fs.readFileSync(path.join(I18N, language, file), 'utf8'));
}

const i18n = createInstance();
void i18n.init({
  resources,
  lng: LANG,
  fallbackLng: 'en',
  initAsync: false,
  interpolation: { escapeValue: false },
});
const numbers = new Intl.NumberFormat(LOCALE);
i18n.services.formatter?.add('num', (value) => numbers.format(Number(value)));

type Tree = { [key: string]: string | Tree };
function flatten(tree: Tree, prefix: string, out: Map<string, string[]>): void {
  for (const [k, v] of Object.entries(tree)) {
    const key = `${prefix}${prefix.endsWith(':') ? '' : '.'}${k}`;
    if (typeof v === 'string') out.set(v, [...(out.get(v) ?? []), key.replace(/_(one|other)$/, '')]);
    else flatten(v, key, out);
  }
}
/** English text → the keys that say it. */
const byEnglish = new Map<string, string[]>();
for (const [ns, tree] of Object.entries(resources.en ?? {})) flatten(tree as Tree, `${ns}:`, byEnglish);

/** A key in another language than the run's (after a switch in the journey). */
export function tIn(language: 'en' | 'de', key: string, vars: Record<string, unknown> = {}): string {
  return i18n.getFixedT(language)(key, vars);
}

/**
 * The English texts of the catalogues that German says otherwise (whole strings, no placeholders): any of them shown
 * on a German screen is English that leaked through.
 */
export function englishOnly(): Set<string> {
  const out = new Set<string>();
  for (const [english, keys] of byEnglish) {
    if (english.includes('{{') || !/[A-Za-z]{3}/.test(english)) continue;
    if (keys.every((k) => i18n.getFixedT('de')(k, { count: 2 }) !== english)) out.add(english);
  }
  return out;
}

/** A key in the run's language. */
export function tk(key: string, vars: Record<string, unknown> = {}): string {
  return i18n.t(key, vars);
}

/** What the app says for this English text (a catalogue string, placeholders and all) in the run's language. */
export function tr(english: string, vars: Record<string, unknown> = {}): string {
  const keys = [...new Set(byEnglish.get(english) ?? [])];
  if (keys.length === 0) throw new Error(`tr: no catalogue string reads "${english}"`);
  const said = new Set(keys.map((k) => tk(k, vars)));
  if (said.size > 1) throw new Error(`tr: "${english}" has several translations (${keys.join(', ')}): use tk() with the key`);
  return [...said][0] as string;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A pattern for text that starts with the translation ("New customer" and its key hint). */
export function startsWith(english: string, vars?: Record<string, unknown>): RegExp {
  return new RegExp(`^${escapeRegExp(tr(english, vars))}`);
}
/** A pattern for text said already (by `tk`): found anywhere in a longer text. */
export function literally(said: string): RegExp {
  return new RegExp(escapeRegExp(said));
}

/** A pattern for text that holds the translation anywhere. */
export function containing(english: string, vars?: Record<string, unknown>): RegExp {
  return new RegExp(escapeRegExp(tr(english, vars)));
}

/** A number as the run's users read it: `formatted(12.5, 2)` is "12.50" or "12,50". */
export function formatted(value: number, digits = 0): string {
  return new Intl.NumberFormat(LOCALE, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

/** A day ("2026-11-30") in the run's users' date format. */
export function userDay(iso: string): string {
  const [y, m, d] = iso.split('-');
  return USER_FORMATS.dateFormat === 'dd.MM.yyyy' ? `${d}.${m}.${y}` : iso;
}

/**
 * A pattern for the translation with its placeholders as patterns of their own:
 * `pattern('Notifications, {{shown}} unread', { shown: '(\\d+)' })`.
 */
export function pattern(english: string, holes: Record<string, string>, flags?: string): RegExp {
  const names = Object.keys(holes);
  const marked = tr(english, Object.fromEntries(names.map((n, i) => [n, `\uE000${i}\uE000`])));
  const source = escapeRegExp(marked).replace(/\uE000(\d+)\uE000/g, (_, i: string) => holes[names[Number(i)] ?? ''] ?? '');
  return new RegExp(source, flags);
}

/** A browser context in the run's language, at 1280 × 800 unless told otherwise. */
export function contextOptions(options: BrowserContextOptions = {}): BrowserContextOptions {
  const timezoneId = testTimeZone();
  return { viewport: { width: 1280, height: 800 }, locale: LOCALE, ...(timezoneId ? { timezoneId } : {}), ...options };
}
