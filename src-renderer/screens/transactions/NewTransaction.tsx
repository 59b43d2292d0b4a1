/**
 * Adding a transaction by hand (cash paid, a card line the bank has not sent yet): the account, the day, what it
 * was, which way the money went and how much — read in the person's number format — and optionally its category
 * and a note. It is a manual transaction: the bank's line, when it comes, is matched to it by the import.
 */
import { type FormEvent, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiClientError } from '../../../src-shared/api-client';
import type { BankAccount } from '../../../src-shared/contract/bank-accounts';
import type { TransactionCategory } from '../../../src-shared/contract/categories';
import { transactionRoutes } from '../../../src-shared/contract/transactions';
import { dayIn } from '../../../src-shared/domain/invoice-dates';
import { DateField } from '../../components/DateField';
import { Drawer } from '../../components/Drawer';
import { Field, FormError, Kbd, TextField } from '../../components/ui';
import { useWrite } from '../../data/use-write';
import { type FieldErrors, FORM_KEY, fieldErrorsFrom } from '../../lib/field-errors';
import { formatPreferences } from '../../lib/format';
import { parseDecimal } from '../../lib/parse-number';
import { useFormState } from '../../lib/use-form-state';
import { useToasts } from '../../stores/toasts';

const FIELDS: ReadonlySet<string> = new Set(['bankAccountId', 'date', 'name', 'amount', 'categorySlug', 'note']);

export function NewTransaction(props: {
  accounts: readonly BankAccount[];
  categories: readonly TransactionCategory[];
  onClose: () => void;
}) {
  const { t } = useTranslation('transactions');
  const open = props.accounts.filter((a) => a.enabled);
  const { values, setValues, errors, setErrors, set } = useFormState({
    bankAccountId: open[0]?.id ?? '',
    date: dayIn(new Date(), formatPreferences().timezone),
    name: '',
    direction: 'out' as 'out' | 'in',
    amount: '',
    categorySlug: '',
    note: '',
  });
  const create = useWrite(transactionRoutes.create);
  const toast = useToasts();
  const directionName = useId();

  async function submit(e?: FormEvent) {
    e?.preventDefault();
    const amount = parseDecimal(values.amount);
    const local: FieldErrors = {};
    if (!values.name.trim()) local.name = t('add.nameRequired');
    if (amount === null || amount === 0) local.amount = t('add.amountRequired');
    if (!values.bankAccountId) local.bankAccountId = t('add.accountRequired');
    if (!values.date) local.date = t('common:dateField.required');
    if (Object.keys(local).length || amount === null) return setErrors(local);
    const account = props.accounts.find((a) => a.id === values.bankAccountId);
    try {
      const made = await create.mutateAsync({
        body: {
          bankAccountId: values.bankAccountId,
          date: values.date,
          name: values.name.trim(),
          amount: values.direction === 'out' ? -Math.abs(amount) : Math.abs(amount),
          currency: account?.currency ?? '',
          ...(values.categorySlug ? { categorySlug: values.categorySlug } : {}),
          ...(values.note.trim() ? { note: values.note.trim() } : {}),
        },
      });
      toast.show(t('add.created', { name: made.name }));
      props.onClose();
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 422) setErrors(fieldErrorsFrom(err, FIELDS));
      else toast.error(err, t('add.failed'));
    }
  }

  return (
    <Drawer title={t('add.title')} onClose={props.onClose} onSubmit={() => void submit()} busy={create.isPending}>
      <form id="new-transaction" className="drawer-body" onSubmit={submit} noValidate>
        <FormError message={errors[FORM_KEY]} />
        <div className="grid-2">
          <Field label={t('add.account')} required error={errors.bankAccountId}>
            {({ id, describedBy, invalid }) => (
              <select
                id={id}
                className="select"
                value={values.bankAccountId}
                onChange={set('bankAccountId')}
                aria-describedby={describedBy}
                aria-invalid={invalid}
              >
                {open.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name} ({a.currency})
                  </option>
                ))}
              </select>
            )}
          </Field>
          <DateField
            name="date"
            label={t('add.date')}
            required
            error={errors.date}
            value={values.date}
            onChange={(date) => set('date')({ target: { value: date } })}
          />
          <TextField
            name="name"
            label={t('add.name')}
            required
            error={errors.name}
            className="span-2"
            hint={t('add.nameHint')}
            value={values.name}
            onChange={set('name')}
            autoFocus
          />
          <fieldset className="field">
            <legend className="required">{t('add.direction')}</legend>
            <div className="segmented">
              {(['out', 'in'] as const).map((d) => (
                <label key={d} className="segment">
                  <input
                    type="radio"
                    name={directionName}
                    checked={values.direction === d}
                    onChange={() => setValues((v) => ({ ...v, direction: d }))}
                  />
                  <span>{t(`add.directions.${d}`)}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <TextField
            name="amount"
            label={t('add.amount')}
            required
            error={errors.amount}
            inputMode="decimal"
            value={values.amount}
            onChange={set('amount')}
          />
          <Field label={t('add.category')} error={errors.categorySlug}>
            {({ id, describedBy }) => (
              <select
                id={id}
                className="select"
                value={values.categorySlug}
                onChange={set('categorySlug')}
                aria-describedby={describedBy}
              >
                <option value="">{t('uncategorised')}</option>
                {props.categories.map((c) => (
                  <option key={c.id} value={c.slug}>
                    {c.parentId ? `  ${c.name}` : c.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t('add.note')} error={errors.note} className="span-2">
            {({ id, describedBy }) => (
              <textarea id={id} className="textarea" value={values.note} onChange={set('note')} aria-describedby={describedBy} />
            )}
          </Field>
        </div>
      </form>
      <div className="drawer-footer">
        <button type="submit" form="new-transaction" className="btn primary" disabled={create.isPending}>
          {t('add.save')}
          <Kbd k="Ctrl ↵" />
        </button>
        <button type="button" className="btn" onClick={props.onClose} disabled={create.isPending}>
          {t('common:cancel')}
        </button>
      </div>
    </Drawer>
  );
}
