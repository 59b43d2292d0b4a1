/**
 * One run: its facts, the step timeline with errors, the approval it waits for (decided in place), the decisions
 * made (by whom, by name), what triggered it; a failed run can be retried as it was, or started again with other
 * trigger data (a reminder run whose invoice was missing).
 */
import type { TFunction } from 'i18next';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WorkflowApproval, WorkflowRunDetail } from '../../../src-shared/contract/app-workflows';
import { appWorkflowRoutes as workflowApi } from '../../../src-shared/contract/app-workflows';
import type { RunStatus } from '../../../src-shared/contract/workflows';
import { ErrorBanner } from '../../components/ui';
import { useRecord } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { formatDateTime, formatDuration } from '../../lib/format';
import { localizeFigures } from '../../lib/localize-figures';
import { useToasts } from '../../stores/toasts';
import { OPEN_STATUSES, runDuration, useNow } from './run-time';
import type { StartFrom } from './StartRunDialog';

type T = TFunction<'workflows'>;

/** Where a run came from, in words. */
export const sourceName = (t: T, source: string) => t(`sources.${source}`, { defaultValue: source });

export function StatusPill({ status }: { status: RunStatus }) {
  const { t } = useTranslation('workflows');
  return <span className={`run-pill ${status}`}>{t(`statuses.${status}`, { defaultValue: status })}</span>;
}

/** Who decided, in words: a person's or an API key's name, the deadline, or "someone" no longer in the team. */
export function deciderText(t: T, a: Pick<WorkflowApproval, 'decidedBy' | 'decidedByName'>): string {
  if (a.decidedBy === 'deadline') return t('detail.theDeadline');
  if (a.decidedByName)
    return a.decidedBy?.startsWith('api-key:') ? t('detail.apiKey', { name: a.decidedByName }) : a.decidedByName;
  return a.decidedBy?.startsWith('user:') ? t('detail.formerMember') : t('detail.anApp');
}

export function RunDetail(props: {
  id: string;
  onClose: () => void;
  /** A retry started this run. */
  onStarted: (executionId: string) => void;
  onStart: (from: StartFrom) => void;
}) {
  const { t, i18n } = useTranslation('workflows');
  const run = useRecord(workflowApi.getRun, { id: props.id });
  const r = run.data;
  const now = useNow(r ? OPEN_STATUSES.includes(r.status) : false);
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
        <button type="button" className="btn ghost small" onClick={props.onClose}>
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
      {r.status === 'failed' ? <Retry run={r} onStarted={props.onStarted} onStart={props.onStart} /> : null}
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
                  {/* The step's kind in words first; the node's id (the definition's own name) beside it. */}
                  <strong>{i18n.exists(`workflows:stepKinds.${s.kind}`) ? t(`stepKinds.${s.kind}`) : s.kind}</strong>{' '}
                  <span className="faint">{s.nodeId.replace(/[-_]+/g, ' ')}</span>
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
                  {a.decidedBy ? t('detail.decidedBy', { who: deciderText(t, a) }) : ''}{' '}
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

function Retry({
  run,
  onStarted,
  onStart,
}: {
  run: WorkflowRunDetail;
  onStarted: (executionId: string) => void;
  onStart: (from: StartFrom) => void;
}) {
  const { t } = useTranslation('workflows');
  const retry = useWrite(workflowApi.retry);
  const toast = useToasts();
  return (
    <div className="panel-actions">
      <button
        type="button"
        className="btn primary"
        disabled={retry.isPending}
        onClick={() =>
          retry
            .mutateAsync({ params: { id: run.executionId } })
            .then((ack) => {
              toast.show(t('retry.started', { run: ack.runId, failed: run.runId }));
              onStarted(ack.executionId);
            })
            .catch((err) => toast.error(err, t('retry.failed')))
        }
      >
        {t('retry.button')}
      </button>
      <button
        type="button"
        className="btn"
        onClick={() =>
          onStart({
            workflowId: run.workflowId,
            triggerType: run.triggerType,
            triggerData: (run.triggerData ?? {}) as Record<string, unknown>,
          })
        }
      >
        {t('retry.otherData')}
      </button>
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
