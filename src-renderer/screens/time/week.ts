/**
 * The time screen's rules, pure: the days of a week, durations as people type them ("1:30", "1,5", "45m",
 * "2h 15m") and the running timer's clock ("1:02:03").
 */

import { addDays, dayIn, zoneOffsetMs } from '../../../src-shared/domain/invoice-dates';
import { type NumberMarks, parseDecimal } from '../../lib/parse-number';

/** The seven days from a Monday. */
export function weekDays(monday: string): string[] {
  return Array.from({ length: 7 }, (_, i) => addDays(monday, i));
}

const HOURS_MINUTES = /^(\d{1,3}):([0-5]\d)$/;
const UNITS = /^(?:(\d+(?:[.,]\d+)?)\s*h)?\s*(?:(\d+)\s*(?:m|min))?$/i;

/** Seconds of a typed duration, or null. A bare number is hours ("1,5" is 1 h 30 min). */
export function parseDuration(text: string, marks?: NumberMarks): number | null {
  const s = text.trim();
  if (!s) return null;
  const hm = HOURS_MINUTES.exec(s);
  if (hm) return Number(hm[1]) * 3600 + Number(hm[2]) * 60;
  const hours = parseDecimal(s, marks);
  if (hours !== null) return hours > 0 ? Math.round(hours * 3600) : null;
  const units = UNITS.exec(s);
  if (units && (units[1] || units[2])) {
    const h = units[1] ? (parseDecimal(units[1], marks) ?? Number.NaN) : 0;
    const seconds = Math.round(h * 3600) + Number(units[2] ?? 0) * 60;
    return Number.isFinite(seconds) && seconds > 0 ? seconds : null;
  }
  return null;
}

const two = (n: number) => String(n).padStart(2, '0');

/**
 * An instant as the edit form shows it: its day and wall-clock time ("09:05", 24-hour, which `parseClock` reads
 * back) in a time zone.
 */
export function wallClock(iso: string, timeZone: string): { day: string; time: string } {
  const instant = new Date(iso);
  const minutes = Math.floor((instant.getTime() + zoneOffsetMs(instant, timeZone)) / 60_000);
  const ofDay = ((minutes % 1440) + 1440) % 1440;
  return { day: dayIn(instant, timeZone), time: `${two(Math.floor(ofDay / 60))}:${two(ofDay % 60)}` };
}

/** A duration as the edit form shows it, hours and minutes ("1:30"), which `parseDuration` reads back. */
export function durationText(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)}:${two(minutes % 60)}`;
}

/** A running timer's clock: hours, then minutes and seconds of two digits ("0:05:09", "12:00:00"). */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 3600)}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}`;
}
