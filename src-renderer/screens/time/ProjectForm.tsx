/**
 * A tracker project in a drawer, new or to be changed: its name, the customer it is for, whether its time is
 * billable and at which hourly rate and currency, an estimate, and (once it exists) whether it is in progress or
 * completed. A change sends only the fields that changed (`PATCH /tracker-projects/{id}`). Esc closes, Ctrl/⌘+Enter
 * saves. The server's 422 messages show under the fields they name.
 */
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../src-shared/api-client';
import { type Customer, customerRoutes } from '../../../src-shared/contract/customers';
import {
  TRACKER_PROJECT_STATUSES,
  type TrackerProject,
  type TrackerProjectCreate,
  type TrackerProjectPatch,
  trackerRoutes,
} from '../../../src-shared/contract/tracker';
import { Drawer } from '../../components/Drawer';
import { ErrorBanner, Field, Kbd } from '../../components/ui';
import { useRecord } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { type FieldErrors, FORM_KEY, fieldErrorsFrom } from '../../lib/field-errors';
import { currentMarks, parseDecimal } from '../../lib/parse-number';
import { useToasts } from '../../stores/toasts';
import { CustomerPicker } from '../invoices/CustomerPicker';

const FIELDS: ReadonlySet<string> = new Set(['name', 'customerId', 'rate', 'currency', 'estimate', 'description', 'status']);

/** A stored number as the user types it (their decimal mark, no grouping). */
const editable = (n: number | null) => (n === null ? '' : String(n).replace('.', currentMarks().decimal));

/** The fields of `next` that differ from `before` (a patch sends only those). */
function changed(next: TrackerProjectCreate, before: TrackerProjectCreate): TrackerProjectPatch {
  return Object.fromEntries(
    Object.entries(next).filter(([k, v]) => (v ?? null) !== (before[k as keyof TrackerProjectCreate] ?? null)),
  );
}

function fieldsOf(p: TrackerProject): TrackerProjectCreate {
  return {
    name: p.name,
    billable: p.billable,
    customerId: p.customerId,
    rate: p.rate,
    currency: p.currency,
    estimate: p.estimate,
    description: p.description,
    status: p.status,
  };
}

/** Without `project`, a new one (`onCreated` gets it); with it, that project to change. */
export function ProjectForm(props: { project?: TrackerProject; onClose: () => void; onCreated?: (p: TrackerProject) => void }) {
  const { t } = useTranslation('time');
  const { project } = props;
  const create = useWrite(trackerRoutes.createProject);
  const update = useWrite(trackerRoutes.updateProject);
  const toast = useToasts((s) => s.show);
  const [values, setValues] = useState({
    name: project?.name ?? '',
    rate: editable(project?.rate ?? null),
    currency: project?.currency ?? '',
    estimate: editable(project?.estimate ?? null),
    description: project?.description ?? '',
  });
  // The project's customer as a record for the picker; `undefined` until the user picks another.
  const current = useRecord(customerRoutes.get, { id: project?.customerId ?? '' }, { enabled: Boolean(project?.customerId) });
  const [picked, setPicked] = useState<Customer | null | undefined>(project?.customerId ? undefined : null);
  const customer = picked === undefined ? (current.data ?? null) : picked;
  const [billable, setBillable] = useState(project?.billable ?? true);
  const [status, setStatus] = useState(project?.status ?? 'in_progress');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<unknown>(null);

  async function submit(e?: FormEvent) {
    e?.preventDefault();
    const marks = currentMarks();
    const rate = values.rate.trim() ? parseDecimal(values.rate, marks) : null;
    const estimate = values.estimate.trim() ? parseDecimal(values.estimate, marks) : null;
    const local: FieldErrors = {};
    if (!values.name.trim()) local.name = t('form.errors.name');
    if (values.rate.trim() && (rate === null || rate < 0)) local.rate = t('form.errors.rate');
    if (billable && !values.rate.trim()) local.rate = t('form.errors.rateNeeded');
    if (values.estimate.trim() && (estimate === null || estimate < 0)) local.estimate = t('form.errors.estimate');
    setErrors(local);
    if (Object.keys(local).length) return;
    setFailure(null);
    const fields: TrackerProjectCreate = {
      name: values.name.trim(),
      billable,
      customerId: picked === undefined ? (project?.customerId ?? null) : (picked?.id ?? null),
      rate,
      // Empty: the team's base currency for a new project; an existing one keeps its own.
      currency: values.currency.trim() ? values.currency.trim().toUpperCase() : (project?.currency ?? null),
      estimate,
      description: values.description.trim() || null,
      status,
    };
    try {
      if (project) {
        const body = changed(fields, fieldsOf(project));
        if (Object.keys(body).length) {
          const saved = await update.mutateAsync({ params: { id: project.id }, body });
          toast(t('form.saved', { name: saved.name }));
        }
      } else {
        const created = await create.mutateAsync({ body: fields });
        toast(t('form.created', { name: created.name }));
        props.onCreated?.(created);
      }
      props.onClose();
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 422) setErrors(fieldErrorsFrom(err, FIELDS));
      else setFailure(err);
    }
  }

  const text = (name: keyof typeof values, label: string, hint?: string) => (
    <Field label={label} required={name === 'name'} error={errors[name]} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          name={name}
          className="input"
          value={values[name]}
          // biome-ignore lint/a11y/noAutofocus: the drawer opens on its first field
          autoFocus={name === 'name'}
          inputMode={name === 'rate' || name === 'estimate' ? 'decimal' : undefined}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          autoComplete="off"
          onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
        />
      )}
    </Field>
  );

  return (
    <Drawer
      title={project ? t('form.editTitle', { name: project.name }) : t('form.title')}
      onClose={props.onClose}
      onSubmit={() => void submit()}
    >
      <form id="project-form" className="drawer-body" onSubmit={(e) => void submit(e)} noValidate>
        {failure ? <ErrorBanner error={failure} /> : null}
        {errors[FORM_KEY] ? (
          <div className="banner error" role="alert">
            <span lang="en">{errors[FORM_KEY]}</span>
          </div>
        ) : null}
        {text('name', t('form.name'))}
        <Field label={t('form.customer')} error={errors.customerId} hint={t('form.customerHint')}>
          {({ id, describedBy, invalid }) => (
            <CustomerPicker
              key={current.data ? 'loaded' : 'none'}
              id={id}
              value={customer}
              onChange={setPicked}
              describedBy={describedBy}
              invalid={invalid}
            />
          )}
        </Field>
        <label className="check">
          <input type="checkbox" checked={billable} onChange={(e) => setBillable(e.target.checked)} />
          {t('form.billable')}
        </label>
        <div className="grid-2">
          {text('rate', t('form.rate'))}
          {text('currency', t('form.currency'), t('form.currencyHint'))}
          {text('estimate', t('form.estimate'))}
        </div>
        {text('description', t('form.description'))}
        {project ? (
          <Field label={t('form.status')} error={errors.status}>
            {({ id, describedBy, invalid }) => (
              <select
                id={id}
                className="select"
                value={status}
                aria-invalid={invalid}
                aria-describedby={describedBy}
                onChange={(e) => setStatus(e.target.value as TrackerProject['status'])}
              >
                {TRACKER_PROJECT_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {t(`projects.status.${s}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ) : null}
      </form>
      <div className="drawer-footer">
        <button type="submit" form="project-form" className="btn primary" disabled={create.isPending || update.isPending}>
          {t(project ? 'form.save' : 'form.create')} <Kbd k="Ctrl ↵" />
        </button>
        <button type="button" className="btn" onClick={props.onClose}>
          {t('common:cancel')}
        </button>
      </div>
    </Drawer>
  );
}
