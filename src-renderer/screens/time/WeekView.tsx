/**
 * A week of time entries, Monday to Sunday, one column a day with its total; the week's total time and amounts by
 * currency (never added across currencies). Entries on an invoice are marked billed and link to it, and open
 * read-only; others open to be changed, or are deleted. The running entry counts up (the timer stops it). Time is
 * added with the form under the week.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type TrackerEntry, trackerRoutes } from '../../../src-shared/contract/tracker';
import { addDays } from '../../../src-shared/domain/invoice-dates';
import { AppLink } from '../../components/AppLink';
import { ErrorBanner } from '../../components/ui';
import { useRead } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { formatAmount, formatDate, formatTime, formatWorkTime } from '../../lib/format';
import { useToasts } from '../../stores/toasts';
import { AddEntry } from './AddEntry';
import { EntryForm } from './EntryForm';
import { type TimeView, thisWeek } from './use-time-view';
import { useElapsed } from './use-timer';
import { weekDays } from './week';

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

export function WeekView(props: { view: TimeView; setView: (patch: Partial<TimeView>) => void; projectName: string | null }) {
  const { t } = useTranslation('time');
  const { view } = props;
  const days = weekDays(view.week);
  const range = useRead(trackerRoutes.listEntries, {
    query: { from: days[0], to: days[6], ...(view.project ? { projectId: view.project } : {}) },
  });
  const data = range.data;
  const isThisWeek = view.week === thisWeek();
  const [editing, setEditing] = useState<TrackerEntry | null>(null);

  return (
    <section className="card week" aria-labelledby="week-title" aria-busy={range.isFetching}>
      <div className="week-head">
        <div>
          <h2 id="week-title">{t('week.title', { from: formatDate(days[0]), to: formatDate(days[6]) })}</h2>
          <p className="muted" data-testid="week-total">
            {data
              ? [
                  t('week.total', { time: formatWorkTime(data.meta.totalDuration) }),
                  ...data.meta.byCurrency.map((c) => formatAmount(c.amount, c.currency)),
                ].join(' · ')
              : '…'}
          </p>
        </div>
        {props.projectName ? (
          <div className="chip week-filter">
            {t('week.onlyProject', { name: props.projectName })}
            <button type="button" className="btn ghost small" onClick={() => props.setView({ project: null })}>
              {t('week.showAll')}
            </button>
          </div>
        ) : null}
        <div className="week-nav">
          <button type="button" className="btn small" onClick={() => props.setView({ week: addDays(view.week, -7) })}>
            <span aria-hidden="true">‹ </span>
            {t('week.previous')}
          </button>
          <button type="button" className="btn small" disabled={isThisWeek} onClick={() => props.setView({ week: thisWeek() })}>
            {t('week.thisWeek')}
          </button>
          <button type="button" className="btn small" onClick={() => props.setView({ week: addDays(view.week, 7) })}>
            {t('week.next')}
            <span aria-hidden="true"> ›</span>
          </button>
        </div>
      </div>
      {range.error ? <ErrorBanner error={range.error} onRetry={() => void range.refetch()} /> : null}
      <div className="table-wrap">
        <table className="week-grid" aria-labelledby="week-title">
          <thead>
            <tr>
              {days.map((day, i) => (
                <th key={day} scope="col">
                  <span className="week-day">{t(`weekdays.${WEEKDAYS[i]}`)}</span>
                  <span className="week-date">{formatDate(day)}</span>
                  <span className="week-day-total">
                    {data?.totals[day]?.totalDuration ? formatWorkTime(data.totals[day].totalDuration) : '—'}
                  </span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              {days.map((day) => (
                <td key={day}>
                  <ul className="week-entries">
                    {(data?.result[day] ?? []).map((entry) => (
                      <Entry key={entry.id} entry={entry} onOpen={() => setEditing(entry)} />
                    ))}
                  </ul>
                </td>
              ))}
            </tr>
          </tbody>
        </table>
      </div>
      <AddEntry days={days} projectId={view.project} />
      {editing ? <EntryForm entry={editing} onClose={() => setEditing(null)} /> : null}
    </section>
  );
}

function Entry({ entry, onOpen }: { entry: TrackerEntry; onOpen: () => void }) {
  const { t } = useTranslation('time');
  const remove = useWrite(trackerRoutes.deleteEntry);
  const toast = useToasts();
  const elapsed = useElapsed(entry.running ? entry.start : null);
  const seconds = entry.running ? elapsed : entry.duration;
  const what = t('entry.what', { name: entry.project.name, time: formatWorkTime(seconds) });
  return (
    <li className={`week-entry ${entry.running ? 'running' : ''} ${entry.billed ? 'billed' : ''}`} data-entry-id={entry.id}>
      <div className="week-entry-project" title={entry.project.name}>
        {entry.project.name}
      </div>
      {entry.description ? (
        <div className="week-entry-text" title={entry.description}>
          {entry.description}
        </div>
      ) : null}
      <div className="week-entry-time">
        <strong>{formatWorkTime(seconds)}</strong>{' '}
        {/* An entry recorded as a day's hours (start and stop alike, as the hosted service stores them) has no
            clock times worth showing: "00:00–00:00" beside "4 h" said nothing. */}
        {entry.stop && Date.parse(entry.stop) <= Date.parse(entry.start) ? null : (
          <span className="faint">
            {formatTime(entry.start)}–{entry.stop ? formatTime(entry.stop) : t('entry.now')}
          </span>
        )}
      </div>
      <div className="week-entry-flags">
        {entry.running ? <span className="pill info">{t('entry.running')}</span> : null}
        {entry.billed && entry.invoiceId ? (
          <AppLink to={`/invoices/${entry.invoiceId}`} className="pill ok">
            {t('entry.billed')}
          </AppLink>
        ) : null}
        {entry.running ? null : (
          <button type="button" className="btn ghost small" onClick={onOpen}>
            {t(entry.billed ? 'entry.view' : 'entry.edit')}
            <span className="sr-only">: {what}</span>
          </button>
        )}
        {!entry.billed && !entry.running ? (
          <button
            type="button"
            className="btn ghost small"
            disabled={remove.isPending}
            onClick={() =>
              remove
                .mutateAsync({ params: { id: entry.id } })
                .then(() => toast.show(t('entry.deleted', { what })))
                .catch((err) => toast.error(err, t('entry.deleteFailed')))
            }
          >
            {t('entry.delete')}
            <span className="sr-only">: {what}</span>
          </button>
        ) : null}
      </div>
    </li>
  );
}
