/**
 * Which week the time screen shows and which project it narrows to, kept in the address (`/time?week=2026-11-23&
 * project=…`) so an invoice can link to its project's time and a view survives a reload. The week is this week in
 * the user's time zone unless the address names another.
 */
import { useCallback, useEffect, useState } from 'react';
import { dayIn } from '../../../src-shared/domain/invoice-dates';
import { formatPreferences } from '../../lib/format';
import { weekStart } from '../../lib/zoned-time';

export interface TimeView {
  /** The Monday of the week shown. */
  week: string;
  /** Only this project's entries, or all. */
  project: string | null;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function thisWeek(): string {
  return weekStart(dayIn(new Date(), formatPreferences().timezone));
}

export function parseTimeView(search: string): TimeView {
  const p = new URLSearchParams(search);
  const week = p.get('week') ?? '';
  return { week: DAY.test(week) ? weekStart(week) : thisWeek(), project: p.get('project') || null };
}

export function useTimeView(): [TimeView, (patch: Partial<TimeView>) => void] {
  const [view, setView] = useState(() => parseTimeView(globalThis.location?.search ?? ''));
  const update = useCallback((patch: Partial<TimeView>) => {
    setView((current) => {
      const next = { ...current, ...patch };
      const p = new URLSearchParams();
      if (next.week !== thisWeek()) p.set('week', next.week);
      if (next.project) p.set('project', next.project);
      const qs = p.toString();
      globalThis.history.replaceState(null, '', `${globalThis.location.pathname}${qs ? `?${qs}` : ''}`);
      return next;
    });
  }, []);
  useEffect(() => {
    const onPop = () => setView(parseTimeView(globalThis.location.search));
    globalThis.addEventListener('popstate', onPop);
    return () => globalThis.removeEventListener('popstate', onPop);
  }, []);
  return [view, update];
}
