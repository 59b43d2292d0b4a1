/**
 * Workflows: the runs (list and detail, decided in place) and the workflows themselves (import, promote, activate),
 * one view at a time, kept in the address (`/workflows?view=definitions&run=…`); "Start a run" asks for what the
 * run needs from either.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { Tabs } from '../../components/Tabs';
import { DefinitionsView } from './DefinitionsView';
import { RunsView } from './RunsView';
import { type StartFrom, StartRunDialog } from './StartRunDialog';
import './workflows.css';

const VIEWS = ['runs', 'definitions'] as const;
type View = (typeof VIEWS)[number];

function fromUrl(): { view: View; run: string | null } {
  const p = new URLSearchParams(globalThis.location?.search ?? '');
  return { view: p.get('view') === 'definitions' ? 'definitions' : 'runs', run: p.get('run') };
}

/** Writes the view and the chosen run into the address, replacing it (no history entry per click). */
function keepInUrl(view: View, run: string | null): void {
  const url = new URL(globalThis.location.href);
  if (view === 'runs') url.searchParams.delete('view');
  else url.searchParams.set('view', view);
  if (run && view === 'runs') url.searchParams.set('run', run);
  else url.searchParams.delete('run');
  globalThis.history.replaceState(null, '', `${url.pathname}${url.search}`);
}

export function WorkflowsScreen() {
  const { t } = useTranslation('workflows');
  const [view, setView] = useState<View>(() => fromUrl().view);
  const [selected, setSelected] = useState<string | null>(() => fromUrl().run);
  const [starting, setStarting] = useState<StartFrom | null>(null);

  const show = (nextView: View, run: string | null) => {
    setView(nextView);
    setSelected(run);
    keepInUrl(nextView, run);
  };

  return (
    <div className="page wf-page">
      <PageHeader namespace="workflows">
        <button type="button" className="btn primary" onClick={() => setStarting({})}>
          {t('start.button')}
        </button>
      </PageHeader>
      <Tabs
        label={t('views.label')}
        tabs={VIEWS}
        value={view}
        onChange={(v) => show(v, selected)}
        text={(v) => t(`views.${v}`)}
      />
      {view === 'runs' ? (
        <RunsView selected={selected} onSelect={(run) => show('runs', run)} onStart={setStarting} />
      ) : (
        <DefinitionsView onStart={setStarting} />
      )}
      {starting ? (
        <StartRunDialog from={starting} onClose={() => setStarting(null)} onStarted={(run) => show('runs', run)} />
      ) : null}
    </div>
  );
}
