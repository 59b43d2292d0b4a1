/**
 * Workflow runs: the runs list (status, workflow, trigger, started, duration), filterable by status, with runs
 * waiting for an approval highlighted and decided in place; the run detail beside it (step timeline, errors,
 * approvals, what triggered it); starting a run of a promoted workflow. Everything refreshes from the change stream
 * (entity `workflow_run`) while runs progress, and the elapsed time of a running run ticks.
 */
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WorkflowRunDetail, WorkflowRunSummary } from '../../../src-shared/contract/app-workflows';
import { appWorkflowRoutes as workflowApi } from '../../../src-shared/contract/app-workflows';
import type { RunStatus } from '../../../src-shared/contract/workflows';
import type { Column } from '../../components/table/columns';
import { DataTable } from '../../components/table/DataTable';
import { EmptyState } from '../../components/table/EmptyState';
import { TableFooter } from '../../components/table/TableFooter';
import { ErrorBanner } from '../../components/ui';
import { queryKey } from '../../data/entities';
import { useCursorList } from '../../data/use-cursor-list';
import { useRecord } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { api } from '../../lib/api';
import { formatDateTime, formatDuration, formatNumber } from '../../lib/format';
import { localizeFigures } from '../../lib/localize-figures';
import { useToasts } from '../../stores/toasts';

/** The status tabs (`filters.<id>`) and the run statuses each shows. */
const FILTERS: { id: string; statuses?: RunStatus[] }[] = [
  { id: 'all' },
  { id: 'waiting', statuses: ['waiting'] },
  { id: 'active', statuses: ['pending', 'running'] },
  { id: 'failed', statuses: ['failed'] },
  { id: 'done', statuses: ['completed', 'canceled'] },
];

type T = TFunction<'workflows'>;

/** Where a run came from, in words. */
const sourceName = (t: T, source: string) => t(`sources.${source}`, { defaultValue: source });

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

/** A clock that ticks while something runs, so elapsed times move. */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [active]);
  return now;
}

export function runDuration(run: { startedAt: string | null; completedAt: string | null }, now: number): number | null {
  if (!run.startedAt) return null;
  const end = run.completedAt ? Date.parse(run.completedAt) : now;
  return Math.max(0, end - Date.parse(run.startedAt));
}

function selectedFromUrl(): string | null {
  return new URLSearchParams(globalThis.location?.search ?? '').get('run');
}

export function WorkflowsScreen() {
  const { t } = useTranslation('workflows');
  const [filter, setFilter] = useState('all');
  const [selected, setSelectedState] = useState<string | null>(selectedFromUrl);
  const statuses = FILTERS.find((f) => f.id === filter)?.statuses;
  const runs = useRunList({ pageSize: 50, statuses });
  const waiting = useRunList({ pageSize: 100, statuses: ['waiting'] });
  const running = runs.items.some((r) => r.status === 'running' || r.status === 'pending');
  const now = useNow(running);

  const select = (id: string | null) => {
    setSelectedState(id);
    const url = new URL(globalThis.location.href);
    if (id) url.searchParams.set('run', id);
    else url.searchParams.delete('run');
    globalThis.history.replaceState(null, '', `${url.pathname}${url.search}`);
  };

  return (
    <div className="page wf-page">
      <header className="page-header">
        <div>
          <h1>{t('title')}</h1>
          <p>{t('intro')}</p>
        </div>
        <StartRun onStarted={(id) => select(id)} />
      </header>

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
              {f.id === 'waiting' && waiting.items.length ? (
                <span className="tab-count attention">{formatNumber(waiting.items.length)}</span>
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
            onOpen={(r) => select(r.executionId)}
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
            <RunDetail id={selected} now={now} onClose={() => select(null)} />
          ) : (
            <EmptyState className="small-empty" title={t('detail.choose')}>
              {t('detail.chooseText')}
            </EmptyState>
          )}
        </section>
      </div>
    </div>
  );
}

function StatusPill({ status }: { status: RunStatus }) {
  const { t } = useTranslation('workflows');
  return <span className={`run-pill ${status}`}>{t(`statuses.${status}`, { defaultValue: status })}</span>;
}

/** The runs list's columns; a running run's duration counts up with `now`. */
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

function RunDetail({ id, now, onClose }: { id: string; now: number; onClose: () => void }) {
  const { t } = useTranslation('workflows');
  const run = useRecord(workflowApi.getRun, { id });
  const r = run.data;
  if (run.error) return <ErrorBanner error={run.error} onRetry={() => void run.refetch()} />;
  if (!r)
    return (
      <div className="panel-skeleton" aria-busy="true">
        {[0, 1, 2, 3].map((i) => (
          <span key={i} className="bone" />
        ))}
      </div>
    );
  return (
    <div className="run-body">
      <div className="run-head">
        <div>
          <h2>{r.workflowName}</h2>
          <div className="cell-sub">
            {t('detail.version', { version: r.version, run: r.runId })} · <code>{r.executionId}</code>
          </div>
        </div>
        <button type="button" className="btn ghost small" onClick={onClose}>
          {t('common:close')}
        </button>
      </div>
      <dl className="facts tight">
        <dt>{t('columns.status')}</dt>
        <dd>
          <StatusPill status={r.status} />
        </dd>
        <dt>{t('columns.trigger')}</dt>
        <dd>
          {t(`triggers.${r.triggerType}`, { defaultValue: r.triggerType })} {t('from', { source: sourceName(t, r.source) })}
        </dd>
        <dt>{t('detail.queued')}</dt>
        <dd>{formatDateTime(r.queuedAt)}</dd>
        <dt>{t('columns.started')}</dt>
        <dd>{formatDateTime(r.startedAt)}</dd>
        <dt>{t('detail.finished')}</dt>
        <dd>{formatDateTime(r.completedAt)}</dd>
        <dt>{t('columns.duration')}</dt>
        <dd>{formatDuration(runDuration(r, now))}</dd>
      </dl>
      {r.errorMessage ? (
        <div className="banner error" role="alert">
          <div className="grow">
            <strong>{t('detail.failed')}</strong>
            <small lang="en">{r.errorMessage}</small>
          </div>
        </div>
      ) : null}
      <Approval run={r} />
      <h3>{t('detail.steps')}</h3>
      {r.steps.length === 0 ? (
        <p className="faint">{t('detail.noStep')}</p>
      ) : (
        <ol className="timeline">
          {r.steps.map((s) => (
            <li key={s.id} className={`step ${s.status}`}>
              <span className="step-dot" aria-hidden="true" />
              <div className="step-body">
                <div className="step-title">
                  <strong>{s.nodeId}</strong> <span className="faint">{s.kind}</span>
                  <StatusPill status={s.status as RunStatus} />
                </div>
                <div className="cell-sub">
                  {formatDateTime(s.startedAt)} ·{' '}
                  {formatDuration(runDuration({ startedAt: s.startedAt, completedAt: s.completedAt }, now))}
                  {s.attempt > 1 ? ` · ${t('detail.attempt', { n: s.attempt })}` : ''}
                </div>
                {s.errorMessage ? (
                  <div className="step-error" lang="en">
                    {s.errorMessage}
                  </div>
                ) : null}
              </div>
            </li>
          ))}
        </ol>
      )}
      {r.approvals.some((a) => a.status !== 'pending') ? (
        <>
          <h3>{t('detail.decisions')}</h3>
          <ul className="decisions">
            {r.approvals
              .filter((a) => a.status !== 'pending')
              .map((a) => (
                <li key={a.id}>
                  <strong>{localizeFigures(a.title)}</strong>: {t(`approvals.${a.status}`)}{' '}
                  {a.decidedBy
                    ? t('detail.decidedBy', { who: a.decidedBy === 'deadline' ? t('detail.theDeadline') : a.decidedBy })
                    : ''}{' '}
                  {a.decidedAt ? formatDateTime(a.decidedAt) : ''}
                  {a.comment ? <div className="cell-sub">“{a.comment}”</div> : null}
                </li>
              ))}
          </ul>
        </>
      ) : null}
      {r.triggerData && typeof r.triggerData === 'object' && Object.keys(r.triggerData).length ? (
        <details>
          <summary>{t('detail.triggerData')}</summary>
          <pre className="metadata">{JSON.stringify(r.triggerData, null, 2)}</pre>
        </details>
      ) : null}
    </div>
  );
}

function Approval({ run }: { run: WorkflowRunDetail }) {
  const { t } = useTranslation('workflows');
  const pending = run.approvals.find((a) => a.status === 'pending');
  const approve = useWrite(workflowApi.approve);
  const reject = useWrite(workflowApi.reject);
  const [comment, setComment] = useState('');
  const toast = useToasts();
  const commentId = useId();
  if (!pending || run.status !== 'waiting') return null;
  const busy = approve.isPending || reject.isPending;
  const decide = async (kind: 'approve' | 'reject') => {
    try {
      const body = comment.trim() ? { comment: comment.trim() } : {};
      if (kind === 'approve') await approve.mutateAsync({ params: { id: run.executionId }, body });
      else await reject.mutateAsync({ params: { id: run.executionId }, body });
      const title = localizeFigures(pending.title);
      toast.show(kind === 'approve' ? t('approval.approved', { title }) : t('approval.rejected', { title }));
      setComment('');
    } catch (err) {
      toast.error(err, kind === 'approve' ? t('approval.approveFailed') : t('approval.rejectFailed'));
    }
  };
  return (
    <section className="approval" aria-labelledby={`${commentId}-title`}>
      <div id={`${commentId}-title`} className="approval-title">
        {t('approval.waiting')} <strong>{localizeFigures(pending.title)}</strong>
      </div>
      {pending.description ? <p className="muted">{localizeFigures(pending.description)}</p> : null}
      {pending.deadlineAt ? (
        <p className="faint small">
          {t(`approval.deadline.${pending.deadlineOutcome ?? 'automatic'}`, { at: formatDateTime(pending.deadlineAt) })}
        </p>
      ) : null}
      <label className="field" htmlFor={commentId}>
        <span className="label">{t('approval.comment')}</span>
        <input id={commentId} className="input" value={comment} onChange={(e) => setComment(e.target.value)} maxLength={2000} />
      </label>
      <div className="panel-actions">
        <button type="button" className="btn primary" onClick={() => void decide('approve')} disabled={busy}>
          {t('approval.approve')}
        </button>
        <button type="button" className="btn danger" onClick={() => void decide('reject')} disabled={busy}>
          {t('approval.reject')}
        </button>
      </div>
    </section>
  );
}

function StartRun({ onStarted }: { onStarted: (executionId: string) => void }) {
  const { t } = useTranslation('workflows');
  const workflows = useCursorList(workflowApi.list, { pageSize: 100 });
  const start = useWrite(workflowApi.start);
  const toast = useToasts();
  const startable = useMemo(() => workflows.items.filter((w) => w.promotedVersion !== null && w.active), [workflows.items]);
  const [choice, setChoice] = useState('');
  const id = useId();
  const current = choice || startable[0]?.id || '';
  return (
    <form
      className="start-run"
      onSubmit={(e) => {
        e.preventDefault();
        if (!current) return;
        start
          .mutateAsync({ params: { id: current }, body: { triggerType: 'manual' } })
          .then((ack) => {
            toast.show(t('start.started', { run: ack.runId }));
            onStarted(ack.executionId);
          })
          .catch((err) => toast.error(err, t('start.failed')));
      }}
    >
      <label htmlFor={id} className="sr-only">
        {t('start.which')}
      </label>
      <select id={id} className="select" value={current} onChange={(e) => setChoice(e.target.value)} disabled={!startable.length}>
        {startable.length === 0 ? <option value="">{t('start.none')}</option> : null}
        {startable.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name} (v{w.promotedVersion})
          </option>
        ))}
      </select>
      <button type="submit" className="btn primary" disabled={!current || start.isPending}>
        {t('start.button')}
      </button>
    </form>
  );
}
