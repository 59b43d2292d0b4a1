/**
 * A new tracker project in a drawer: its name, the customer it is for, whether its time is billable and at which
 * hourly rate and currency, an estimate. Esc closes, Ctrl/⌘+Enter creates. The server's 422 messages show under
 * the fields they name.
 */
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../src-shared/api-client';
import type { Customer } from '../../../src-shared/contract/customers';
import { type TrackerProject, trackerRoutes } from '../../../src-shared/contract/tracker';
import { Drawer } from '../../components/Drawer';
import { ErrorBanner, Field, Kbd } from '../../components/ui';
import { useWrite } from '../../data/use-write';
import { type FieldErrors, FORM_KEY, fieldErrorsFrom } from '../../lib/field-errors';
import { currentMarks, parseDecimal } from '../../lib/parse-number';
import { useToasts } from '../../stores/toasts';
import { CustomerPicker } from '../invoices/CustomerPicker';

const FIELDS: ReadonlySet<string> = new Set(['name', 'customerId', 'rate', 'currency', 'estimate', 'description']);

export function ProjectForm(props: { onClose: () => void; onCreated: (p: TrackerProject) => void }) {
  const { t } = useTranslation('time');
  const create = useWrite(trackerRoutes.createProject);
  const toast = useToasts((s) => s.show);
  const [values, setValues] = useState({ name: '', rate: '', currency: '', estimate: '', description: '' });
  const [customer, setCustomer] = useState<Customer | null>(null);
  const [billable, setBillable] = useState(true);
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
    try {
      const project = await create.mutateAsync({
        body: {
          name: values.name.trim(),
          billable,
          ...(customer ? { customerId: customer.id } : {}),
          ...(rate !== null ? { rate } : {}),
          ...(values.currency.trim() ? { currency: values.currency.trim().toUpperCase() } : {}),
          ...(estimate !== null ? { estimate } : {}),
          ...(values.description.trim() ? { description: values.description.trim() } : {}),
          status: 'in_progress',
        },
      });
      toast(t('form.created', { name: project.name }));
      props.onCreated(project);
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
    <Drawer title={t('form.title')} onClose={props.onClose} onSubmit={() => void submit()}>
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
            <CustomerPicker id={id} value={customer} onChange={setCustomer} describedBy={describedBy} invalid={invalid} />
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
      </form>
      <div className="drawer-footer">
        <button type="submit" form="project-form" className="btn primary" disabled={create.isPending}>
          {t('form.create')} <Kbd k="Ctrl ↵" />
        </button>
        <button type="button" className="btn" onClick={props.onClose}>
          {t('common:cancel')}
        </button>
      </div>
    </Drawer>
  );
}
