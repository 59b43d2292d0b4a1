/**
 * Workflow runs: the runs list (status, workflow, trigger, started, duration), filterable by status, with runs
 * waiting for an approval highlighted and counted; the run detail beside it. Everything refreshes from the change
 * stream (entity `workflow_run`) while runs progress, and the time of a run that is still open ticks.
 */
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WorkflowRunSummary } from '../../../src-shared/contract/app-workflows';
import { appWorkflowRoutes as workflowApi } from '../../../src-shared/contract/app-workflows';
import type { RunStatus } from '../../../src-shared/contract/workflows';
import type { Column } from '../../components/table/columns';
import { DataTable } from '../../components/table/DataTable';
import { EmptyState } from '../../components/table/EmptyState';
import { TableFooter } from '../../components/table/TableFooter';
import { ErrorBanner } from '../../components/ui';
import { queryKey } from '../../data/entities';
import { api } from '../../lib/api';
import { formatDateTime, formatDuration, formatNumber } from '../../lib/format';
import { RunDetail, StatusPill, sourceName } from './RunDetail';
import { OPEN_STATUSES, runDuration, useNow } from './run-time';
import type { StartFrom } from './StartRunDialog';

/** The status tabs (`filters.<id>`) and the run statuses each shows. */
const FILTERS: { id: string; statuses?: RunStatus[] }[] = [
  { id: 'all' },
  { id: 'waiting', statuses: ['waiting'] },
  { id: 'active', statuses: ['pending', 'running'] },
  { id: 'failed', statuses: ['failed'] },
  { id: 'done', statuses: ['completed', 'canceled'] },
];

type T = TFunction<'workflows'>;

/**
 * The runs list, cursor-paged. Runs are keyed by `executionId` (the spec's run resource has no `id`), so this is
 * the data layer's infinite query without useCursorList's dedupe by id; the key is the entity's, as everywhere.
 */
function useRunList(query: { pageSize: number; statuses?: RunStatus[] }) {
  const result = useInfiniteQuery({
    queryKey: queryKey(workflowApi.listRuns, 'list', query),
    queryFn: ({ pageParam, signal }) => api.call(workflowApi.listRuns, { query: { ...query, cursor: pageParam }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.meta.hasNextPage && last.meta.cursor ? last.meta.cursor : undefined),
    placeholderData: keepPreviousData,
  });
  const items = useMemo(() => {
    const seen = new Set<string>();
    return (result.data?.pages ?? []).flatMap((p) => p.data).filter((r) => !seen.has(r.executionId) && seen.add(r.executionId));
  }, [result.data]);
  return {
    items,
    isLoading: result.isPending,
    isLoadingMore: result.isFetchingNextPage,
    hasNextPage: result.hasNextPage,
    error: result.error,
    loadMore: () => void result.fetchNextPage(),
    refetch: () => void result.refetch(),
  };
}

export function RunsView(props: {
  selected: string | null;
  onSelect: (executionId: string | null) => void;
  onStart: (from: StartFrom) => void;
}) {
  const { t } = useTranslation('workflows');
  const { selected, onSelect } = props;
  const [filter, setFilter] = useState('all');
  const statuses = FILTERS.find((f) => f.id === filter)?.statuses;
  const runs = useRunList({ pageSize: 50, statuses });
  const waiting = useRunList({ pageSize: 100, statuses: ['waiting'] });
  const now = useNow(runs.items.some((r) => OPEN_STATUSES.includes(r.status)));

  return (
    <>
      <div className="toolbar">
        <div className="tabs" role="tablist" aria-label={t('filters.label')}>
          {FILTERS.map((f) => (
            <button
              key={f.id}
              type="button"
              role="tab"
              className="tab"
              aria-selected={filter === f.id}
              onClick={() => setFilter(f.id)}
            >
              {t(`filters.${f.id}`)}
              {/* The space keeps the tab's name "Waiting 2", not "Waiting2", for a screen reader. */}
              {f.id === 'waiting' && waiting.items.length ? (
                <>
                  {' '}
                  <span className="tab-count attention">{formatNumber(waiting.items.length)}</span>
                </>
              ) : null}
            </button>
          ))}
        </div>
      </div>

      {runs.error ? <ErrorBanner error={runs.error} onRetry={runs.refetch} /> : null}

      <div className="wf-split">
        <div className="card">
          <DataTable
            label={t('runs')}
            className="runs"
            wrap
            columns={runColumns(now, t)}
            rows={runs.items}
            rowKey={(r) => r.executionId}
            rowProps={(r) => ({
              className:
                [r.status === 'waiting' ? 'attention' : '', r.executionId === selected ? 'current' : '']
                  .filter(Boolean)
                  .join(' ') || undefined,
              'aria-selected': r.executionId === selected,
              'data-run-id': r.executionId,
            })}
            onOpen={(r) => onSelect(r.executionId)}
            loading={runs.isLoading}
            skeletonRows={5}
            empty={
              runs.error ? null : (
                <EmptyState title={filter === 'all' ? t('empty.none') : t('empty.noneHere')}>
                  {filter === 'all' ? t('empty.noneText') : t('empty.noneHereText')}
                </EmptyState>
              )
            }
          />
          {runs.hasNextPage ? <TableFooter status={t('shown', { count: runs.items.length })} more={runs} /> : null}
        </div>
        <section className="card run-detail" aria-label={t('detail.label')}>
          {selected ? (
            <RunDetail id={selected} onClose={() => onSelect(null)} onStarted={onSelect} onStart={props.onStart} />
          ) : (
            <EmptyState className="small-empty" title={t('detail.choose')}>
              {t('detail.chooseText')}
            </EmptyState>
          )}
        </section>
      </div>
    </>
  );
}

/** The runs list's columns; the duration of a run still open counts up with `now`. */
function runColumns(now: number, t: T): Column<WorkflowRunSummary>[] {
  return [
    {
      id: 'status',
      header: t('columns.status'),
      cell: (run) => (
        <>
          <StatusPill status={run.status} />
          {run.pendingApproval ? <div className="cell-sub attention-text">{t('needsApproval')}</div> : null}
        </>
      ),
    },
    {
      id: 'workflow',
      header: t('columns.workflow'),
      cell: (run) => (
        <>
          <div className="cell-name">{run.workflowName}</div>
          <div className="cell-sub">
            v{run.version} · {run.runId}
          </div>
        </>
      ),
    },
    {
      id: 'trigger',
      header: t('columns.trigger'),
      cell: (run) => (
        <>
          <div>{t(`triggers.${run.triggerType}`, { defaultValue: run.triggerType })}</div>
          <div className="cell-sub">{t('from', { source: sourceName(t, run.source) })}</div>
        </>
      ),
    },
    {
      id: 'started',
      header: t('columns.started'),
      className: 'date',
      cell: (run) => formatDateTime(run.startedAt ?? run.queuedAt),
    },
    {
      id: 'duration',
      header: t('columns.duration'),
      numeric: true,
      className: 'num',
      cell: (run) => formatDuration(runDuration(run, now)),
    },
  ];
}
