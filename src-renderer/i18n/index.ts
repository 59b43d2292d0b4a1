/// <reference types="vite/client" />
/**
 * The screens' text in the user's language: i18next with react-i18next. Each screen has a namespace of its own, one
 * JSON file per language (`i18n/<language>/<namespace>.json`), which the build finds by itself, so a new screen adds
 * its files without touching a shared catalogue or this module. `common` holds what every screen says (Cancel,
 * Retry, Loading…). English is the source; German is complete; French is started and falls back to English.
 *
 * The language follows the user's locale (`/v1/users/me`, set by the app frame through `setLanguage`); before
 * anyone signs in, the browser's. Numbers, dates and amounts inside a sentence go through the formatting module
 * (`lib/format.ts`): `{{count, num}}`, `{{day, day}}`, `{{at, datetime}}` in a string, or a value formatted before.
 *
 * A key missing in a complete language is reported (`console.error`), which every browser journey fails on, and
 * `test/renderer/i18n/catalogues.test.ts` compares the catalogues key by key.
 */
import i18next, { type PostProcessorModule, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { formatDate, formatDateTime, formatNumber } from '../lib/format';

export const LANGUAGES = ['en', 'de', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];
/** Languages in which every English key must exist; French is started and may fall back to English. */
export const COMPLETE_LANGUAGES: readonly Language[] = ['en', 'de'];
export const SOURCE_LANGUAGE: Language = 'en';

const files = import.meta.glob<Record<string, unknown>>('./*/*.json', { eager: true, import: 'default' });

/** The catalogues by language and namespace, as the build found them. */
export const resources: Resource = {};
for (const [file, content] of Object.entries(files)) {
  const [, language, namespace] = /^\.\/([^/]+)\/([^/]+)\.json$/.exec(file) ?? [];
  if (!language || !namespace) continue;
  resources[language] ??= {};
  resources[language][namespace] = content as Record<string, string>;
}
export const NAMESPACES = Object.keys(resources[SOURCE_LANGUAGE] ?? {});

/** The UI language for a BCP 47 locale ("de-AT" → "de"); English for a language the screens do not speak. */
export function languageOf(locale: string | null | undefined): Language {
  const primary = (locale ?? '').split(/[-_]/)[0]?.toLowerCase();
  return (LANGUAGES as readonly string[]).includes(primary ?? '') ? (primary as Language) : SOURCE_LANGUAGE;
}

function report(message: string): void {
  console.error(`i18n: ${message}`);
}

/** Says when a string of a complete language came from another language (a translation is missing). */
const reportFallback: PostProcessorModule = {
  type: 'postProcessor',
  name: 'report-fallback',
  process(value, key, options) {
    const resolved = (options as { i18nResolved?: { usedLng?: string; usedNS?: string; res?: unknown } }).i18nResolved;
    const language = languageOf(i18next.language);
    if (resolved?.res !== undefined && resolved.usedLng && resolved.usedLng !== language && COMPLETE_LANGUAGES.includes(language))
      report(`"${resolved.usedNS}:${String(key)}" has no ${language} translation`);
    return value;
  },
};

void i18next
  .use(initReactI18next)
  .use(reportFallback)
  .init({
    resources,
    lng: languageOf(globalThis.navigator?.language),
    fallbackLng: SOURCE_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    ns: NAMESPACES,
    defaultNS: 'common',
    interpolation: { escapeValue: false }, // React escapes what it renders
    returnNull: false,
    postProcess: ['report-fallback'],
    postProcessPassResolved: true,
    saveMissing: true,
    missingKeyHandler: (languages, namespace, key) => report(`"${namespace}:${key}" is missing (${languages.join(', ')})`),
    initAsync: false, // the catalogues are in the bundle: ready before the first render
  });

// Numbers and dates inside sentences, in the user's formats (locale, number format, date format, time zone).
i18next.services.formatter?.add('num', (value) => formatNumber(Number(value)));
i18next.services.formatter?.add('day', (value) => formatDate(String(value)));
i18next.services.formatter?.add('datetime', (value) => formatDateTime(String(value)));

function applyDocumentLanguage(language: string): void {
  if (globalThis.document) document.documentElement.lang = language;
}
applyDocumentLanguage(i18next.language);
i18next.on('languageChanged', applyDocumentLanguage);

/** Switches the screens to the language of a locale; resolves once every mounted screen has re-rendered. */
export function setLanguage(locale: string | null | undefined): Promise<unknown> {
  const language = languageOf(locale);
  return i18next.language === language ? Promise.resolve() : i18next.changeLanguage(language);
}

export const i18n = i18next;
/** A string outside React (toasts from stores, messages of pure modules): `t('common:retry')`. */
export const t = i18next.t.bind(i18next);
