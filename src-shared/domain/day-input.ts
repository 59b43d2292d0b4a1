import { dayIn } from './invoice-dates';

/** A date-time that names an instant: it ends in Z or an offset. */
const OFFSET = /(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * The calendar day of a `DayInput` (src-shared/contract/common.ts): a date is itself; a date-time with an offset is
 * an instant, whose day is the one in `timeZone`; a date-time without one (a wall-clock time) names its own day.
 */
export function dayOf(value: string, timeZone: string): string {
  return OFFSET.test(value) ? dayIn(new Date(value), timeZone) : value.slice(0, 10);
}

/** Whether a `DayInput` needs a time zone to become a day (a zone lookup can be skipped otherwise). */
export function needsTimeZone(value: string | null | undefined): boolean {
  return typeof value === 'string' && OFFSET.test(value);
}
