/**
 * The invoice form of line items, for a new invoice or a draft edited (invoice-form.ts holds its rules). Each line
 * has its own VAT rate, starting at its category's rate, else the team's default (its own, else its country's
 * standard rate); a customer in another EU member state with a VAT number turns reverse charge on (every line 0 %,
 * the legal note in the invoice's language), which the person may turn off. A field's message shows when it is left;
 * on submit every message shows and the first field with one takes the focus.
 */
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../src-shared/api-client';
import { categoryRoutes } from '../../../src-shared/contract/categories';
import { type Customer, customerRoutes } from '../../../src-shared/contract/customers';
import { type Invoice, invoiceRoutes } from '../../../src-shared/contract/invoices';
import { teamRoutes } from '../../../src-shared/contract/teams';
import { reverseChargeNote, teamDefaultRate, vatSituation } from '../../../src-shared/domain/invoice-vat';
import { DateField } from '../../components/DateField';
import { ErrorBanner, Field, Kbd } from '../../components/ui';
import { useRead, useRecord } from '../../data/use-read';
import { useWrite } from '../../data/use-write';
import { type FieldErrors, FORM_KEY, fieldErrorsFrom } from '../../lib/field-errors';
import { formatNumber } from '../../lib/format';
import { currentMarks } from '../../lib/parse-number';
import { useToasts } from '../../stores/toasts';
import { CustomerPicker } from './CustomerPicker';
import {
  draftErrors,
  draftOf,
  emptyDraft,
  type InvoiceDraft,
  type LineDraft,
  restartRates,
  startRate,
  toCreateBody,
  toPatchBody,
  type VatContext,
} from './invoice-form';
import { LineItemsEditor, type RevenueCategory } from './LineItemsEditor';

/** The inputs of the line-items form: a server message about any other goes above the form. */
const FORM_FIELDS: ReadonlySet<string> = new Set([
  'customerId',
  'currency',
  'invoiceNumber',
  'issueDate',
  'dueDate',
  'discount',
  'note',
  'lineItems',
]);

/** The hosted taxonomy's revenue categories (hosted-service-facts: revenue slugs) and those under the revenue group. */
const REVENUE_SLUGS: ReadonlySet<string> = new Set([
  'revenue',
  'income',
  'product-sales',
  'service-revenue',
  'consulting-revenue',
  'subscription-revenue',
  'other-income',
]);

/** A rate in percent as the user writes numbers ("19", "7", "25,5"). */
const formatRate = (n: number) => formatNumber(n, Number.isInteger(n) ? 0 : String(n).split('.')[1]!.length);

export function InvoiceForm(props: {
  busy: boolean;
  setBusy: (busy: boolean) => void;
  onClose: () => void;
  onCreated: (invoice: Invoice) => void;
  customer: Customer | null;
  /** A draft to edit instead of a new invoice. */
  editing?: Invoice;
}) {
  const { t } = useTranslation('invoices');
  const { editing } = props;
  const settings = useRead(invoiceRoutes.settings);
  const teams = useRead(teamRoutes.list);
  const categoryList = useRead(categoryRoutes.list);
  const create = useWrite(invoiceRoutes.create);
  const update = useWrite(invoiceRoutes.update);
  const toast = useToasts((s) => s.show);
  const marks = currentMarks();
  const [draft, setDraft] = useState<InvoiceDraft>(() =>
    editing
      ? draftOf(editing, formatNumber)
      : { ...emptyDraft({ currency: props.customer?.invoiceCurrency ?? '' }), customerId: props.customer?.id ?? '' },
  );
  const [customer, setCustomer] = useState<Customer | null>(props.customer);
  const edited = useRecord(customerRoutes.get, { id: editing?.customerId ?? '' }, { enabled: Boolean(editing?.customer) });
  useEffect(() => {
    if (edited.data) setCustomer((c) => c ?? edited.data);
  }, [edited.data]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [unreadable, setUnreadable] = useState({ issueDate: false, dueDate: false });
  const [failure, setFailure] = useState<unknown>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const template = settings.data?.template;
  const team = teams.data?.data[0];

  const categories: RevenueCategory[] = useMemo(() => {
    const all = categoryList.data?.data ?? [];
    const groups = new Set(all.filter((c) => c.slug === 'revenue').map((c) => c.id));
    return all
      .filter((c) => REVENUE_SLUGS.has(c.slug) || (c.parentId !== null && groups.has(c.parentId)))
      .map((c) => ({ slug: c.slug, name: c.name, taxRate: c.taxRate }));
  }, [categoryList.data]);

  const ctx: VatContext | null = useMemo(
    () =>
      template && team
        ? {
            teamRate: teamDefaultRate(template, team.countryCode),
            includeVat: template.includeVat,
            locale: customer?.invoiceLocale ?? template.locale,
          }
        : null,
    [template, team, customer?.invoiceLocale],
  );
  const categoryRate = (slug: string) => categories.find((c) => c.slug === slug)?.taxRate ?? null;
  const rateIn = (c: VatContext | null, d: Pick<InvoiceDraft, 'reverseCharge'>) =>
    c ? (line: Pick<LineDraft, 'category'>) => startRate(d, categoryRate(line.category), c, formatRate) : null;
  const situation =
    team && customer
      ? vatSituation({ countryCode: team.countryCode }, { countryCode: customer.countryCode, vatNumber: customer.vatNumber })
      : 'domestic';

  // The team's defaults arrive after the form opens: they fill what the person has not typed yet.
  const shownCtx = useRef<VatContext | null>(editing ? ctx : null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new context (or template) restarts the rates
  useEffect(() => {
    if (!ctx || !template) return;
    const before = shownCtx.current;
    shownCtx.current = ctx;
    setDraft((d) => {
      const next = { ...d, currency: d.currency || template.currency };
      // A draft being edited keeps its rates until something that sets them changes.
      if (editing && !before) return next;
      return restartRates(next, rateIn(before, d), rateIn(ctx, d)!);
    });
  }, [ctx, template]);

  const set = <K extends keyof InvoiceDraft>(field: K, value: InvoiceDraft[K]) => {
    setDraft((d) => ({ ...d, [field]: value }));
    if (errors[field]) setErrors(({ [field]: _, ...rest }) => rest);
  };

  /** Reverse charge on or off: the lines still at the rate they started with follow. */
  function setReverseCharge(on: boolean) {
    setDraft((d) => {
      if (d.reverseCharge === on || !ctx) return { ...d, reverseCharge: on };
      return restartRates({ ...d, reverseCharge: on }, rateIn(ctx, d), rateIn(ctx, { reverseCharge: on })!);
    });
  }

  function chooseCustomer(c: Customer | null) {
    setCustomer(c);
    set('customerId', c?.id ?? '');
    if (c?.invoiceCurrency) set('currency', c.invoiceCurrency);
    if (c && team)
      setReverseCharge(
        vatSituation({ countryCode: team.countryCode }, { countryCode: c.countryCode, vatNumber: c.vatNumber }) ===
          'reverse_charge',
      );
  }

  /** A field left: its message now (a line that is still blank has none). */
  function leave(field: string) {
    const key = draftErrors(draft, marks)[field];
    setErrors((e) => {
      if (key) return { ...e, [field]: t(key) };
      if (!e[field]) return e;
      const { [field]: _, ...rest } = e;
      return rest;
    });
  }

  function localErrors(deliveryType: 'create' | 'create_and_send'): Record<string, string> {
    const local = draftErrors(draft, marks);
    if (deliveryType === 'create_and_send' && customer && !customer.billingEmail && !customer.email)
      local.customerId = 'form.errors.noEmail';
    if (unreadable.issueDate) local.issueDate = 'form.errors.day';
    if (unreadable.dueDate) local.dueDate = 'form.errors.day';
    return local;
  }

  async function submit(deliveryType: 'create' | 'create_and_send', e?: FormEvent) {
    e?.preventDefault();
    if (props.busy || !ctx) return;
    const local = localErrors(deliveryType);
    if (Object.keys(local).length) {
      setErrors(Object.fromEntries(Object.entries(local).map(([k, key]) => [k, t(key)])));
      const first = Object.keys(local)[0];
      formRef.current?.querySelector<HTMLElement>(`[data-field="${first}"], [name="${first}"]`)?.focus();
      return;
    }
    props.setBusy(true);
    setFailure(null);
    try {
      if (editing) {
        const saved = await update.mutateAsync({
          params: { id: editing.id },
          body: toPatchBody(draft, editing, ctx, marks),
        });
        toast(t('form.saved', { number: saved.invoiceNumber ?? t('numberPending') }));
        props.onClose();
        return;
      }
      const invoice = await create.mutateAsync({ body: toCreateBody(draft, deliveryType, ctx, marks) });
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
      if (err instanceof ApiClientError && err.status === 422 && err.rules.length > 0) setFailure(err);
      else if (err instanceof ApiClientError && err.status === 422) setErrors(fieldErrorsFrom(err, FORM_FIELDS));
      else if (err instanceof ApiClientError && err.status === 409) setErrors({ invoiceNumber: err.message });
      else setFailure(err);
    } finally {
      props.setBusy(false);
    }
  }

  const text = (
    field: 'currency' | 'invoiceNumber' | 'discount',
    label: string,
    extra: { hint?: string; placeholder?: string } = {},
  ) => (
    <Field label={label} error={errors[field]} hint={extra.hint}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          data-field={field}
          name={field}
          className="input"
          inputMode={field === 'discount' ? 'decimal' : undefined}
          placeholder={extra.placeholder}
          value={draft[field]}
          onChange={(e) => set(field, e.target.value)}
          onBlur={() => leave(field)}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          autoComplete="off"
        />
      )}
    </Field>
  );
  const day = (field: 'issueDate' | 'dueDate', label: string, hint: string) => (
    <DateField
      name={field}
      label={label}
      value={draft[field]}
      hint={hint}
      error={errors[field]}
      onChange={(iso, valid) => {
        set(field, iso);
        setUnreadable((u) => ({ ...u, [field]: !valid }));
      }}
    />
  );

  const next = settings.data
    ? `${settings.data.numberPrefix}${String(settings.data.nextNumber).padStart(settings.data.numberWidth, '0')}`
    : '';
  const note = ctx ? reverseChargeNote(ctx.locale) : '';

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
                autoFocus={!props.customer && !editing}
                describedBy={describedBy}
                invalid={invalid}
                onChange={chooseCustomer}
              />
            )}
          </Field>
          {customer ? (
            <p className="faint small" data-testid="bill-to-email">
              {customer.billingEmail ?? customer.email ?? t('form.noEmailYet')}
            </p>
          ) : null}
          {customer && (situation === 'reverse_charge' || draft.reverseCharge) ? (
            <div className="inv-situation">
              <label className="check">
                <input
                  type="checkbox"
                  name="reverseCharge"
                  checked={draft.reverseCharge}
                  onChange={(e) => setReverseCharge(e.target.checked)}
                />{' '}
                {t('form.reverseCharge')}
              </label>
              <p className="hint">
                {draft.reverseCharge
                  ? t('form.reverseChargeOn', { note })
                  : t('form.reverseChargeOff', { vatNumber: customer.vatNumber ?? '' })}
              </p>
            </div>
          ) : null}
        </section>
        <section className="form-section">
          <h3>{t('form.details')}</h3>
          <div className="grid-3">
            {text('invoiceNumber', t('form.number'), { placeholder: editing ? '' : next, hint: t('form.numberHint') })}
            {day('issueDate', t('form.issueDate'), t('form.issueDateHint'))}
            {day('dueDate', t('form.dueDate'), t('form.dueDateHint', { count: template?.paymentTermsDays ?? 30 }))}
            {text('currency', t('form.currency'))}
            {text('discount', t('form.discount'))}
          </div>
        </section>
        <LineItemsEditor
          draft={draft}
          errors={errors}
          marks={marks}
          categories={categories}
          rateFor={(category) => (ctx ? startRate(draft, categoryRate(category), ctx, formatRate) : '')}
          onChange={(lines) => set('lines', lines)}
          onLeave={leave}
        />
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
        <button type="submit" form="invoice-form" className="btn primary" disabled={props.busy || !ctx}>
          {editing ? t('form.saveDraft') : t('form.createDraft')} <Kbd k="Ctrl ↵" />
        </button>
        {editing ? null : (
          <button type="button" className="btn" disabled={props.busy || !ctx} onClick={() => void submit('create_and_send')}>
            {t('form.createAndSend')}
          </button>
        )}
        <span className="spacer" />
        <button type="button" className="btn ghost" onClick={props.onClose} disabled={props.busy}>
          {t('common:cancel')}
        </button>
      </div>
    </>
  );
}
