/**
 * The tracker's projects: customer, rate, tracked and unbilled time with its amount; per row, start the timer on it,
 * show only its time in the week, bill its unbilled time (the new-invoice drawer, on tracked time), and edit it.
 */
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type TrackerProject, type TrackerProjectSortColumn, trackerRoutes } from '../../../src-shared/contract/tracker';
import { Tabs } from '../../components/Tabs';
import type { Column } from '../../components/table/columns';
import { DataTable } from '../../components/table/DataTable';
import { EmptyState } from '../../components/table/EmptyState';
import { TableFooter } from '../../components/table/TableFooter';
import { ErrorBanner } from '../../components/ui';
import { useCursorList } from '../../data/use-cursor-list';
import { formatAmount, formatWorkTime } from '../../lib/format';

type Status = 'in_progress' | 'completed';

export interface ProjectActions {
  runningProjectId: string | undefined;
  busy: boolean;
  startTimer(p: TrackerProject): void;
  showTime(p: TrackerProject): void;
  invoice(p: TrackerProject): void;
  edit(p: TrackerProject): void;
}

function columns(t: TFunction<'time'>, actions: ProjectActions): Column<TrackerProject, TrackerProjectSortColumn>[] {
  return [
    {
      id: 'name',
      header: t('projects.columns.name'),
      sort: 'name',
      cell: (p) => (
        <>
          <div className="cell-name" title={p.name}>
            {p.name}
          </div>
          <div className="cell-sub">{p.customer?.name ?? t('projects.internal')}</div>
        </>
      ),
    },
    {
      id: 'rate',
      header: t('projects.columns.rate'),
      numeric: true,
      className: 'money',
      cell: (p) =>
        p.billable && p.rate !== null && p.currency ? (
          t('projects.perHour', { amount: formatAmount(p.rate, p.currency) })
        ) : (
          <span className="faint">{t('projects.notBillable')}</span>
        ),
    },
    {
      id: 'tracked',
      header: t('projects.columns.tracked'),
      sort: 'time',
      numeric: true,
      className: 'num',
      cell: (p) => formatWorkTime(p.totalDuration),
    },
    {
      id: 'unbilled',
      header: t('projects.columns.unbilled'),
      numeric: true,
      className: (p) => `money ${p.unbilledAmount ? 'owed' : 'zero'}`,
      cell: (p) =>
        p.unbilledDuration ? (
          <>
            <div>{formatAmount(p.unbilledAmount, p.currency)}</div>
            <div className="cell-sub">{formatWorkTime(p.unbilledDuration)}</div>
          </>
        ) : (
          '—'
        ),
    },
    {
      id: 'actions',
      header: t('common:actions'),
      srOnlyHeader: true,
      className: 'row-actions',
      cell: (p) => (
        <div className="row-buttons">
          {p.status === 'in_progress' && p.id !== actions.runningProjectId ? (
            <button type="button" className="btn small" disabled={actions.busy} onClick={() => actions.startTimer(p)}>
              {t('projects.start')}
              <span className="sr-only">: {p.name}</span>
            </button>
          ) : null}
          <button type="button" className="btn ghost small" onClick={() => actions.showTime(p)}>
            {t('projects.showTime')}
            <span className="sr-only">: {p.name}</span>
          </button>
          {p.billable && p.rate !== null && p.unbilledDuration > 0 ? (
            <button type="button" className="btn ghost small" onClick={() => actions.invoice(p)}>
              {t('projects.invoice')}
              <span className="sr-only">: {p.name}</span>
            </button>
          ) : null}
          <button type="button" className="btn ghost small" onClick={() => actions.edit(p)}>
            {t('projects.edit')}
            <span className="sr-only">: {p.name}</span>
          </button>
        </div>
      ),
    },
  ];
}

export function ProjectsTable(props: { actions: ProjectActions; onNew: () => void }) {
  const { t } = useTranslation('time');
  const [status, setStatus] = useState<Status>('in_progress');
  const [sort, setSort] = useState<{ column: TrackerProjectSortColumn; direction: 'asc' | 'desc' }>({
    column: 'name',
    direction: 'asc',
  });
  const list = useCursorList(trackerRoutes.listProjects, { status, pageSize: 50, sort: [sort.column, sort.direction] });
  const cols = columns(t, props.actions);
  return (
    <section className="card projects" aria-labelledby="projects-title">
      <div className="projects-head">
        <h2 id="projects-title">{t('projects.title')}</h2>
        <Tabs
          label={t('projects.statusLabel')}
          tabs={['in_progress', 'completed'] as const}
          value={status}
          onChange={setStatus}
          text={(s) => t(`projects.status.${s}`)}
        />
      </div>
      {list.error ? <ErrorBanner error={list.error} onRetry={list.refetch} /> : null}
      <DataTable
        label={t('projects.title')}
        className="projects-table"
        columns={cols}
        rows={list.items}
        rowKey={(p) => p.id}
        rowProps={(p) => ({ 'data-project-id': p.id, className: p.id === props.actions.runningProjectId ? 'current' : '' })}
        sort={{
          ...sort,
          onSort: (column) =>
            setSort((s) =>
              s.column === column
                ? { column, direction: s.direction === 'asc' ? 'desc' : 'asc' }
                : { column, direction: column === 'name' ? 'asc' : 'desc' },
            ),
        }}
        wrap
        loading={list.isLoading}
        skeletonRows={4}
        empty={
          list.error ? null : (
            <EmptyState
              title={t(`projects.empty.${status}`)}
              action={
                status === 'in_progress' ? (
                  <button type="button" className="btn primary" onClick={props.onNew}>
                    {t('projects.addFirst')}
                  </button>
                ) : null
              }
            />
          )
        }
      />
      {list.items.length > 0 ? <TableFooter status={t('projects.shown', { count: list.items.length })} more={list} /> : null}
    </section>
  );
}
