/**
 * One recorded entry in a drawer: its project, day, start (in the user's time zone), duration and what was done,
 * changed through `PATCH /tracker-entries/{id}` with only the fields that changed. An entry on an invoice is shown
 * read-only with the reason and a way to its invoice: its amount is on that invoice (the server refuses with 409).
 * Whether an entry is billable is not its own: it follows its project, edited from the project's row.
 */
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../src-shared/api-client';
import { type TrackerEntry, type TrackerEntryPatch, trackerRoutes } from '../../../src-shared/contract/tracker';
import { AppLink } from '../../components/AppLink';
import { DateField } from '../../components/DateField';
import { Drawer } from '../../components/Drawer';
import { ErrorBanner, Field, Kbd } from '../../components/ui';
import { useCursorList } from '../../data/use-cursor-list';
import { useWrite } from '../../data/use-write';
import { formatPreferences, formatWorkTime } from '../../lib/format';
import { currentMarks } from '../../lib/parse-number';
import { parseClock, zonedInstant } from '../../lib/zoned-time';
import { useToasts } from '../../stores/toasts';
import { durationText, parseDuration, wallClock } from './week';

export function EntryForm({ entry, onClose }: { entry: TrackerEntry; onClose: () => void }) {
  const { t } = useTranslation('time');
  const projects = useCursorList(trackerRoutes.listProjects, { status: 'in_progress', pageSize: 100, sort: ['name', 'asc'] });
  const update = useWrite(trackerRoutes.updateEntry);
  const toast = useToasts((s) => s.show);
  const timeZone = formatPreferences().timezone;
  const initial = {
    projectId: entry.projectId,
    ...wallClock(entry.start, timeZone),
    duration: durationText(entry.duration),
    description: entry.description ?? '',
  };
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<unknown>(null);
  const locked = entry.billed;
  // A completed project is not offered for new time, but an entry already on one keeps it.
  const options = projects.items.some((p) => p.id === entry.projectId) ? projects.items : [entry.project, ...projects.items];

  /** The changed fields, or the messages of those that cannot be read. */
  function changes(): { body: TrackerEntryPatch } | { errors: Record<string, string> } {
    const minutes = parseClock(values.time);
    const seconds = values.duration === initial.duration ? entry.duration : parseDuration(values.duration, currentMarks());
    const errors: Record<string, string> = {};
    if (!values.day) errors.day = t('edit.errors.day');
    if (minutes === null) errors.time = t('add.errors.start');
    if (seconds === null) errors.duration = t('add.errors.duration');
    if (minutes === null || seconds === null || errors.day) return { errors };
    const body: TrackerEntryPatch = {};
    if (values.projectId !== initial.projectId) body.projectId = values.projectId;
    if (values.day !== initial.day || values.time !== initial.time) {
      body.start = zonedInstant(values.day, minutes, timeZone);
      body.date = values.day;
      body.duration = seconds; // else the server keeps the stop, and a later start would shorten the entry
    } else if (seconds !== entry.duration) body.duration = seconds;
    if (values.description.trim() !== initial.description) body.description = values.description.trim() || null;
    return { body };
  }

  async function save() {
    if (locked) return;
    setFailure(null);
    const change = changes();
    setErrors('errors' in change ? change.errors : {});
    if ('errors' in change) return;
    if (Object.keys(change.body).length === 0) return onClose();
    try {
      const saved = await update.mutateAsync({ params: { id: entry.id }, body: change.body });
      const what = t('entry.what', { name: saved.project.name, time: formatWorkTime(saved.duration) });
      toast(t('edit.saved', { what }));
      onClose();
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 422) setErrors({ form: err.description ?? err.message });
      else setFailure(err);
    }
  }

  const field = (name: keyof typeof values, label: string, control: (p: ControlProps) => ReactNode) => (
    <Field label={label} error={errors[name]}>
      {({ id, describedBy, invalid }) =>
        control({
          id,
          name,
          value: values[name],
          disabled: locked,
          'aria-describedby': describedBy,
          'aria-invalid': invalid,
          onChange: (e) => setValues((v) => ({ ...v, [name]: e.target.value })),
        })
      }
    </Field>
  );

  return (
    <Drawer
      title={t(locked ? 'edit.billedTitle' : 'edit.title')}
      onClose={onClose}
      onSubmit={locked ? undefined : () => void save()}
      busy={update.isPending}
    >
      <form
        id="entry-form"
        className="drawer-body"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        {locked ? (
          // biome-ignore lint/a11y/noAutofocus: the drawer opens on why nothing in it can change
          <div className="banner info" role="note" tabIndex={-1} autoFocus>
            <span className="grow">{t('edit.billedReason')}</span>
            {entry.invoiceId ? <AppLink to={`/invoices/${entry.invoiceId}`}>{t('edit.openInvoice')}</AppLink> : null}
          </div>
        ) : null}
        {failure ? <ErrorBanner error={failure} /> : null}
        {errors.form ? (
          <div className="banner error" role="alert">
            <span lang="en">{errors.form}</span>
          </div>
        ) : null}
        {field('projectId', t('add.project'), (p) => (
          // biome-ignore lint/a11y/noAutofocus: the drawer opens on its first field
          <select className="select" autoFocus={!locked} {...p}>
            {options.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </select>
        ))}
        <div className="grid-2">
          <DateField
            name="day"
            label={t('add.day')}
            error={errors.day}
            disabled={locked}
            value={values.day}
            onChange={(day) => setValues((v) => ({ ...v, day }))}
          />
          {field('time', t('add.start'), (p) => (
            <input className="input" inputMode="numeric" autoComplete="off" {...p} />
          ))}
          {field('duration', t('add.duration'), (p) => (
            <input className="input" autoComplete="off" {...p} />
          ))}
        </div>
        {field('description', t('add.description'), (p) => (
          <input className="input" maxLength={5000} autoComplete="off" {...p} />
        ))}
      </form>
      {locked ? null : (
        <div className="drawer-footer">
          <button type="submit" form="entry-form" className="btn primary" disabled={update.isPending}>
            {t('edit.save')} <Kbd k="Ctrl ↵" />
          </button>
          <button type="button" className="btn" onClick={onClose} disabled={update.isPending}>
            {t('common:cancel')}
          </button>
        </div>
      )}
    </Drawer>
  );
}

interface ControlProps {
  id: string;
  name: string;
  value: string;
  disabled: boolean;
  'aria-describedby': string | undefined;
  'aria-invalid': boolean;
  onChange: (e: { target: { value: string } }) => void;
}
