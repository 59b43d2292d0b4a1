/**
 * Create / edit a customer in a side drawer. Field messages come from the server's 422 answer (the contract
 * validates; the form does not duplicate its rules beyond "name is required"). Esc closes, Ctrl/⌘+Enter saves.
 * Writes go through the data layer, which refreshes the customers list (and any open record) when they succeed.
 */
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../src-shared/api-client';
import { type Customer, customerRoutes } from '../../../src-shared/contract/customers';
import { tagRoutes } from '../../../src-shared/contract/tags';
import { EInvoiceFormatField } from '../../components/EInvoiceFormatField';
import { TagField } from '../../components/TagField';
import { ConfirmDialog, ErrorBanner, Field, Kbd } from '../../components/ui';
import { useRead } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { type FieldErrors, FORM_KEY, fieldErrorsFrom } from '../../lib/field-errors';
import { countryOptions } from '../../lib/regions';
import { useRouter } from '../../lib/router';
import { useToasts } from '../../stores/toasts';
import {
  emptyForm,
  type FormValues,
  formFromCustomer,
  localErrors,
  TEXT_FIELDS,
  type TextField,
  toCreateBody,
  toPatchBody,
} from './form-model';

/** The inputs this form shows: an error about any other goes above the form. */
const FORM_FIELDS: ReadonlySet<string> = new Set([...TEXT_FIELDS, 'tags']);

export function CustomerForm({
  customer,
  onClose,
  onDeleted,
  onCreated,
  focusField,
}: {
  customer: Customer | null;
  onClose: () => void;
  /** After the customer was deleted (its page goes back to the list). */
  onDeleted?: () => void;
  /** After a new customer was made (the list makes sure it shows them). */
  onCreated?: (customer: Customer) => void;
  /** The field to start in (an invoice's e-invoice check pointed at it); else the name. */
  focusField?: TextField;
}) {
  const { t, i18n } = useTranslation('customers');
  const COUNTRY_OPTIONS = useMemo(() => countryOptions(i18n.language), [i18n.language]);
  const [values, setValues] = useState<FormValues>(() => (customer ? formFromCustomer(customer) : emptyForm()));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const tagList = useRead(tagRoutes.list);
  const tags = tagList.data?.data ?? (tagList.isError ? [] : null);
  const firstRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const create = useWrite(customerRoutes.create);
  const update = useWrite(customerRoutes.update);
  const remove = useWrite(customerRoutes.delete);
  const toast = useToasts((s) => s.show);
  const navigate = useRouter((r) => r.navigate);
  const editing = customer !== null;

  useEffect(() => {
    const named = focusField && formRef.current?.querySelector<HTMLElement>(`[name="${focusField}"]`);
    (named || firstRef.current)?.focus();
  }, [focusField]);

  const set = (field: TextField) => (e: { target: { value: string } }) => {
    const value = e.target.value;
    typedIn.current.add(field);
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors(({ [field]: _, ...rest }) => rest);
  };

  // A field is judged when it is left, once it was typed in: a mistake is said where it was made, not at Save.
  const typedIn = useRef(new Set<TextField>());
  const leave = (field: TextField) => () => {
    if (!typedIn.current.has(field)) return;
    const problem = localErrors(values)[field];
    if (problem) setErrors((prev) => ({ ...prev, [field]: problem }));
  };

  async function submit(e?: FormEvent) {
    e?.preventDefault();
    if (busy) return;
    const local = localErrors(values);
    if (Object.keys(local).length) {
      setErrors(local as FieldErrors);
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      if (customer) {
        const patch = toPatchBody(customer, values);
        if (Object.keys(patch).length > 0) await update.mutateAsync({ params: { id: customer.id }, body: patch });
        toast(Object.keys(patch).length ? t('form.saved', { name: values.name.trim() }) : t('form.noChanges'));
      } else {
        const created = await create.mutateAsync({ body: toCreateBody(values) });
        toast(t('form.created', { name: created.name }), {
          action: { label: t('form.open'), run: () => navigate(`/customers/${created.id}`) },
        });
        onCreated?.(created);
      }
      onClose();
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 422) {
        const fieldErrors = fieldErrorsFrom(err, FORM_FIELDS);
        setErrors(fieldErrors);
        const first = Object.keys(fieldErrors).find((k) => k !== FORM_KEY);
        if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      } else {
        setFailure(err);
      }
    } finally {
      setBusy(false);
    }
  }

  async function doDelete() {
    if (!customer) return;
    setBusy(true);
    try {
      await remove.mutateAsync({ params: { id: customer.id } });
      toast(t('form.deleted', { name: customer.name }));
      onClose();
      onDeleted?.();
    } catch (err) {
      setConfirmDelete(false);
      setFailure(err);
    } finally {
      setBusy(false);
    }
  }

  const input = (
    field: TextField,
    label: string,
    opts: { required?: boolean; type?: string; hint?: string; span?: boolean } = {},
  ) => (
    <Field label={label} required={opts.required} error={errors[field]} hint={opts.hint} className={opts.span ? 'span-2' : ''}>
      {({ id, describedBy, invalid, required }) => (
        <input
          id={id}
          required={required}
          ref={field === 'name' ? firstRef : undefined}
          name={field}
          className="input"
          type={opts.type ?? 'text'}
          value={values[field]}
          onChange={set(field)}
          onBlur={leave(field)}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          autoComplete="off"
        />
      )}
    </Field>
  );

  const formError = errors[FORM_KEY];
  const title = editing ? t('form.editTitle', { name: customer?.name }) : t('new');

  return (
    <>
      <div className="overlay" onClick={() => !busy && onClose()} aria-hidden="true" />
      <aside
        className="drawer"
        role="dialog"
        aria-modal="true"
        aria-label={title}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && !confirmDelete) {
            e.stopPropagation();
            onClose();
          } else if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            void submit();
          }
        }}
      >
        <div className="drawer-header">
          <h2>{title}</h2>
          <button type="button" className="btn ghost" onClick={onClose}>
            {t('common:close')} <Kbd k="Esc" />
          </button>
        </div>
        <form ref={formRef} id="customer-form" className="drawer-body" onSubmit={submit} noValidate>
          {failure ? <ErrorBanner error={failure} /> : null}
          {formError ? (
            <div className="banner error" role="alert">
              {formError}
            </div>
          ) : null}
          <section className="form-section">
            <h3>{t('form.customer')}</h3>
            <div className="grid-2">
              {input('name', t('form.name'), { required: true, span: true })}
              {input('contact', t('form.contact'))}
              {input('phone', t('form.phone'), { type: 'tel' })}
              {input('email', t('form.email'), { type: 'email' })}
              {input('billingEmail', t('form.billingEmail'), { type: 'email', hint: t('form.billingEmailHint') })}
              {input('website', t('form.website'), { span: true })}
            </div>
          </section>
          <section className="form-section">
            <h3>{t('form.address')}</h3>
            <div className="grid-2">
              {input('addressLine1', t('form.addressLine1'), { span: true })}
              {input('addressLine2', t('form.addressLine2'), { span: true })}
              {input('zip', t('form.zip'))}
              {input('city', t('form.city'))}
              {input('state', t('form.state'))}
              <Field label={t('form.country')} error={errors.countryCode}>
                {({ id, describedBy, invalid }) => (
                  <select
                    id={id}
                    name="countryCode"
                    className="select"
                    value={values.countryCode}
                    onChange={set('countryCode')}
                    aria-invalid={invalid}
                    aria-describedby={describedBy}
                  >
                    <option value="">—</option>
                    {COUNTRY_OPTIONS.map((c) => (
                      <option key={c.code} value={c.code}>
                        {c.name} ({c.code})
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            </div>
          </section>
          <section className="form-section">
            <h3>{t('form.tax')}</h3>
            <div className="grid-2">
              {input('vatNumber', t('form.vatNumber'))}
              {input('peppolId', t('form.peppolId'), { hint: t('form.peppolHint') })}
              <EInvoiceFormatField
                label={t('form.eInvoiceFormat')}
                name="eInvoiceFormat"
                value={values.eInvoiceFormat}
                onChange={(value) => set('eInvoiceFormat')({ target: { value } })}
                emptyLabel={t('form.eInvoiceFormatTeam')}
                error={errors.eInvoiceFormat}
              />
              {input('buyerReference', t('form.buyerReference'), { hint: t('form.buyerReferenceHint') })}
            </div>
          </section>
          <section className="form-section">
            <h3>{t('form.tags')}</h3>
            <TagField
              tags={tags}
              selected={values.tagIds}
              legend={t('form.tags')}
              empty={t('form.noTags')}
              loading={t('form.loadingTags')}
              onToggle={(tag, on) =>
                setValues((v) => ({
                  ...v,
                  tagIds: on ? [...v.tagIds.filter((x) => x !== tag.id), tag.id] : v.tagIds.filter((x) => x !== tag.id),
                }))
              }
            />
            {errors.tags ? <span className="error">{errors.tags}</span> : null}
          </section>
          <section className="form-section">
            <h3>{t('form.noteSection')}</h3>
            <Field label={t('form.note')} error={errors.note}>
              {({ id, describedBy, invalid }) => (
                <textarea
                  id={id}
                  name="note"
                  className="textarea"
                  value={values.note}
                  onChange={set('note')}
                  aria-invalid={invalid}
                  aria-describedby={describedBy}
                />
              )}
            </Field>
          </section>
        </form>
        <div className="drawer-footer">
          <button type="submit" form="customer-form" className="btn primary" disabled={busy}>
            {busy ? t('form.saving') : editing ? t('form.saveChanges') : t('form.create')}
            <Kbd k="Ctrl ↵" />
          </button>
          <button type="button" className="btn" onClick={onClose} disabled={busy}>
            {t('common:cancel')}
          </button>
          <span className="spacer" />
          {editing ? (
            <button type="button" className="btn danger" onClick={() => setConfirmDelete(true)} disabled={busy}>
              {t('common:delete')}
            </button>
          ) : null}
        </div>
      </aside>
      {confirmDelete && customer ? (
        <ConfirmDialog
          title={t('form.deleteTitle', { name: customer.name })}
          body={
            <p>
              {t('form.deleteText')}
              {customer.invoiceCount > 0 ? ` ${t('form.deleteInvoices', { count: customer.invoiceCount })}` : ''}
            </p>
          }
          confirmLabel={t('form.deleteConfirm')}
          danger
          busy={busy}
          onConfirm={() => void doDelete()}
          onCancel={() => setConfirmDelete(false)}
        />
      ) : null}
    </>
  );
}
