/**
 * The team's workflows: each with the version that runs and the newest one, its triggers and whether it is on;
 * a definition file imported (a new workflow, or a new version of one whose id it carries), optionally promoted at
 * once; a version promoted (also an older one, to go back), a workflow activated or deactivated, a run started.
 * Only the promoted version ever runs; the server checks a version again when it is promoted.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../src-shared/api-client';
import { type WorkflowSummary, appWorkflowRoutes as workflowApi } from '../../../src-shared/contract/app-workflows';
import { Drawer } from '../../components/Drawer';
import { FileDrop } from '../../components/FileDrop';
import { DataTable } from '../../components/table/DataTable';
import { EmptyState } from '../../components/table/EmptyState';
import { ErrorBanner, RefusedLines } from '../../components/ui';
import { useCursorList } from '../../data/use-cursor-list';
import { useRecord } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { formatDateTime } from '../../lib/format';
import { useToasts } from '../../stores/toasts';
import type { StartFrom } from './StartRunDialog';

export function DefinitionsView({ onStart }: { onStart: (from: StartFrom) => void }) {
  const { t } = useTranslation('workflows');
  const workflows = useCursorList(workflowApi.list, { pageSize: 100 });
  const activate = useWrite(workflowApi.activate);
  const deactivate = useWrite(workflowApi.deactivate);
  const promote = useWrite(workflowApi.promote);
  const toast = useToasts();
  const [versionsOf, setVersionsOf] = useState<WorkflowSummary | null>(null);

  const toggle = (w: WorkflowSummary) =>
    (w.active ? deactivate : activate)
      .mutateAsync({ params: { id: w.id } })
      .then(() => toast.show(t(w.active ? 'definitions.deactivated' : 'definitions.activated', { name: w.name })))
      .catch((err) => toast.error(err, t('definitions.changeFailed')));
  const promoteLatest = (w: WorkflowSummary) =>
    promote
      .mutateAsync({ params: { id: w.id }, body: { version: w.latestVersion } })
      .then(() => toast.show(t('definitions.promoted', { name: w.name, version: w.latestVersion })))
      .catch((err) => toast.error(err, t('definitions.promoteFailed')));

  return (
    <>
      <ImportDefinition />
      {workflows.error ? <ErrorBanner error={workflows.error} onRetry={workflows.refetch} /> : null}
      <div className="card">
        <DataTable
          label={t('definitions.title')}
          className="workflows"
          wrap
          rows={workflows.items}
          loading={workflows.isLoading}
          skeletonRows={3}
          rowKey={(w) => w.id}
          rowProps={(w) => ({ 'data-workflow-id': w.id })}
          empty={<EmptyState title={t('definitions.none')}>{t('definitions.noneText')}</EmptyState>}
          columns={[
            {
              id: 'name',
              header: t('definitions.columns.name'),
              cell: (w) => (
                <>
                  <div className="cell-name">{w.name}</div>
                  {w.description ? <div className="cell-sub wf-description">{w.description}</div> : null}
                </>
              ),
            },
            {
              id: 'version',
              header: t('definitions.columns.version'),
              cell: (w) => (
                <>
                  <div>
                    {w.promotedVersion === null
                      ? t('definitions.nonePromoted')
                      : t('definitions.runs', { version: w.promotedVersion })}
                  </div>
                  {w.latestVersion !== w.promotedVersion ? (
                    <div className="cell-sub attention-text">{t('definitions.newer', { version: w.latestVersion })}</div>
                  ) : null}
                </>
              ),
            },
            {
              id: 'triggers',
              header: t('definitions.columns.triggers'),
              cell: (w) => w.triggers.map((tr) => t(`triggers.${tr.type}`, { defaultValue: tr.type })).join(', '),
            },
            {
              id: 'state',
              header: t('definitions.columns.state'),
              cell: (w) => (
                <span className={`status-pill ${w.active ? 'ok' : ''}`}>
                  {w.active ? t('definitions.active') : t('definitions.inactive')}
                </span>
              ),
            },
            {
              id: 'actions',
              header: t('common:actions'),
              srOnlyHeader: true,
              className: 'num',
              cell: (w) => (
                <div className="row-actions">
                  {w.latestVersion !== w.promotedVersion ? (
                    <button type="button" className="btn small primary" onClick={() => void promoteLatest(w)}>
                      {t('definitions.promote', { version: w.latestVersion })}
                      <span className="sr-only">: {w.name}</span>
                    </button>
                  ) : null}
                  <button type="button" className="btn small" onClick={() => void toggle(w)}>
                    {w.active ? t('definitions.deactivate') : t('definitions.activate')}
                    <span className="sr-only">: {w.name}</span>
                  </button>
                  <button type="button" className="btn small" onClick={() => setVersionsOf(w)}>
                    {t('definitions.versions')}
                    <span className="sr-only">: {w.name}</span>
                  </button>
                  {w.active && w.promotedVersion !== null && w.triggers.some((tr) => tr.type !== 'schedule') ? (
                    <button type="button" className="btn small" onClick={() => onStart({ workflowId: w.id })}>
                      {t('start.button')}
                      <span className="sr-only">: {w.name}</span>
                    </button>
                  ) : null}
                </div>
              ),
            },
          ]}
        />
      </div>
      {versionsOf ? <Versions workflow={versionsOf} onClose={() => setVersionsOf(null)} /> : null}
    </>
  );
}

/** Importing a definition file (JSON, docs/workflow-schema.json); the server names every problem of an invalid one. */
function ImportDefinition() {
  const { t } = useTranslation('workflows');
  const importWorkflow = useWrite(workflowApi.import);
  const toast = useToasts();
  const [promoteNow, setPromoteNow] = useState(true);
  const [failure, setFailure] = useState<{ title: string; lines: string[] } | null>(null);

  async function upload(file: File) {
    setFailure(null);
    let definition: unknown;
    try {
      definition = JSON.parse(await file.text());
    } catch (err) {
      return setFailure({ title: t('definitions.notJson', { file: file.name }), lines: [(err as Error).message] });
    }
    try {
      const made = await importWorkflow.mutateAsync({
        body: { definition: definition as never, promote: promoteNow },
      });
      toast.show(
        t(promoteNow ? 'definitions.importedPromoted' : 'definitions.imported', { name: made.name, version: made.latestVersion }),
      );
    } catch (err) {
      if (err instanceof ApiClientError && (err.status === 422 || err.status === 409)) {
        const lines = err.fields.length
          ? err.fields.map((f) => (f.path ? `${f.path}: ${f.message}` : f.message))
          : (err.description ?? '').split('; ').filter(Boolean);
        setFailure({ title: t('definitions.invalid', { file: file.name }), lines });
      } else toast.error(err, t('definitions.importFailed'));
    }
  }

  return (
    <section className="panel wf-import" aria-labelledby="wf-import-title">
      <h2 id="wf-import-title">{t('definitions.importTitle')}</h2>
      <FileDrop
        inputLabel={t('definitions.fileLabel')}
        accept=".json,application/json"
        disabled={importWorkflow.isPending}
        onFile={upload}
      >
        {importWorkflow.isPending ? t('definitions.importing') : t('definitions.drop')}
      </FileDrop>
      <label className="check">
        <input type="checkbox" checked={promoteNow} onChange={(e) => setPromoteNow(e.target.checked)} />
        {t('definitions.promoteNow')}
      </label>
      {failure ? <RefusedLines title={failure.title} lines={failure.lines} /> : null}
    </section>
  );
}

function Versions({ workflow, onClose }: { workflow: WorkflowSummary; onClose: () => void }) {
  const { t } = useTranslation('workflows');
  const detail = useRecord(workflowApi.get, { id: workflow.id });
  const promote = useWrite(workflowApi.promote);
  const toast = useToasts();
  const versions = [...(detail.data?.versions ?? [])].sort((a, b) => b.version - a.version);
  return (
    <Drawer title={t('definitions.versionsTitle', { name: workflow.name })} onClose={onClose}>
      <div className="drawer-body">
        {detail.error ? <ErrorBanner error={detail.error} /> : null}
        <DataTable
          label={t('definitions.versions')}
          className="compact"
          rows={versions}
          loading={detail.isPending}
          rowKey={(v) => v.version}
          columns={[
            { id: 'version', header: t('definitions.columns.version'), cell: (v) => `v${v.version}` },
            {
              id: 'created',
              header: t('definitions.columns.created'),
              className: 'date',
              cell: (v) => formatDateTime(v.createdAt),
            },
            {
              // Who wrote a version does not approve its runs (four eyes): the reviewer sees whose it is.
              id: 'author',
              header: t('definitions.columns.author'),
              cell: (v) =>
                v.authorName ?? (v.author === 'cli' ? t('definitions.columns.authorCli') : v.author === null ? '—' : v.author),
            },
            {
              id: 'state',
              header: t('definitions.columns.state'),
              cell: (v) =>
                v.promoted ? (
                  <span className="status-pill ok">{t('definitions.promotedPill')}</span>
                ) : v.valid ? null : (
                  <span className="status-pill bad">{t('definitions.invalidPill')}</span>
                ),
            },
            {
              id: 'actions',
              header: t('common:actions'),
              srOnlyHeader: true,
              className: 'num',
              cell: (v) =>
                v.promoted || !v.valid ? null : (
                  <button
                    type="button"
                    className="btn small"
                    disabled={promote.isPending}
                    onClick={() =>
                      promote
                        .mutateAsync({ params: { id: workflow.id }, body: { version: v.version } })
                        .then(() => toast.show(t('definitions.promoted', { name: workflow.name, version: v.version })))
                        .catch((err) => toast.error(err, t('definitions.promoteFailed')))
                    }
                  >
                    {t('definitions.promote', { version: v.version })}
                  </button>
                ),
            },
          ]}
        />
      </div>
    </Drawer>
  );
}
