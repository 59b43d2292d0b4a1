/**
 * The running timer in the app's header, on every screen: the project and the time ticking, Stop, and a small
 * popover to start a timer or switch the running one to another project (the server stops the one running, and
 * drops it under a minute). Esc or a click elsewhere closes the popover.
 */
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trackerRoutes } from '../../../src-shared/contract/tracker';
import { useCursorList } from '../../data/use-cursor-list';
import { useDismiss } from '../../lib/use-dismiss';
import { useElapsed, useTimer } from './use-timer';
import { clock } from './week';
import './time.css';

export function TimerControl({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation('time');
  const timer = useTimer(enabled);
  const running = timer.running;
  const elapsed = useElapsed(running?.start);
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLFormElement>(null);

  useDismiss(open, () => setOpen(false), { panel: panelRef, button: buttonRef });

  if (!enabled || timer.loading) return null;
  return (
    <div className="timer" data-running={running ? 'true' : 'false'}>
      {running ? (
        <>
          <span className="timer-dot" aria-hidden="true" />
          <span className="timer-project" title={running.description ?? running.project.name}>
            {running.project.name}
          </span>
          <span className="timer-clock" role="timer" aria-label={t('timer.elapsed', { name: running.project.name })}>
            {clock(elapsed)}
          </span>
          <button type="button" className="btn small" disabled={timer.busy} onClick={() => void timer.stop()}>
            {t('timer.stop')}
          </button>
        </>
      ) : null}
      <button
        ref={buttonRef}
        type="button"
        className="btn ghost small"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
      >
        {running ? t('timer.switch') : t('timer.start')}
      </button>
      {open ? (
        <StartPanel
          id={panelId}
          panelRef={panelRef}
          runningProjectId={running?.projectId}
          busy={timer.busy}
          onStart={async (projectId, description) => {
            if (await timer.start(projectId, description)) {
              setOpen(false);
              buttonRef.current?.focus();
            }
          }}
        />
      ) : null}
    </div>
  );
}

function StartPanel(props: {
  id: string;
  panelRef: React.RefObject<HTMLFormElement | null>;
  runningProjectId: string | undefined;
  busy: boolean;
  onStart: (projectId: string, description: string) => void;
}) {
  const { t } = useTranslation('time');
  const projects = useCursorList(trackerRoutes.listProjects, { status: 'in_progress', pageSize: 100, sort: ['name', 'asc'] });
  const choices = projects.items.filter((p) => p.id !== props.runningProjectId);
  const [projectId, setProjectId] = useState('');
  const [description, setDescription] = useState('');
  const chosen = projectId || choices[0]?.id || '';
  const selectId = useId();
  const noteId = useId();
  const titleId = useId();
  const selectRef = useRef<HTMLSelectElement>(null);
  useEffect(() => selectRef.current?.focus(), []);

  function submit(e: FormEvent) {
    e.preventDefault();
    if (chosen) props.onStart(chosen, description);
  }

  return (
    <form
      ref={props.panelRef}
      id={props.id}
      className="popover timer-panel"
      role="dialog"
      aria-labelledby={titleId}
      onSubmit={submit}
    >
      <h2 id={titleId}>{props.runningProjectId ? t('timer.switchTitle') : t('timer.startTitle')}</h2>
      <label className="field" htmlFor={selectId}>
        <span className="label">{t('timer.project')}</span>
        <select
          ref={selectRef}
          id={selectId}
          className="select"
          value={chosen}
          onChange={(e) => setProjectId(e.target.value)}
          disabled={projects.isLoading}
        >
          {projects.isLoading ? <option value="">{t('common:loading')}</option> : null}
          {choices.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <label className="field" htmlFor={noteId}>
        <span className="label">{t('timer.description')}</span>
        <input
          id={noteId}
          className="input"
          value={description}
          maxLength={5000}
          onChange={(e) => setDescription(e.target.value)}
        />
      </label>
      {!projects.isLoading && choices.length === 0 ? <p className="faint small">{t('timer.noProjects')}</p> : null}
      <div className="panel-actions">
        <button type="submit" className="btn primary" disabled={!chosen || props.busy}>
          {props.runningProjectId ? t('timer.switchSubmit') : t('timer.startSubmit')}
        </button>
      </div>
    </form>
  );
}
