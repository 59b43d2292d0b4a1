/**
 * The conflicts rounds met, newest first: the record, the fields, the value here and the value on the remote side by
 * side (the side the stated rule kept marked), and a one-click choice of either side. Taking a side writes it as a
 * local edit that the next round sends; taking the side already kept just closes the conflict. A first round can meet
 * dozens: open ones are selected (one by one or all) and one side taken for all of them at once; those that could not
 * be taken stay open and the toast says why.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { appSyncRoutes, type SyncConflictInfo } from '../../../src-shared/contract/app-sync';
import { tagRoutes } from '../../../src-shared/contract/tags';
import type { Column } from '../../components/table/columns';
import { DataTable } from '../../components/table/DataTable';
import { EmptyState } from '../../components/table/EmptyState';
import { ErrorBanner } from '../../components/ui';
import { queryKey } from '../../data/entities';
import { useRead } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { api } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { useToasts } from '../../stores/toasts';
import { conflictFields, fieldLabel, type NameOf, recordLabel, ruleParts, ruleText, sideText } from './conflict-view';

type Side = 'local' | 'remote';

export function ConflictsSection({ canManage, openCount }: { canManage: boolean; openCount: number }) {
  const { t } = useTranslation('sync');
  const [all, setAll] = useState(false);
  const toggleId = useId();
  const query = { all };
  // Keyed by the open count as well: a round that records or closes conflicts refetches the list.
  const conflicts = useQuery({
    queryKey: queryKey(appSyncRoutes.conflicts, 'list', { ...query, openCount }),
    queryFn: ({ signal }) => api.call(appSyncRoutes.conflicts, { query, signal }),
  });
  const tags = useRead(tagRoutes.list);
  const nameOf = useMemo<NameOf>(() => {
    const names = new Map((tags.data?.data ?? []).map((t) => [t.id, t.name]));
    return (id) => names.get(id);
  }, [tags.data]);
  const resolve = useWrite(appSyncRoutes.resolve);
  const resolveMany = useWrite(appSyncRoutes.resolveMany);
  const toast = useToasts();
  const [pending, setPending] = useState<string | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const rows = conflicts.data?.data ?? [];
  const openIds = rows.filter((c) => !c.took).map((c) => c.id);
  // Only what is still listed and open counts: a round or another person may have closed some meanwhile.
  const chosen = openIds.filter((id) => selected.has(id));
  const toggle = (id: string, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const takeSelected = (side: Side) => {
    setPending('bulk');
    resolveMany
      .mutateAsync({ body: { take: side, ids: chosen } })
      .then(({ resolved, failed }) => {
        if (resolved.length) toast.show(t(`conflicts.bulkDone.${side}`, { count: resolved.length }));
        if (failed.length) {
          const reasons = [...new Set(failed.map((f) => f.message))].join('; ');
          toast.error(new Error(reasons), t('conflicts.bulkFailed', { count: failed.length }));
        }
        setSelected(new Set(failed.map((f) => f.id)));
      })
      .catch((err) => toast.error(err, t('conflicts.resolveFailed')))
      .finally(() => setPending(null));
  };

  const take = (c: SyncConflictInfo, side: Side) => {
    setPending(c.id);
    resolve
      .mutateAsync({ params: { id: c.id }, body: { take: side } })
      .then(() => toast.show(t(`conflicts.resolved.${side}`, { record: recordLabel(c) })))
      .catch((err) => toast.error(err, t('conflicts.resolveFailed')))
      .finally(() => setPending(null));
  };

  const allChosen = openIds.length > 0 && chosen.length === openIds.length;
  const selectColumn: Column<SyncConflictInfo> = {
    id: 'select',
    header: (
      <input
        type="checkbox"
        aria-label={t('conflicts.selectAll')}
        checked={allChosen}
        disabled={pending !== null || openIds.length === 0}
        onChange={(e) => setSelected(new Set(e.target.checked ? openIds : []))}
      />
    ),
    cell: (c) =>
      c.took ? null : (
        <input
          type="checkbox"
          aria-label={t('conflicts.selectFor', { record: recordLabel(c) })}
          checked={selected.has(c.id)}
          disabled={pending !== null}
          onChange={(e) => toggle(c.id, e.target.checked)}
        />
      ),
  };

  const columns: Column<SyncConflictInfo>[] = [
    ...(canManage ? [selectColumn] : []),
    {
      id: 'record',
      header: t('conflicts.columns.record'),
      cell: (c) => (
        <>
          <div className="cell-name">{recordLabel(c)}</div>
          <div className="cell-sub">{formatDateTime(c.createdAt)}</div>
        </>
      ),
    },
    {
      id: 'field',
      header: t('conflicts.columns.field'),
      cell: (c) => (
        <>
          {conflictFields(c).map((f) => (
            <div key={f}>{fieldLabel(f)}</div>
          ))}
          {c.kind === 'refused' ? <div className="cell-sub">{t('conflicts.refusedNote')}</div> : null}
        </>
      ),
    },
    {
      id: 'local',
      header: t('conflicts.columns.local'),
      className: sideClass('local'),
      cell: (c) => <SideValues c={c} side="local" nameOf={nameOf} />,
    },
    {
      id: 'remote',
      header: t('conflicts.columns.remote'),
      className: sideClass('remote'),
      cell: (c) => <SideValues c={c} side="remote" nameOf={nameOf} />,
    },
    {
      id: 'kept',
      header: t('conflicts.columns.kept'),
      title: (c) => ruleText(c),
      cell: (c) => (
        <>
          <div>{t(`conflicts.sides.${c.kept}`)}</div>
          <div className="cell-sub sync-rule">
            {ruleParts(c).map((p, i) =>
              p.said ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one sentence, in their order
                <span key={i} lang="en">
                  {p.text}
                </span>
              ) : (
                p.text
              ),
            )}
          </div>
        </>
      ),
    },
    {
      id: 'choice',
      header: t('conflicts.columns.choice'),
      cell: (c) =>
        c.took ? (
          <span className="run-pill completed">{t(`conflicts.took.${c.took}`)}</span>
        ) : (
          <div className="sync-choice">
            {(['local', 'remote'] as const).map((side) => (
              <button
                key={side}
                type="button"
                className={`btn small ${side === c.kept ? '' : 'primary'}`}
                aria-label={t(`conflicts.takeFor.${side}`, { record: recordLabel(c) })}
                disabled={!canManage || pending === c.id || pending === 'bulk'}
                onClick={() => take(c, side)}
              >
                {t(`conflicts.take.${side}`)}
              </button>
            ))}
          </div>
        ),
    },
  ];

  return (
    <section className="sync-conflicts" aria-labelledby="sync-conflicts-title">
      <div className="sync-conflicts-head">
        <div>
          <h2 id="sync-conflicts-title">{t('conflicts.title')}</h2>
          <p className="muted">{t('conflicts.intro')}</p>
        </div>
        <label className="check" htmlFor={toggleId}>
          <input id={toggleId} type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} />
          {t('conflicts.showResolved')}
        </label>
      </div>
      {conflicts.error ? <ErrorBanner error={conflicts.error} onRetry={() => void conflicts.refetch()} /> : null}
      {canManage && chosen.length > 0 ? (
        <div className="sync-bulk card" role="toolbar" aria-label={t('conflicts.selected', { count: chosen.length })}>
          <span>{t('conflicts.selected', { count: chosen.length })}</span>
          {(['local', 'remote'] as const).map((side) => (
            <button key={side} type="button" className="btn small" disabled={pending !== null} onClick={() => takeSelected(side)}>
              {t(`conflicts.takeSelected.${side}`)}
            </button>
          ))}
          <button type="button" className="btn small ghost" disabled={pending !== null} onClick={() => setSelected(new Set())}>
            {t('conflicts.clearSelection')}
          </button>
        </div>
      ) : null}
      <div className="card">
        <DataTable
          label={t('conflicts.table')}
          className="sync-conflict-table"
          wrap
          columns={columns}
          rows={rows}
          rowKey={(c) => c.id}
          rowProps={(c) => ({ 'data-conflict-id': c.id, ...(c.took ? { className: 'resolved' } : {}) })}
          loading={conflicts.isPending}
          skeletonRows={2}
          empty={conflicts.error ? null : <EmptyState title={t('conflicts.none')}>{t('conflicts.noneDetail')}</EmptyState>}
        />
      </div>
    </section>
  );
}

/** The kept side's cell is marked (the row's rule decided for it). */
function sideClass(side: Side) {
  return (c: SyncConflictInfo) => ((c.kept === side && !c.took) || c.took === side ? 'sync-side kept' : 'sync-side');
}

function SideValues({ c, side, nameOf }: { c: SyncConflictInfo; side: Side; nameOf: NameOf }) {
  const values = side === 'local' ? c.local : c.remote;
  return (
    <>
      {conflictFields(c).map((f) => (
        <div key={f} className="sync-value">
          {sideText(values, f, nameOf)}
        </div>
      ))}
    </>
  );
}
