/**
 * Recording finished time in the week shown: the day, the project, when it started (in the user's time zone) and
 * how long ("1:30", "1,5", "45m"), and what was done. The server's 422 messages show above the form in its words.
 */
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../src-shared/api-client';
import { trackerRoutes } from '../../../src-shared/contract/tracker';
import { dayIn } from '../../../src-shared/domain/invoice-dates';
import { useCursorList } from '../../data/use-cursor-list';
import { useWrite } from '../../data/use-write';
import { formatDate, formatPreferences, formatWorkTime } from '../../lib/format';
import { currentMarks } from '../../lib/parse-number';
import { parseClock, zonedInstant } from '../../lib/zoned-time';
import { useToasts } from '../../stores/toasts';
import { parseDuration } from './week';

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

export function AddEntry({ days, projectId }: { days: string[]; projectId: string | null }) {
  const { t } = useTranslation('time');
  const projects = useCursorList(trackerRoutes.listProjects, { status: 'in_progress', pageSize: 100, sort: ['name', 'asc'] });
  const create = useWrite(trackerRoutes.createEntry);
  const toast = useToasts();
  const today = dayIn(new Date(), formatPreferences().timezone);
  const [day, setDay] = useState(days.includes(today) ? today : (days[0] ?? today));
  const [project, setProject] = useState(projectId ?? '');
  const [start, setStart] = useState('9:00');
  const [duration, setDuration] = useState('');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const id = useId();
  const chosenDay = days.includes(day) ? day : (days[0] ?? day);
  const chosenProject = project || projects.items[0]?.id || '';

  async function submit(e: FormEvent) {
    e.preventDefault();
    const minutes = parseClock(start);
    const seconds = parseDuration(duration, currentMarks());
    const local: Record<string, string> = {};
    if (!chosenProject) local.project = t('add.errors.project');
    if (minutes === null) local.start = t('add.errors.start');
    if (seconds === null) local.duration = t('add.errors.duration');
    setErrors(local);
    if (Object.keys(local).length || minutes === null || seconds === null) return;
    try {
      const created = await create.mutateAsync({
        body: {
          projectId: chosenProject,
          date: chosenDay,
          start: zonedInstant(chosenDay, minutes, formatPreferences().timezone),
          duration: seconds,
          ...(description.trim() ? { description: description.trim() } : {}),
        },
      });
      // Without `dates` the answer is the one entry (with them, the hosted shape {data: [...]}).
      const entry = 'data' in created ? created.data[0] : created;
      if (entry) toast.show(t('add.added', { time: formatWorkTime(entry.duration), name: entry.project.name }));
      setDuration('');
      setDescription('');
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 422) setErrors({ form: err.description ?? err.message });
      else toast.error(err, t('add.failed'));
    }
  }

  const field = (name: string, label: string, control: React.ReactNode) => (
    <div className="field">
      <label htmlFor={`${id}-${name}`}>{label}</label>
      {control}
      {errors[name] ? (
        <span className="error" id={`${id}-${name}-err`} role="alert">
          {errors[name]}
        </span>
      ) : null}
    </div>
  );
  const described = (name: string) => (errors[name] ? { 'aria-describedby': `${id}-${name}-err`, 'aria-invalid': true } : {});

  return (
    <form className="add-entry" onSubmit={(e) => void submit(e)} aria-labelledby={`${id}-title`} noValidate>
      <h3 id={`${id}-title`}>{t('add.title')}</h3>
      {errors.form ? (
        <div className="banner error" role="alert">
          <span lang="en">{errors.form}</span>
        </div>
      ) : null}
      <div className="add-entry-fields">
        {field(
          'day',
          t('add.day'),
          <select id={`${id}-day`} className="select" value={chosenDay} onChange={(e) => setDay(e.target.value)}>
            {days.map((d, i) => (
              <option key={d} value={d}>
                {t(`weekdays.${WEEKDAYS[i]}`)} {formatDate(d)}
              </option>
            ))}
          </select>,
        )}
        {field(
          'project',
          t('add.project'),
          <select
            id={`${id}-project`}
            className="select"
            value={chosenProject}
            onChange={(e) => setProject(e.target.value)}
            {...described('project')}
          >
            {projects.items.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>,
        )}
        {field(
          'start',
          t('add.start'),
          <input
            id={`${id}-start`}
            className="input"
            value={start}
            inputMode="numeric"
            onChange={(e) => setStart(e.target.value)}
            {...described('start')}
          />,
        )}
        {field(
          'duration',
          t('add.duration'),
          <input
            id={`${id}-duration`}
            className="input"
            value={duration}
            placeholder={t('add.durationPlaceholder')}
            onChange={(e) => setDuration(e.target.value)}
            {...described('duration')}
          />,
        )}
        {field(
          'description',
          t('add.description'),
          <input
            id={`${id}-description`}
            className="input"
            value={description}
            maxLength={5000}
            onChange={(e) => setDescription(e.target.value)}
          />,
        )}
        <button type="submit" className="btn primary" disabled={create.isPending}>
          {t('add.submit')}
        </button>
      </div>
    </form>
  );
}
