/**
 * A new invoice, in a drawer: written from line items (the totals shown as they will be, by the server's rule), or
 * drafted from a tracker project's unbilled time (docs/decisions/0077). Line items are created as a draft or sent
 * at once; time becomes a draft to check before sending. Esc closes, Ctrl/⌘+Enter creates the draft.
 */
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../src-shared/api-client';
import type { Customer } from '../../../src-shared/contract/customers';
import { type Invoice, invoiceRoutes } from '../../../src-shared/contract/invoices';
import { Drawer } from '../../components/Drawer';
import { ErrorBanner, Field, Kbd } from '../../components/ui';
import { useRead } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { type FieldErrors, FORM_KEY, fieldErrorsFrom } from '../../lib/field-errors';
import { formatNumber } from '../../lib/format';
import { currentMarks } from '../../lib/parse-number';
import { useToasts } from '../../stores/toasts';
import { CustomerPicker } from './CustomerPicker';
import { FromTrackedTime } from './FromTrackedTime';
import { draftErrors, emptyDraft, type InvoiceDraft, toCreateBody } from './invoice-form';
import { LineItemsEditor } from './LineItemsEditor';

/** The inputs of the line-items form: a server message about any other goes above the form. */
const FORM_FIELDS: ReadonlySet<string> = new Set([
  'customerId',
  'currency',
  'invoiceNumber',
  'issueDate',
  'dueDate',
  'discount',
  'note',
]);

type Mode = 'lines' | 'time';

/** A rate in percent as the user writes numbers ("19", "7,5"). */
const formatRate = (n: number) => formatNumber(n, Number.isInteger(n) ? 0 : 2);

export function NewInvoice(props: {
  onClose: () => void;
  onCreated: (invoice: Invoice) => void;
  /** Open on tracked time, with this project chosen (from the Time screen). */
  projectId?: string;
  /** Bill this customer (from the customer's page). */
  customer?: Customer;
}) {
  const { t } = useTranslation('invoices');
  const [mode, setMode] = useState<Mode>(props.projectId ? 'time' : 'lines');
  const [busy, setBusy] = useState(false);
  return (
    <Drawer title={t('form.title')} onClose={props.onClose} busy={busy} className="wide">
      <div className="drawer-mode">
        <fieldset className="segmented-field">
          <legend className="sr-only">{t('form.from')}</legend>
          <div className="segmented">
            {(['lines', 'time'] as const).map((m) => (
              <label key={m} className="segment">
                <input type="radio" name="invoice-from" value={m} checked={mode === m} onChange={() => setMode(m)} />
                <span>{t(`form.modes.${m}`)}</span>
              </label>
            ))}
          </div>
        </fieldset>
      </div>
      {mode === 'lines' ? (
        <LineItemsForm
          busy={busy}
          setBusy={setBusy}
          onClose={props.onClose}
          onCreated={props.onCreated}
          customer={props.customer ?? null}
        />
      ) : (
        <FromTrackedTime
          busy={busy}
          setBusy={setBusy}
          onClose={props.onClose}
          onCreated={props.onCreated}
          projectId={props.projectId}
        />
      )}
    </Drawer>
  );
}

function LineItemsForm(props: {
  busy: boolean;
  setBusy: (busy: boolean) => void;
  onClose: () => void;
  onCreated: (invoice: Invoice) => void;
  customer: Customer | null;
}) {
  const { t } = useTranslation('invoices');
  const settings = useRead(invoiceRoutes.settings);
  const create = useWrite(invoiceRoutes.create);
  const toast = useToasts((s) => s.show);
  const marks = currentMarks();
  const [draft, setDraft] = useState<InvoiceDraft>(() => ({
    ...emptyDraft({ currency: props.customer?.invoiceCurrency ?? '', vatRate: null, formatRate: formatRate }),
    customerId: props.customer?.id ?? '',
  }));
  const [customer, setCustomer] = useState<Customer | null>(props.customer);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<unknown>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const template = settings.data?.template;

  // The team's defaults arrive after the form opens: they fill what the person has not typed yet.
  useEffect(() => {
    if (!template) return;
    setDraft((d) => ({
      ...d,
      currency: d.currency || template.currency,
      vatRate:
        d.vatRate || (template.includeVat ? formatNumber(template.vatRate, Number.isInteger(template.vatRate) ? 0 : 2) : ''),
    }));
  }, [template]);

  const set = <K extends keyof InvoiceDraft>(field: K, value: InvoiceDraft[K]) => {
    setDraft((d) => ({ ...d, [field]: value }));
    if (errors[field]) setErrors(({ [field]: _, ...rest }) => rest);
  };

  async function submit(deliveryType: 'create' | 'create_and_send', e?: FormEvent) {
    e?.preventDefault();
    if (props.busy) return;
    const local = draftErrors(draft, marks);
    if (deliveryType === 'create_and_send' && customer && !customer.billingEmail && !customer.email)
      local.customerId = 'form.errors.noEmail';
    if (Object.keys(local).length) {
      setErrors(Object.fromEntries(Object.entries(local).map(([k, key]) => [k, t(key)])));
      const first = Object.keys(local)[0];
      formRef.current?.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
      return;
    }
    props.setBusy(true);
    setFailure(null);
    try {
      const invoice = await create.mutateAsync({ body: toCreateBody(draft, deliveryType, marks) });
      const number = invoice.invoiceNumber ?? t('numberPending');
      toast(
        deliveryType === 'create'
          ? t('form.created', { number })
          : invoice.delivery?.state === 'awaiting_sync'
            ? t('done.invoiceAwaitingSync', { number })
            : t('done.invoiceQueued', { number }),
      );
      props.onClose();
      props.onCreated(invoice);
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 422) setErrors(fieldErrorsFrom(err, FORM_FIELDS));
      else if (err instanceof ApiClientError && err.status === 409) setErrors({ invoiceNumber: err.message });
      else setFailure(err);
    } finally {
      props.setBusy(false);
    }
  }

  const text = (
    field: 'currency' | 'invoiceNumber' | 'issueDate' | 'dueDate' | 'vatRate' | 'discount',
    label: string,
    extra: { type?: string; hint?: string; placeholder?: string } = {},
  ) => (
    <Field label={label} error={errors[field]} hint={extra.hint}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          data-field={field}
          name={field}
          className="input"
          type={extra.type ?? 'text'}
          inputMode={field === 'vatRate' || field === 'discount' ? 'decimal' : undefined}
          placeholder={extra.placeholder}
          value={draft[field]}
          onChange={(e) => set(field, e.target.value)}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          autoComplete="off"
        />
      )}
    </Field>
  );

  const next = settings.data
    ? `${settings.data.numberPrefix}${String(settings.data.nextNumber).padStart(settings.data.numberWidth, '0')}`
    : '';

  return (
    <>
      <form
        ref={formRef}
        id="invoice-form"
        className="drawer-body"
        noValidate
        onSubmit={(e) => void submit('create', e)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            void submit('create');
          }
        }}
      >
        {failure ? <ErrorBanner error={failure} /> : null}
        {errors[FORM_KEY] ? (
          <div className="banner error" role="alert">
            <span lang="en">{errors[FORM_KEY]}</span>
          </div>
        ) : null}
        <section className="form-section">
          <h3>{t('form.billTo')}</h3>
          <Field label={t('form.customer')} required error={errors.customerId}>
            {({ id, describedBy, invalid }) => (
              <CustomerPicker
                id={id}
                value={customer}
                autoFocus={!props.customer}
                describedBy={describedBy}
                invalid={invalid}
                onChange={(c) => {
                  setCustomer(c);
                  set('customerId', c?.id ?? '');
                  if (c?.invoiceCurrency) set('currency', c.invoiceCurrency);
                }}
              />
            )}
          </Field>
          {customer ? (
            <p className="faint small" data-testid="bill-to-email">
              {customer.billingEmail ?? customer.email ?? t('form.noEmailYet')}
            </p>
          ) : null}
        </section>
        <section className="form-section">
          <h3>{t('form.details')}</h3>
          <div className="grid-3">
            {text('invoiceNumber', t('form.number'), { placeholder: next, hint: t('form.numberHint') })}
            {text('issueDate', t('form.issueDate'), { type: 'date', hint: t('form.issueDateHint') })}
            {text('dueDate', t('form.dueDate'), {
              type: 'date',
              hint: t('form.dueDateHint', { count: template?.paymentTermsDays ?? 30 }),
            })}
            {text('currency', t('form.currency'))}
            {text('vatRate', t('form.vatRate'))}
            {text('discount', t('form.discount'))}
          </div>
        </section>
        <LineItemsEditor draft={draft} errors={errors} marks={marks} onChange={(lines) => set('lines', lines)} />
        <section className="form-section">
          <Field label={t('form.note')} error={errors.note} hint={t('form.noteHint')}>
            {({ id, describedBy, invalid }) => (
              <textarea
                id={id}
                name="note"
                className="textarea"
                value={draft.note}
                onChange={(e) => set('note', e.target.value)}
                aria-invalid={invalid}
                aria-describedby={describedBy}
              />
            )}
          </Field>
        </section>
      </form>
      <div className="drawer-footer">
        <button type="submit" form="invoice-form" className="btn primary" disabled={props.busy}>
          {t('form.createDraft')} <Kbd k="Ctrl ↵" />
        </button>
        <button type="button" className="btn" disabled={props.busy} onClick={() => void submit('create_and_send')}>
          {t('form.createAndSend')}
        </button>
        <span className="spacer" />
        <button type="button" className="btn ghost" onClick={props.onClose} disabled={props.busy}>
          {t('common:cancel')}
        </button>
      </div>
    </>
  );
}
