/**
 * Time: the week's entries (`/time?week=…&project=…`), recording time by hand, and the tracker's projects with what
 * is unbilled; a project's timer starts from its row (the header shows it running on every screen) and its
 * unbilled time becomes an invoice draft in one step; entries and projects open in a drawer to be changed.
 * Keyboard: `n` for a new project.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TrackerProject } from '../../../src-shared/contract/tracker';
import { trackerRoutes } from '../../../src-shared/contract/tracker';
import { PageHeader } from '../../components/PageHeader';
import { useRecord } from '../../data/use-read';
import { useRouter } from '../../lib/router';
import { useScreenKeys } from '../../lib/use-screen-keys';
import { NewInvoice } from '../invoices/NewInvoice';
import { ProjectForm } from './ProjectForm';
import { type ProjectActions, ProjectsTable } from './ProjectsTable';
import { useTimeView } from './use-time-view';
import { useTimer } from './use-timer';
import { WeekView } from './WeekView';
import './time.css';

export function TimeScreen() {
  const { t } = useTranslation('time');
  const [view, setView] = useTimeView();
  const timer = useTimer();
  const navigate = useRouter((r) => r.navigate);
  const [creating, setCreating] = useState(false);
  const [invoicing, setInvoicing] = useState<TrackerProject | null>(null);
  const [editing, setEditing] = useState<TrackerProject | null>(null);
  const project = useRecord(trackerRoutes.getProject, { id: view.project ?? '' }, { enabled: Boolean(view.project) });

  useScreenKeys({ n: () => setCreating(true) }, { enabled: !creating && !invoicing && !editing });

  const actions: ProjectActions = {
    runningProjectId: timer.running?.projectId,
    busy: timer.busy,
    startTimer: (p) => void timer.start(p.id),
    showTime: (p) => {
      setView({ project: p.id });
      document.getElementById('week-title')?.scrollIntoView({ block: 'start' });
    },
    invoice: (p) => setInvoicing(p),
    edit: (p) => setEditing(p),
  };

  return (
    <div className="page time-page">
      <PageHeader namespace="time">
        <button type="button" className="btn primary" onClick={() => setCreating(true)}>
          {t('projects.new')} <kbd>N</kbd>
        </button>
      </PageHeader>
      <WeekView view={view} setView={setView} projectName={view.project ? (project.data?.name ?? '…') : null} />
      <ProjectsTable actions={actions} onNew={() => setCreating(true)} />
      {creating ? <ProjectForm onClose={() => setCreating(false)} onCreated={(p) => setView({ project: p.id })} /> : null}
      {editing ? <ProjectForm project={editing} onClose={() => setEditing(null)} /> : null}
      {invoicing ? (
        <NewInvoice
          projectId={invoicing.id}
          onClose={() => setInvoicing(null)}
          onCreated={(inv) => navigate(`/invoices/${inv.id}`)}
        />
      ) : null}
    </div>
  );
}
