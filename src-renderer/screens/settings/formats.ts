/**
 * Personal formats: the language and region (the user's BCP 47 locale, which also picks the screens' language),
 * date format, time zone, 12/24 h clock and first day of the week of `/v1/users/me`, and the number format kept in
 * this browser (stores/number-format.ts). Pure functions: what to suggest for a locale, which locales to offer,
 * and whether a user has ever chosen (the server's default locale, "en", has no region; a choice made here always
 * has one), so the app asks at the first sign-in instead of showing ISO dates and "-EUR 35.11" by default.
 */
import { DATE_FORMATS, type User } from '../../../src-shared/contract/users';
import type { FormatPreferences, NumberFormatChoice } from '../../lib/format';

export type DateFormat = (typeof DATE_FORMATS)[number];

/** What the formats form edits: the user's preferences and the browser's number format. */
export interface FormatsDraft extends FormatPreferences {
  weekStartsOnMonday: boolean;
}

/** The locales offered: each language the screens speak, in the regions that write it most. */
export const LOCALES = [
  'en-GB',
  'en-US',
  'en-IE',
  'en-CA',
  'en-AU',
  'de-DE',
  'de-AT',
  'de-CH',
  'fr-FR',
  'fr-BE',
  'fr-CH',
  'fr-CA',
] as const;

function region(locale: string): string | undefined {
  try {
    return new Intl.Locale(locale).region;
  } catch {
    return undefined;
  }
}

/** False while the user has the server's region-less default locale: they have never chosen their formats. */
export function hasChosenFormats(user: Pick<User, 'locale'>): boolean {
  return region(user.locale) !== undefined;
}

/** The locale to suggest for a browser language: itself when offered, else its language's first region. */
export function suggestLocale(browserLanguage: string | undefined): string {
  const wanted = browserLanguage ?? 'en-GB';
  const exact = LOCALES.find((l) => l.toLowerCase() === wanted.toLowerCase());
  if (exact) return exact;
  const language = wanted.split(/[-_]/)[0]?.toLowerCase();
  return LOCALES.find((l) => l.startsWith(`${language}-`)) ?? 'en-GB';
}

/** The locale's usual way of writing a day, among the formats the API knows. */
export function dateFormatOf(locale: string): DateFormat {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' }).formatToParts(
      Date.UTC(2026, 2, 5),
    );
  } catch {
    return 'yyyy-MM-dd';
  }
  const order = parts.filter((p) => p.type !== 'literal').map((p) => p.type);
  if (order[0] === 'year') return 'yyyy-MM-dd';
  if (order[0] === 'month') return 'MM/dd/yyyy';
  return parts.some((p) => p.type === 'literal' && p.value.trim() === '.') ? 'dd.MM.yyyy' : 'dd/MM/yyyy';
}

/** The locale's usual clock. */
export function timeFormatOf(locale: string): 12 | 24 {
  try {
    const cycle = new Intl.DateTimeFormat(locale, { hour: 'numeric' }).resolvedOptions().hourCycle;
    return cycle === 'h11' || cycle === 'h12' ? 12 : 24;
  } catch {
    return 24;
  }
}

/** Everything to suggest for a locale: its date format and clock; weeks from Monday except where they are not. */
export function suggestFormats(locale: string, timezone: string): FormatsDraft {
  return {
    locale,
    dateFormat: dateFormatOf(locale),
    timeFormat: timeFormatOf(locale),
    timezone,
    numberFormat: 'locale',
    weekStartsOnMonday: !['US', 'CA'].includes(region(locale) ?? ''),
  };
}

/**
 * The draft after choosing another language and region: the date format, clock and week start follow the new
 * locale's usual ones where they were still the old locale's (never chosen apart from it), and stay where the user
 * set them otherwise. Choosing German no longer keeps 05/03/2026.
 */
export function withLocale(draft: FormatsDraft, locale: string): FormatsDraft {
  const before = suggestFormats(draft.locale, draft.timezone);
  const after = suggestFormats(locale, draft.timezone);
  return {
    ...draft,
    locale,
    dateFormat: draft.dateFormat === before.dateFormat ? after.dateFormat : draft.dateFormat,
    timeFormat: draft.timeFormat === before.timeFormat ? after.timeFormat : draft.timeFormat,
    weekStartsOnMonday:
      draft.weekStartsOnMonday === before.weekStartsOnMonday ? after.weekStartsOnMonday : draft.weekStartsOnMonday,
  };
}

/** The draft for a user as they are, with this browser's number format. */
export function draftOf(user: User, numberFormat: NumberFormatChoice): FormatsDraft {
  return {
    locale: user.locale,
    dateFormat: user.dateFormat,
    timezone: user.timezone,
    timeFormat: user.timeFormat,
    weekStartsOnMonday: user.weekStartsOnMonday,
    numberFormat,
  };
}

/** The locales to offer, with the user's own first when it is not in the list (set through the API). */
export function localeChoices(current: string): string[] {
  return (LOCALES as readonly string[]).includes(current) ? [...LOCALES] : [current, ...LOCALES];
}

/** A locale's name in the screens' language: "Deutsch (Österreich)" is "German (Austria)" in English. */
export function localeName(locale: string, displayLanguage: string): string {
  try {
    return new Intl.DisplayNames([displayLanguage], { type: 'language', languageDisplay: 'standard' }).of(locale) ?? locale;
  } catch {
    return locale;
  }
}

/** The time zones to offer: the platform's list, with UTC and the current one. */
export function timeZoneChoices(current: string): string[] {
  let zones: string[] = [];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {}
  return [...new Set([current, 'UTC', ...zones])].sort((a, b) => (a === 'UTC' ? -1 : b === 'UTC' ? 1 : a.localeCompare(b)));
}

export { DATE_FORMATS };
