/**
 * Workflow runs: the runs list (status, workflow, trigger, started, duration), filterable by status, with runs
 * waiting for an approval highlighted and decided in place; the run detail beside it (step timeline, errors,
 * approvals, what triggered it); starting a run of a promoted workflow. Everything refreshes from the change stream
 * (entity `workflow_run`) while runs progress, and the elapsed time of a running run ticks.
 */
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useState } from 'react';
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
import { useToasts } from '../../stores/toasts';

const FILTERS: { id: string; label: string; statuses?: RunStatus[] }[] = [
  { id: 'all', label: 'All' },
  { id: 'waiting', label: 'Waiting', statuses: ['waiting'] },
  { id: 'active', label: 'Running', statuses: ['pending', 'running'] },
  { id: 'failed', label: 'Failed', statuses: ['failed'] },
  { id: 'done', label: 'Completed', statuses: ['completed', 'canceled'] },
];

export const STATUS_LABELS: Record<RunStatus, string> = {
  pending: 'Queued',
  running: 'Running',
  waiting: 'Waiting',
  completed: 'Completed',
  failed: 'Failed',
  canceled: 'Canceled',
};

const SOURCE_LABELS: Record<string, string> = {
  api: 'API',
  chat: 'chat',
  app: 'this app',
  cli: 'command line',
  trigger: 'event',
  schedule: 'schedule',
  webhook: 'webhook',
};

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
          <h1>Workflows</h1>
          <p>Runs of your published workflows: what they did, what they wait for, what failed.</p>
        </div>
        <StartRun onStarted={(id) => select(id)} />
      </header>

      <div className="toolbar">
        <div className="tabs" role="tablist" aria-label="Run status">
          {FILTERS.map((f) => (
            <button
              key={f.id}
              type="button"
              role="tab"
              className="tab"
              aria-selected={filter === f.id}
              onClick={() => setFilter(f.id)}
            >
              {f.label}
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
            label="Workflow runs"
            className="runs"
            wrap
            columns={runColumns(now)}
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
                <EmptyState title={filter === 'all' ? 'No runs yet' : 'No runs here'}>
                  {filter === 'all'
                    ? 'Runs appear here when a workflow starts: from a trigger, a schedule, the API or “Start a run”.'
                    : 'Runs with this status appear here.'}
                </EmptyState>
              )
            }
          />
          {runs.hasNextPage ? <TableFooter status={`${formatNumber(runs.items.length)} runs shown`} more={runs} /> : null}
        </div>
        <section className="card run-detail" aria-label="Run detail">
          {selected ? (
            <RunDetail id={selected} now={now} onClose={() => select(null)} />
          ) : (
            <EmptyState className="small-empty" title="Choose a run">
              Its steps, errors and approvals show here.
            </EmptyState>
          )}
        </section>
      </div>
    </div>
  );
}

function StatusPill({ status }: { status: RunStatus }) {
  return <span className={`run-pill ${status}`}>{STATUS_LABELS[status]}</span>;
}

/** The runs list's columns; a running run's duration counts up with `now`. */
function runColumns(now: number): Column<WorkflowRunSummary>[] {
  return [
    {
      id: 'status',
      header: 'Status',
      cell: (run) => (
        <>
          <StatusPill status={run.status} />
          {run.pendingApproval ? <div className="cell-sub attention-text">Needs approval</div> : null}
        </>
      ),
    },
    {
      id: 'workflow',
      header: 'Workflow',
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
      header: 'Trigger',
      cell: (run) => (
        <>
          <div>{run.triggerType}</div>
          <div className="cell-sub">from {SOURCE_LABELS[run.source] ?? run.source}</div>
        </>
      ),
    },
    { id: 'started', header: 'Started', className: 'date', cell: (run) => formatDateTime(run.startedAt ?? run.queuedAt) },
    {
      id: 'duration',
      header: 'Duration',
      numeric: true,
      className: 'num',
      cell: (run) => formatDuration(runDuration(run, now)),
    },
  ];
}

function RunDetail({ id, now, onClose }: { id: string; now: number; onClose: () => void }) {
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
            Version {r.version} · run {r.runId} · <code>{r.executionId}</code>
          </div>
        </div>
        <button type="button" className="btn ghost small" onClick={onClose}>
          Close
        </button>
      </div>
      <dl className="facts tight">
        <dt>Status</dt>
        <dd>
          <StatusPill status={r.status} />
        </dd>
        <dt>Trigger</dt>
        <dd>
          {r.triggerType} from {SOURCE_LABELS[r.source] ?? r.source}
        </dd>
        <dt>Queued</dt>
        <dd>{formatDateTime(r.queuedAt)}</dd>
        <dt>Started</dt>
        <dd>{formatDateTime(r.startedAt)}</dd>
        <dt>Finished</dt>
        <dd>{formatDateTime(r.completedAt)}</dd>
        <dt>Duration</dt>
        <dd>{formatDuration(runDuration(r, now))}</dd>
      </dl>
      {r.errorMessage ? (
        <div className="banner error" role="alert">
          <div className="grow">
            <strong>The run failed</strong>
            <small>{r.errorMessage}</small>
          </div>
        </div>
      ) : null}
      <Approval run={r} />
      <h3>Steps</h3>
      {r.steps.length === 0 ? (
        <p className="faint">No step has run yet.</p>
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
                  {s.attempt > 1 ? ` · attempt ${s.attempt}` : ''}
                </div>
                {s.errorMessage ? <div className="step-error">{s.errorMessage}</div> : null}
              </div>
            </li>
          ))}
        </ol>
      )}
      {r.approvals.some((a) => a.status !== 'pending') ? (
        <>
          <h3>Decisions</h3>
          <ul className="decisions">
            {r.approvals
              .filter((a) => a.status !== 'pending')
              .map((a) => (
                <li key={a.id}>
                  <strong>{a.title}</strong>: {a.status}{' '}
                  {a.decidedBy ? `by ${a.decidedBy === 'deadline' ? 'the deadline' : a.decidedBy}` : ''}{' '}
                  {a.decidedAt ? formatDateTime(a.decidedAt) : ''}
                  {a.comment ? <div className="cell-sub">“{a.comment}”</div> : null}
                </li>
              ))}
          </ul>
        </>
      ) : null}
      {r.triggerData && typeof r.triggerData === 'object' && Object.keys(r.triggerData).length ? (
        <details>
          <summary>Trigger data</summary>
          <pre className="metadata">{JSON.stringify(r.triggerData, null, 2)}</pre>
        </details>
      ) : null}
    </div>
  );
}

function Approval({ run }: { run: WorkflowRunDetail }) {
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
      toast.show(kind === 'approve' ? `Approved: ${pending.title}` : `Rejected: ${pending.title}`);
      setComment('');
    } catch (err) {
      toast.error(err, `Could not ${kind}`);
    }
  };
  return (
    <section className="approval" aria-labelledby={`${commentId}-title`}>
      <div id={`${commentId}-title`} className="approval-title">
        Waiting for your approval: <strong>{pending.title}</strong>
      </div>
      {pending.description ? <p className="muted">{pending.description}</p> : null}
      {pending.deadlineAt ? (
        <p className="faint small">
          Decided {pending.deadlineOutcome ?? 'automatically'} at {formatDateTime(pending.deadlineAt)} if nobody decides before.
        </p>
      ) : null}
      <label className="field" htmlFor={commentId}>
        <span className="label">Comment (optional)</span>
        <input id={commentId} className="input" value={comment} onChange={(e) => setComment(e.target.value)} maxLength={2000} />
      </label>
      <div className="panel-actions">
        <button type="button" className="btn primary" onClick={() => void decide('approve')} disabled={busy}>
          Approve
        </button>
        <button type="button" className="btn danger" onClick={() => void decide('reject')} disabled={busy}>
          Reject
        </button>
      </div>
    </section>
  );
}

function StartRun({ onStarted }: { onStarted: (executionId: string) => void }) {
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
            toast.show(`Run ${ack.runId} started`);
            onStarted(ack.executionId);
          })
          .catch((err) => toast.error(err, 'Could not start the run'));
      }}
    >
      <label htmlFor={id} className="sr-only">
        Workflow to start
      </label>
      <select id={id} className="select" value={current} onChange={(e) => setChoice(e.target.value)} disabled={!startable.length}>
        {startable.length === 0 ? <option value="">No published workflow</option> : null}
        {startable.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name} (v{w.promotedVersion})
          </option>
        ))}
      </select>
      <button type="submit" className="btn primary" disabled={!current || start.isPending}>
        Start a run
      </button>
    </form>
  );
}
